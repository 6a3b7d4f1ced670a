"""Müller Matz as a Django app (installed from the setting ``SCHREIBER_GAMES``): Django's
own template loaders, static files finders and translations find its ``templates/``,
``static/`` and ``locale/``."""

from __future__ import annotations

from django.apps import AppConfig


class MullerMatzConfig(AppConfig):
    name = "scorepad.games.muller_matz"
    verbose_name = "Müller Matz"
