"""Mura's scoreboard and money: mura and zeros, pair by pair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.money import Penalty, settle

from ...loaded import Names
from ..base import (
    Money,
    stake_of,
)
from .play import zeros_per_mura

if TYPE_CHECKING:
    from ...models import Session


# --- the scoreboard and the money ----------------------------------------------------------

BALANCES_ALWAYS = True


def board(session: Session, names: Names) -> dict[str, Any]:
    state, per = session.state, zeros_per_mura(session)
    order = names.seats
    return {
        "mura": {names.to_name(p): state["mura"][p] for p in order},
        "zeros": {names.to_name(p): state["zeros"][p] for p in order},
        "zeros_to_next_mura": {names.to_name(p): per - state["zeros"][p] % per for p in order},
        "next_dealer": names.to_name(state["dealer"]),
        "deals": state["deals"],
    }


def _penalties(session: Session, order: Sequence[str]) -> dict[str, Penalty]:
    return {p: Penalty(session.state["mura"][p], session.state["zeros"][p]) for p in order}


def money(session: Session, order: Sequence[str]) -> Money:
    """Every pair settles the difference of their penalties (referee.money.settle)."""
    result = settle(stake_of(session), session.currency, _penalties(session, order),
                    zeros_per_mura=zeros_per_mura(session))
    body = result.as_dict()
    return Money(dict(result.balances), list(body["pairs"]), list(body["transfers"]))


def settlement_details(session: Session, names: Names) -> dict[str, Any]:
    penalties = _penalties(session, names.seats)
    return {"penalties": {names.to_name(p): {"mura": x.mura, "zeros": x.zeros}
                          for p, x in penalties.items()},
            "zeros_per_mura": zeros_per_mura(session)}
