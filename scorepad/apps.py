from __future__ import annotations

import importlib
import sys

from django.apps import AppConfig
from django.conf import settings
from django.urls import clear_url_caches


def routes_again() -> None:
    """The URLs hold each registered game's own routes (its Referee tools and its part of
    the referee API): when the registry changes, they are read again."""
    for name in ("scorepad.api.urls", settings.ROOT_URLCONF):
        module = sys.modules.get(name)
        if module is not None:
            importlib.reload(module)
    clear_url_caches()


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Schreiber scorepad"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.urls import register_converter
        from django.urls.converters import get_converters

        from . import games
        from .cache import grants, logins
        from .ids import TokenConverter

        games.registered()  # reads the registry: what it installs below it is there
        games.when_changed(routes_again)

        grants.connect()
        logins.connect()
        # ``<token:...>`` in the URLs (pages and API): a token or 404, before any view (once:
        # ready() runs again whenever a test installs other apps, a game among them)
        if "token" not in get_converters():
            register_converter(TokenConverter, "token")
