"""``manage.py backup [--output FILE]``: every group and account as one JSON file.

The file holds password hashes and e-mail addresses: keep it as private as the database.
Without ``--output`` it goes to stdout, but never into a terminal (a pipe or a redirect is
fine: ``backup | gzip > file``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorepad.transfer import backups


class Command(BaseCommand):
    help = ("Write every group, session and account to one JSON file (to stdout without "
            "--output, but not into a terminal).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", help="the file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        target = options.get("output")
        if not target:
            if self.stdout.isatty():
                raise CommandError("refusing to print the backup (it holds password hashes) "
                                   "into a terminal: give --output FILE, or redirect stdout")
            self.stdout.write(_backup_text())
            return
        folder = Path(target).resolve().parent
        if not folder.is_dir():  # before reading the database: a typo fails at once
            raise CommandError(f"cannot write {target}: the folder {folder} does not exist")
        text = _backup_text()
        # Written next to the target, then renamed: a crash never leaves half a backup,
        # and the file is readable by its owner only (it holds password hashes).
        partial = f"{target}.partial"
        try:
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, target)
        except OSError as e:
            raise CommandError(f"cannot write {target}: {e.strerror or e}") from None
        self.stderr.write(f"backup written to {target}")


def _backup_text() -> str:
    return json.dumps(backups.backup_export(), ensure_ascii=False, indent=1)
