"""Müller Matz played: its rules, start, apply and replay through the referee."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee import tally
from referee.muller_matz import MullerMatzRules, muller_matz_rules

from ...loaded import PlayerKeys
from ..base import GameRules, JsonReplayer, tallied

if TYPE_CHECKING:
    from ...models import Session


# --- playing ---------------------------------------------------------------------------

NAME = "muller_matz"  # Session.game
TITLE = "Müller Matz"


def rules_title(preset: str) -> str:
    """One set of rules: the game's name is the rules' name."""
    return TITLE


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    matz = muller_matz_rules(overrides or {})
    return GameRules(NAME, dict(matz.as_params()), matz.players_min, matz.players_max)


def session_rules(session: Session) -> MullerMatzRules:
    """The rules this session's games are checked and counted with: every parameter its
    frozen rules name (docs/rules.md, "Mueller Matz parameters": the seats it allows, when
    two packs are used), the referee's default for one a session lacks."""
    return muller_matz_rules(session.rules or {})


def start(session: Session, seats: Sequence[str]) -> dict[str, Any]:
    state = tally.matz_start(seats)
    return {"losses": dict(state.losses), "games": 0}


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    if data.get("finish_order") is not None:
        return {"finish_order": list(data["finish_order"])}
    return {"loser": data.get("loser")}


def kind(data: Mapping[str, Any]) -> str:
    return "order" if "finish_order" in data else "loser"


def apply(session: Session, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before = tally.MatzState(dict(state["losses"]), state["games"])
    with tallied():
        result, after = tally.matz_apply(seats, before, data, session_rules(session))
    return (
        {"loser": result.loser, "order": list(result.order), "game_number": after.games,
         "losses_after": dict(after.losses)},
        {"losses": dict(after.losses), "games": after.games},
    )


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """No list of finished games is kept for this game."""
    return None


def replayer(session: Session, seats: Sequence[str]) -> JsonReplayer:
    return JsonReplayer(apply, session, seats, start(session, seats))


#: Not played as a tournament (docs/tournaments.md).
#: The keys of its stored deals and results that hold players (``Names`` translates them).
PLAYER_KEYS = PlayerKeys(one=("loser",), lists=("finish_order", "order"), maps=("losses_after",))

TOURNAMENT = None
