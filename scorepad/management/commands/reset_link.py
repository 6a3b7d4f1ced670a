"""Print a one-time link that sets a new password for an account (account recovery by
staff, docs/deploy.md):

    .venv/bin/python manage.py reset_link anna --base-url https://schreiber.example.org

The link is a full URL under ``--base-url`` (else the ``SCHREIBER_BASE_URL`` setting),
otherwise its path. It works once, until the account's next login, and for a day
(``PASSWORD_RESET_TIMEOUT``). Pass it on in person or in a private message.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorepad import accounts


class Command(BaseCommand):
    help = "Print a one-time password reset link for USERNAME."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--base-url", default=None,
                            help="where the site is reached, e.g. https://schreiber.example.org"
                                 " (default: the SCHREIBER_BASE_URL setting)")

    def handle(self, *args: Any, **options: Any) -> None:
        base = options["base_url"]
        if base is not None:
            parts = urlsplit(base)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise CommandError("--base-url must look like https://schreiber.example.org")
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no account has the username {options['username']!r}")
        self.stdout.write(accounts.reset_link(user, base))
        hours = settings.PASSWORD_RESET_TIMEOUT // 3600
        self.stderr.write(f"One-time link for {user.get_username()}: it works once, until "
                          f"their next login, and for {hours} h.")
