"""Replay every session's deals through the referee as it is now (docs/deploy.md).

A session keeps each deal's result and its running state, worked out when the deal was
recorded. When the referee learns better (a Muli now scores players at home as the
others; scores have a limit), run this once after deploying: each session whose figures
change is saved anew, and a session with a deal that the referee now refuses is named
with the deal and the codes, and left as it was, for a score keeper to correct.

    .venv/bin/python manage.py replay_sessions
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scorepad import services
from scorepad.errors import RulesBroken
from scorepad.models import Session


class Command(BaseCommand):
    help = "Replay every session through the referee; save what changed, name what fails."

    def handle(self, *args: Any, **options: Any) -> None:
        changed = refused = 0
        for session in Session.objects.order_by("pk").iterator():
            try:
                if services.session_replay(session=session):
                    changed += 1
                    self.stdout.write(f"session {session.pk}: replayed, figures changed")
            except RulesBroken as e:
                refused += 1
                codes = ", ".join(v.code for v in e.violations)
                self.stdout.write(f"session {session.pk}: deal {e.number} is refused now "
                                  f"({codes}); left as it was")
        self.stdout.write(f"{changed} sessions changed, {refused} with a refused deal")
