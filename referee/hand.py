"""Looking at a dealt hand: the whiteout (*unterm Hund*, *Weiße*) that collapses a deal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import WELI, Card
from .rules import MulatschakRules

COURT_RANKS = frozenset({"ace", "king", "ober", "unter"})


def is_whiteout(hand: Iterable[Card], rules: MulatschakRules) -> bool:
    """True when the hand holds no unter or higher card (docs/rules.md, "A deal in order",
    step 3).

    With ``weli_prevents_whiteout`` the Weli saves a hand whose other cards are 10 or lower.
    """
    cards = list(hand)
    if any(c.rank in COURT_RANKS for c in cards):
        return False
    return not (rules.weli_prevents_whiteout and WELI in cards)


def deal_collapses(hands: Mapping[str, Iterable[Card]], rules: MulatschakRules) -> bool:
    """A deal collapses when any hand is a whiteout."""
    return any(is_whiteout(hand, rules) for hand in hands.values())
