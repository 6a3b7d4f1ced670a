"""High Card as a Django app, installed for as long as a test registers it
(``tests/gamesetting.py``): its ``templates/`` and ``locale/`` are found by Django's own
loaders and translations, as a real game's are."""

from __future__ import annotations

from django.apps import AppConfig


class HighCardConfig(AppConfig):
    name = "tests.toygame"
    label = "high_card"
    verbose_name = "High Card"
