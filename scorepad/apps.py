from __future__ import annotations

from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Schreiber scorepad"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.urls import register_converter

        from . import caching, fastpoll
        from .ids import TokenConverter

        fastpoll.connect()
        caching.connect()
        # ``<token:...>`` in the URLs (pages and API): a token or 404, before any view
        register_converter(TokenConverter, "token")
