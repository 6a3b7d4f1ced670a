"""Rules as the pages name them: a preset's own name, never its code (issue 23)."""

from __future__ import annotations

from typing import Any

from django import template

from .. import games

register = template.Library()


@register.filter
def rules_title(preset: Any, game: Any) -> str:
    """``{{ session.preset|rules_title:session.game }}`` → the preset's title; the
    game's name for a game with one set of rules, and for a preset it does not know."""
    try:
        found = games.get(str(game))
    except KeyError:
        return ""
    return found.rules_title(str(preset or ""))
