"""Template filters that turn card codes into words in the user's language."""

from __future__ import annotations

from django import template

from scorepad.games.mulatschak import TRUMPS

register = template.Library()


@register.filter
def trump_name(code: object) -> str:
    """``hearts`` → "Hearts" / "Herz" / "Piros"; an unknown code is shown as it is."""
    return str(dict(TRUMPS).get(str(code), code or ""))
