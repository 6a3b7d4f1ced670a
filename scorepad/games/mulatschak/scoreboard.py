"""Mulatschak's scoreboard and money: the scores of the game being played, the finished
games, and the payments at each game's end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee import tally
from referee.money import transfer_plan
from referee.session import next_sitting_out, pending_multiplier

from ...loaded import Names
from ..base import Money, stake_of
from .play import session_rules, state_from_json

if TYPE_CHECKING:
    from ...models import Session


# --- the scoreboard and the money ----------------------------------------------------------

BALANCES_ALWAYS = False  # only with a stake


def board(session: Session, names: Names) -> dict[str, Any]:
    state = state_from_json(session.state)
    frozen = session_rules(session)
    multiplier, factors = pending_multiplier(frozen, state)
    order = names.seats
    out = next_sitting_out(frozen, order, state)
    return {
        "game_number": state.game_number,
        "scores": {names.to_name(p): state.scores[p] for p in order},
        "next_dealer": names.to_name(state.dealer),
        "next_sitting_out": None if out is None else names.to_name(out),
        "pending_multiplier": multiplier,
        "pending_factors": list(factors),
        "game_over": state.game_over,
        "winners": [names.to_name(p) for p in state.winners],
        "games": [
            {
                "number": g["number"],
                "final_scores": {names.to_name(p): g["final_scores"][p] for p in order},
                "winners": [names.to_name(p) for p in g["winners"]],
            }
            for g in session.state.get("games", [])  # the most recent (services pages them)
        ],
        "deals": state.deals,
    }


def money(session: Session, order: Sequence[str]) -> Money:
    """At each game's end every player pays the winner the difference of their scores
    times the stake (tied winners share it)."""
    stake, currency = stake_of(session), session.currency
    payments = [
        pay for g in all_finished_games(session)
        for pay in tally.game_payments(g["final_scores"], g["winners"], stake, currency)
    ]
    balances = tally.balances_of(payments, order, currency)
    return Money(balances, [{"from": a, "to": b, "amount": str(x)} for a, b, x in payments],
                 [t.as_dict() for t in transfer_plan(balances)])


def all_finished_games(session: Session) -> list[dict[str, Any]]:
    """Every game the session finished, oldest first: one query."""
    return list(session.finished_games.order_by("number").values_list("summary", flat=True))


def settlement_details(session: Session, names: Names) -> dict[str, Any]:
    return {"games": int(session.state.get("games_total", 0))}

