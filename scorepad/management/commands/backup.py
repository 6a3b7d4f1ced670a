"""``manage.py backup [--output FILE]``: every group and account as one JSON file.

The file holds password hashes and e-mail addresses: keep it as private as the database.
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorepad import exchange


class Command(BaseCommand):
    help = "Write every group, session and account to one JSON file (stdout without --output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", help="the file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        text = json.dumps(exchange.backup_export(), ensure_ascii=False, indent=1)
        target = options.get("output")
        if not target:
            self.stdout.write(text)
            return
        # Written next to the target, then renamed: a crash never leaves half a backup,
        # and the file is readable by its owner only (it holds password hashes).
        partial = f"{target}.partial"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, target)
        self.stderr.write(f"backup written to {target}")
