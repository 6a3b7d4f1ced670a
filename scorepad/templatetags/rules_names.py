"""Rules and games as the pages name them: a preset's own name, never its code (issue 23),
and the games of the registry, each as it names itself."""

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


@register.simple_tag
def about_the_games() -> str:
    """The home page's sentence on the games of the registry, each named as it names
    itself (``games.about``)."""
    return games.about()
