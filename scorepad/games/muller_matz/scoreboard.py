"""Müller Matz's scoreboard and money."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee import tally
from referee.money import transfer_plan
from referee.muller_matz import packs_for

from ...loaded import Names
from ..base import Money, stake_of
from .play import session_rules

if TYPE_CHECKING:
    from ...models import Session


# --- the scoreboard and the money ----------------------------------------------------------

BALANCES_ALWAYS = True


def board(session: Session, names: Names) -> dict[str, Any]:
    order = names.seats
    return {
        "losses": {names.to_name(p): session.state["losses"][p] for p in order},
        "games_played": session.state["games"],
        "packs": packs_for(len(order), session_rules(session)),
    }


def money(session: Session, order: Sequence[str]) -> Money:
    """Every lost game, the loser pays each other player the stake."""
    state = tally.MatzState({p: session.state["losses"][p] for p in order},
                            session.state["games"])
    balances = tally.matz_balances(state, stake_of(session), session.currency)
    return Money(balances, [], [t.as_dict() for t in transfer_plan(balances)])


def settlement_details(session: Session, names: Names) -> dict[str, Any]:
    return {}
