"""Remove the guests never claimed: sessions played without an account whose phone has
not used them for ``--days`` (default ``SCHREIBER_GUEST_DAYS``, 90) and that nobody
signed up to keep (scorepad/guests.py). Run it daily from cron (docs/deploy.md):

    20 4 * * *  schreiber  cd /srv/schreiber && .venv/bin/python manage.py prune_guests
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorepad.guests import guests_prune


class Command(BaseCommand):
    help = "Remove guests (sessions played without an account) unused for --days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None,
                            help="keep guests used within this many days "
                                 "(default SCHREIBER_GUEST_DAYS, 90)")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if days is None:
            days = int(getattr(settings, "SCHREIBER_GUEST_DAYS", 90))
        if days < 1:
            raise CommandError("--days must be 1 or more")
        removed = guests_prune(days=days)
        self.stdout.write(f"removed {removed} guests unused for {days} days")
