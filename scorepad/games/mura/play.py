"""Mura played: what it is (its name, pack, tricks), its rules, start, apply and replay
through the referee."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils.translation import pgettext_lazy

from referee import tally
from referee.mura import MURA_RULES, MuraRules, mura_rules
from referee.mura import OVERRIDES_SCHEMA as MURA_OVERRIDES

from ...fields import (
    rules_schema,
)
from ...loaded import PlayerKeys
from ..base import (
    GameRules,
    JsonReplayer,
    SlipColumn,
    TournamentPlay,
    tallied,
)

if TYPE_CHECKING:
    from ...models import Session


NAME = "mura"
TITLE = "Mura"
#: Any preset name: Mura has one rule set, its overrides are what counts.
RULES_SCHEMA = rules_schema({"type": "string"}, MURA_OVERRIDES)
TRICKS = 8
PACK = "hungarian32"
#: Violations about single cards and tricks; the counts checks that follow them only
#: repeat the same trouble in other words, so they are shown when these are absent.
CARD_CODES = {"card_not_in_pack", "card_played_twice", "wrong_number_of_plays",
              "wrong_leader", "must_follow_suit", "unknown_player"}


def session_rules(session: Session) -> MuraRules:
    """The rules this session's deals are checked and scored with: every parameter its
    frozen rules name (docs/rules.md, "Mura parameters"), the referee's default for one a
    session from before it was frozen lacks."""
    return mura_rules(session.rules or {})


def zeros_per_mura(session: Session) -> int:
    """How many zeros make a mura in this session (its frozen rules say; the referee's
    default for sessions from before the rule was frozen)."""
    return int(session.rules.get("zeros_per_mura", MURA_RULES.zeros_per_mura))


def seat_rules(seats: int) -> MuraRules:
    """The referee's rules for a table of ``seats`` where only the seats are known (a sent
    form or a deal of the history read without its session): they decide the tricks and
    who takes each, whatever else the session's rules say."""
    return replace(MURA_RULES, players=seats) if seats in (2, 4, 8) else MURA_RULES


def tricks_for(seats: int) -> int:
    """Tricks of a deal at a table of ``seats`` (all cards are dealt: 8 at four, 16 at
    two, 4 at eight); a session seats exactly its rules' ``players``."""
    return seat_rules(seats).tricks_per_deal


# --- playing ---------------------------------------------------------------------------


def rules_title(preset: str) -> str:
    """One set of rules: the game's name is the rules' name."""
    return TITLE


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    mura = mura_rules(overrides or {})
    return GameRules(NAME, dict(mura.as_params()), mura.players, mura.players)


def _json(state: tally.MuraState) -> dict[str, Any]:
    return {"mura": dict(state.mura), "zeros": dict(state.zeros), "dealer": state.dealer,
            "deals": state.deals}


def start(session: Session, seats: Sequence[str]) -> dict[str, Any]:
    return _json(tally.mura_start(seats, str(session.first_dealer_id)))


#: Marks a deal recorded card by card since sessions pass the dealer to the referee: its
#: first trick is checked to be led by the player after the dealer (docs/rules.md,
#: "First lead"). Deals stored before carry no mark and replay as they were recorded.
FIRST_LEAD = "first_lead_checked"


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    if data.get("trick_cards") is not None:
        return {"trick_cards": [dict(t) for t in data["trick_cards"]], FIRST_LEAD: True}
    return {"tricks": dict(data.get("tricks") or {}), "figures": dict(data.get("figures") or {})}


def kind(data: Mapping[str, Any]) -> str:
    return "cards" if "trick_cards" in data else "counts"


def apply(session: Session, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before = tally.MuraState(dict(state["mura"]), dict(state["zeros"]), state["dealer"],
                             state["deals"])
    with tallied():
        result, after = tally.mura_apply(seats, before, data, session_rules(session),
                                         check_first_lead=bool(data.get(FIRST_LEAD)))
    return (
        {"dealer": before.dealer,
         "results": {p: r.as_dict() for p, r in result.results.items()},
         "mura_after": dict(after.mura), "zeros_after": dict(after.zeros)},
        _json(after),
    )


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """No list of finished games is kept for this game."""
    return None


def replayer(session: Session, seats: Sequence[str]) -> JsonReplayer:
    return JsonReplayer(apply, session, seats, start(session, seats))


# --- tournaments (docs/tournaments.md) ------------------------------------------------------


def _round_scores(session: Session, seats: Sequence[str], mura: Mapping[str, Any],
                  zeros: Mapping[str, Any]) -> dict[str, Fraction]:
    """A round's score: minus the penalty points, mura + zeros ÷ ``zeros_per_mura``."""
    per = zeros_per_mura(session)
    return {p: -(Fraction(int(mura.get(p, 0))) + Fraction(int(zeros.get(p, 0)), per))
            for p in seats}


#: The most mura or zeros a score slip may give a player for one round.
SLIP_MOST = 100_000

#: The keys of its stored deals and results that hold players (``Names`` translates them).
PLAYER_KEYS = PlayerKeys(
    one=("dealer",), maps=("tricks", "figures", "results", "mura_after", "zeros_after"),
    tricks=("trick_cards",))
#: Mura knows no end of a game: a round ends after ``deals_per_round`` deals.
TOURNAMENT = TournamentPlay(
    ends_with_game=False,
    game_ended=lambda result: False,
    state_ended=lambda state: False,
    deals=lambda state: int(state.get("deals", 0)),
    score_after=lambda session, seats, result: _round_scores(
        session, seats, (result or {}).get("mura_after") or {},
        (result or {}).get("zeros_after") or {}),
    score_now=lambda session, seats, state: _round_scores(
        session, seats, state.get("mura") or {}, state.get("zeros") or {}),
    # the slip's last row: each player's mura and zeros
    slip=(SlipColumn("mura_after", pgettext_lazy("score slip", "Mura"), 0, SLIP_MOST),
          SlipColumn("zeros_after", pgettext_lazy("score slip", "Zeros"), 0, SLIP_MOST)),
)
