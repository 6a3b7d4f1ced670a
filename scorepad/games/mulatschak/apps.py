"""Mulatschak as a Django app (installed from the setting ``SCHREIBER_GAMES``): Django's own
template loaders, static files finders and translations find its ``templates/``,
``static/`` and ``locale/``."""

from __future__ import annotations

from django.apps import AppConfig


class MulatschakConfig(AppConfig):
    name = "scorepad.games.mulatschak"
    verbose_name = "Mulatschak"
