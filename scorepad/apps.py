from __future__ import annotations

from django.apps import AppConfig


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = "Schreiber scorepad"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import caching, fastpoll

        fastpoll.connect()
        caching.connect()
