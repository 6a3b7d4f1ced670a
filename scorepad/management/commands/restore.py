"""``manage.py restore FILE``: a backup back into an empty database, checked by the referee.

``--merge`` adds the file's groups as new groups to a database that is not empty (accounts
that exist already are kept as they are). All or nothing: one problem and nothing changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorepad.transfer import backups, fileformat


class Command(BaseCommand):
    help = "Restore a backup file written by `manage.py backup` (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file ('-' reads stdin)")
        parser.add_argument(
            "--merge", action="store_true",
            help="add the groups as new groups even if the database has data already",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            raw = (self.stdin_bytes() if name == "-" else Path(name).read_bytes())
        except OSError as e:
            raise CommandError(f"cannot read {name}: {e.strerror}") from e
        try:
            data = fileformat.read_file(raw, limit=0)
            done = backups.backup_restore(data=data, merge=options["merge"])
        except fileformat.ImportRejected as e:
            lines = [f"  {p.path or '(file)'}: {p.message}" for p in e.problems[:50]]
            more = len(e.problems) - 50
            if more > 0:
                lines.append(f"  … and {more} more")
            hint = ""
            if any(p.code == "not_empty" for p in e.problems):
                hint = "\nRestore into an empty database, or pass --merge to add the groups."
            raise CommandError("nothing was restored:\n" + "\n".join(lines) + hint) from e
        self.stdout.write(
            f"restored {done.groups} groups with {done.sessions} sessions; "
            f"{done.users} accounts created, {done.users_kept} existing accounts kept"
        )

    def stdin_bytes(self) -> bytes:
        import sys

        return sys.stdin.buffer.read()
