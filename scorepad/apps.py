from __future__ import annotations

from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Schreiber scorepad"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.urls import register_converter

        from . import games
        from .cache import grants, logins
        from .ids import TokenConverter

        games.registered()  # reads the registry: what it installs below it is there

        grants.connect()
        logins.connect()
        # ``<token:...>`` in the URLs (pages and API): a token or 404, before any view
        register_converter(TokenConverter, "token")
