"""Remove stored Idempotency-Key answers older than N hours (default 24).

A retry comes within seconds or minutes; a day is plenty. Run it daily from cron
(docs/deploy.md):

    15 4 * * *  schreiber  cd /srv/schreiber && .venv/bin/python manage.py prune_idempotency_keys
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from scorepad.models import IdempotencyKey


class Command(BaseCommand):
    help = "Remove stored Idempotency-Key answers older than --hours (default 24)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=int, default=24,
                            help="keep keys younger than this many hours (default 24)")

    def handle(self, *args: Any, **options: Any) -> None:
        hours = options["hours"]
        if hours < 1:
            raise CommandError("--hours must be 1 or more")
        cutoff = timezone.now() - timedelta(hours=hours)
        deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
        self.stdout.write(f"removed {deleted} idempotency keys older than {hours} h")
