"""Write each game's files for the phone's scorer (in ``static/games/<game>/`` of the
game's package): its rules data (``rules-data.js``) from the referee, and its violation
words in each language (``words-<language>.js``) from the compiled catalogues; ``--check``
only says whether they are up to date (scorepad.games.scorerdata).

After changing a preset, a parameter, a code or a constant in referee/, or a violation's
words in a catalogue (compiled first: msgfmt):

    .venv/bin/python manage.py scorer_data
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorepad.games import scorerdata


class Command(BaseCommand):
    help = ("Write the phone scorer's rules data of every game from the referee, and its "
            "violation words in each language from the compiled catalogues.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="write nothing; fail when a file is out of date")

    def handle(self, *args: Any, **options: Any) -> None:
        base = settings.BASE_DIR
        if options["check"]:
            stale = scorerdata.stale()
            if stale:
                raise CommandError("out of date (run manage.py scorer_data): "
                                   + ", ".join(str(p.relative_to(base)) for p in stale))
            self.stdout.write("the scorer's rules data and words are up to date")
            return
        written = scorerdata.write()
        for file in written:
            self.stdout.write(f"wrote {file.relative_to(base)}")
        if not written:
            self.stdout.write("the scorer's rules data and words are up to date")
