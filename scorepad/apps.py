from __future__ import annotations

from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Schreiber scorepad"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.urls import register_converter

        from .cache import grants, logins
        from .ids import TokenConverter

        grants.connect()
        logins.connect()
        # ``<token:...>`` in the URLs (pages and API): a token or 404, before any view
        register_converter(TokenConverter, "token")
