"""Mulatschak played: what it is (its name, what each table calls the Muli), the rules
frozen into a session, start, apply and replay through the referee, the state and each
deal's outcome as stored (JSON), a deal previewed, and the multiplier in words."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils.translation import pgettext_lazy

from referee.deal import DealResult, deal_from_dict, deal_to_dict, score_deal
from referee.rules import MAX_SCORE, PRESETS, MulatschakRules, mulatschak_rules
from referee.session import (
    DealOutcome,
    GameSummary,
    IllegalDeal,
    SessionState,
    replay,
    table_for,
)
from referee.session import apply as session_apply
from referee.session import start as session_start
from referee.violations import RuleError

from ...errors import InputError, RulesBroken
from ...loaded import Loaded, PlayerKeys
from ..base import RECENT_GAMES, GameRules, SlipColumn, TournamentPlay
from .words import FACTOR_LABELS

if TYPE_CHECKING:
    from ...models import Session


NAME = "mulatschak"  # Session.game
TITLE = "Mulatschak"
#: What each preset's players call a bid of five (docs/rules.md, "A deal in order", step 4).
MULI_NAMES = {"salzburg": "Muli", "geiser": "Mulatschak", "murln": "Murler"}


def rules_title(preset: str) -> str:
    """The preset's own name ("Mulatschak (Salzburg)"), never its code."""
    return PRESETS[preset].title if preset in PRESETS else TITLE


def session_rules(session: Session) -> MulatschakRules:
    """The rules frozen into the session when it started (checked once per process and
    set of rules: a deal asks for them twice, and checking ~40 parameters costs more
    than the referee's whole verdict)."""
    return _frozen(session.preset, json.dumps(session.rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _frozen(preset: str, rules: str) -> MulatschakRules:
    return mulatschak_rules(preset, json.loads(rules))


# --- playing ---------------------------------------------------------------------------


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    frozen = mulatschak_rules(preset or "salzburg", overrides or {})
    return GameRules(frozen.name, frozen.as_params(), frozen.players_min, frozen.players_max)


# --- the state and a deal's outcome as stored (JSON) -------------------------------------


def game_json(game: GameSummary) -> dict[str, Any]:
    return {"number": game.number, "final_scores": dict(game.final_scores),
            "winners": list(game.winners)}


def state_to_json(state: SessionState, before: Mapping[str, Any] | None = None
                  ) -> dict[str, Any]:
    """The state as stored: every finished game has a row of its own (FinishedGame); the
    state lists the most recent ``RECENT_GAMES`` and counts them all (``games_total``).
    ``before``: the stored state ``state`` was played on (its games only the new ones)."""
    finished = [game_json(g) for g in state.games]
    total = len(finished)
    if before is not None:
        total += int(before.get("games_total", 0))
        finished = list(before.get("games", [])) + finished
    return {
        "game_number": state.game_number,
        "scores": dict(state.scores),
        "dealer": state.dealer,
        "collapses": state.collapses,
        "previous_stayed_home": sorted(state.previous_stayed_home),
        "game_over": state.game_over,
        "winners": list(state.winners),
        "games": finished[-RECENT_GAMES:],
        "games_total": total,
        "deals": state.deals,
        "knocks": state.knocks,
    }


def state_from_json(data: Mapping[str, Any]) -> SessionState:
    """The referee's state of a stored one, without the finished games (the referee only
    appends to them; the new ones are what a deal adds)."""
    return SessionState(
        game_number=data["game_number"],
        scores=dict(data["scores"]),
        dealer=data["dealer"],
        collapses=data["collapses"],
        previous_stayed_home=frozenset(data["previous_stayed_home"]),
        game_over=data["game_over"],
        winners=tuple(data["winners"]),
        deals=data["deals"],
        knocks=data.get("knocks", 0),  # states stored before knocks carried over have none
    )


def outcome_to_json(outcome: DealOutcome) -> dict[str, Any]:
    r = outcome.result
    return {
        "dealer": outcome.dealer,
        "game_number": outcome.game_number,
        "scores_before": dict(outcome.scores_before),
        "collapses_before": outcome.collapses_before,
        "multiplier": r.multiplier,
        "factors": [str(f) for f in r.factors],
        "deltas": dict(r.deltas),
        "base": dict(r.base),
        "reasons": {p: str(v) for p, v in r.reasons.items()},
        "scores_after": dict(r.scores_after),
        "declarer_made": r.declarer_made,
        "game_over": r.game_over,
        "winners": list(r.winners),
        "knocks_before": outcome.knocks_before,
        "sitting_out": r.sitting_out,
    }


# --- through the referee -----------------------------------------------------------------


def _deal(data: Mapping[str, Any]) -> Any:
    """The referee's Deal; a shape it cannot read is an InputError naming the field."""
    try:
        return deal_from_dict(data)
    except RuleError as e:
        raise InputError.from_rule_error(e) from e


def start(session: Session, seats: Sequence[str]) -> dict[str, Any]:
    return state_to_json(session_start(session_rules(session), seats,
                                       str(session.first_dealer_id)))


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    return deal_to_dict(_deal(data))


def kind(data: Mapping[str, Any]) -> str:
    return str(data["kind"])


def apply(session: Session, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        outcome, new = session_apply(session_rules(session), seats, state_from_json(state),
                                     _deal(data))
    except IllegalDeal as e:
        raise RulesBroken(e.violations) from e
    return outcome_to_json(outcome), state_to_json(new, state)


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game a deal's result ended (its FinishedGame summary), if it ended one."""
    if not result.get("game_over"):
        return None
    return {"number": result["game_number"], "final_scores": dict(result["scores_after"]),
            "winners": list(result.get("winners", []))}


class Replayer:
    """Replays deals on the referee's own state (it collects every finished game),
    converting to JSON only at the end."""

    def __init__(self, session: Session, seats: Sequence[str]) -> None:
        self.rules, self.seats = session_rules(session), seats
        self._state = session_start(self.rules, seats, str(session.first_dealer_id))

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            outcome, self._state = session_apply(self.rules, self.seats, self._state,
                                                 _deal(data))
        except IllegalDeal as e:
            raise RulesBroken(e.violations) from e
        return outcome_to_json(outcome)

    def state(self) -> dict[str, Any]:
        return state_to_json(self._state)


def replayer(session: Session, seats: Sequence[str]) -> Replayer:
    return Replayer(session, seats)


def preview(loaded: Loaded, data: Mapping[str, Any], number: int | None = None) -> DealResult:
    """What the next deal would do (``data`` with player ids), or what deal ``number``
    would do if it were recorded like this where it stands; nothing is saved."""
    session = loaded.session
    frozen = session_rules(session)
    if number is None:
        state = state_from_json(session.state)
    else:
        deals = list(session.deals.filter(number__lt=number).order_by("number"))
        state = replay(frozen, loaded.seats, str(session.first_dealer_id),
                       [deal_from_dict(d.data) for d in deals]).state
    return score_deal(table_for(frozen, loaded.seats, state), _deal(data))

# --- the multiplier in words (the pages and the paper sheet) -------------------------------


def factors_text(factors: Sequence[str], multiplier: int) -> str:
    """The multiplier as a product of its factors: "♥ hearts × collapse = ×4"; "×1"."""
    if not factors:
        return "×1"
    runs: list[tuple[str, int]] = []
    for f in factors:
        if runs and runs[-1][0] == f:
            runs[-1] = (f, runs[-1][1] + 1)
        else:
            runs.append((f, 1))
    # a long run of one factor as a power ("collapse¹²"): a thousand collapses before a
    # deal stay one short line (docs/rules.md, "Scores have a limit")
    labels = " × ".join(
        " × ".join([str(FACTOR_LABELS.get(f, f))] * n) if n < RUN_AS_POWER
        else f"{FACTOR_LABELS.get(f, f)}{str(n).translate(SUPERSCRIPT)}"
        for f, n in runs)
    return f"{labels} = ×{multiplier}"


#: From this many equal factors in a row on, they are written as a power.
RUN_AS_POWER = 4
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


# --- tournaments (docs/tournaments.md) ------------------------------------------------------


def _round_scores(session: Session, seats: Sequence[str],
                  scores: Mapping[str, Any] | None) -> dict[str, Fraction]:
    """A round's score: the start score minus the player's score (higher is better)."""
    start = int(session_rules(session).start_score)
    return {p: Fraction(start - int((scores or {}).get(p, start))) for p in seats}


#: The keys of its stored deals and results that hold players (``Names`` translates them).
PLAYER_KEYS = PlayerKeys(
    one=("declarer", "muli_breaker", "dealer", "sitting_out"),
    lists=("stayed_home", "winners"),
    maps=("tricks", "exchanged", "exchanges", "deltas", "base", "reasons", "scores_before",
          "scores_after"))

TOURNAMENT = TournamentPlay(
    ends_with_game=True,
    game_ended=lambda result: bool(result.get("game_over")),
    state_ended=lambda state: int(state.get("games_total", 0)) >= 1,
    deals=lambda state: int(state.get("deals", 0)),
    score_after=lambda session, seats, result: _round_scores(
        session, seats, None if result is None else result.get("scores_after")),
    score_now=lambda session, seats, state: _round_scores(session, seats, state.get("scores")),
    # the slip's last row: each player's score when the game ended (21 counted down)
    slip=(SlipColumn("scores_after", pgettext_lazy("score slip", "Score at the end"),
                     -MAX_SCORE, MAX_SCORE),),
)
