"""Template filters that turn card codes into words in the user's language."""

from __future__ import annotations

from django import template

from scorepad.cardnames import TRUMP_NAMES as TRUMPS

register = template.Library()


@register.filter
def trump_name(code: object) -> str:
    """``hearts`` → "Hearts" / "Herz" / "Piros"; an unknown code is shown as it is."""
    return str(dict(TRUMPS).get(str(code), code or ""))


@register.simple_tag
def picker_suits(pack: str) -> list[dict[str, object]]:
    """``{% picker_suits "hungarian32" as suits %}``: the pack for the card picker."""
    from scorepad.cardnames import picker_suits as suits

    return suits(pack)
