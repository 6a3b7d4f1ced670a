"""A Mulatschak session as a sequence of deals: replay gives every score (docs/rules.md,
"Scoring").

Nothing is typed in: the dealer, the scores before each deal, the pending collapses, who
stayed home last time and the game number all follow from the seats, the first dealer and
the deals recorded so far. After a deal that ends a game, the next deal starts a new game
from ``start_score``; the dealer keeps rotating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from .deal import (
    Deal,
    DealKind,
    DealResult,
    Table,
    multiplier_factors,
    multiplier_of,
    score_deal,
    sitting_out,
)
from .rules import MulatschakRules
from .violations import Violation


@dataclass(frozen=True)
class GameSummary:
    number: int
    final_scores: Mapping[str, int]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class SessionState:
    """Everything the next deal needs to know, and what the scoreboard shows."""

    game_number: int
    scores: Mapping[str, int]
    dealer: str  # who deals the next deal
    collapses: int = 0
    previous_stayed_home: frozenset[str] = frozenset()
    game_over: bool = False  # the last deal ended a game
    winners: tuple[str, ...] = ()
    games: tuple[GameSummary, ...] = ()
    deals: int = 0
    #: The knocked deals among the collapses, carried over by ``knock_survives_collapse``
    #: (docs/rules.md, "Knocks and collapses"): ``knocks_before`` of the next deal.
    knocks: int = 0

    @property
    def pending_collapses(self) -> int:
        """The collapses that will double the next played deal (a new game starts afresh)."""
        return 0 if self.game_over else self.collapses

    @property
    def pending_knocks(self) -> int:
        """The knocks carried over a collapse into the next played deal (docs/rules.md,
        "Knocks and collapses")."""
        return 0 if self.game_over else self.knocks


@dataclass(frozen=True)
class DealOutcome:
    """One deal as replayed: where it was played and what it did."""

    number: int
    game_number: int
    dealer: str
    scores_before: Mapping[str, int]
    collapses_before: int
    deal: Deal
    result: DealResult
    knocks_before: int = 0


class IllegalDeal(ValueError):
    """A deal in the sequence breaks the rules where it stands."""

    def __init__(self, number: int, violations: tuple[Violation, ...]) -> None:
        codes = ", ".join(v.code for v in violations)
        super().__init__(f"deal {number} is not legal: {codes}")
        self.number = number
        self.violations = violations


def start(rules: MulatschakRules, players: Sequence[str], first_dealer: str) -> SessionState:
    return SessionState(
        game_number=1,
        scores=MappingProxyType(dict.fromkeys(players, rules.start_score)),
        dealer=first_dealer,
    )


def table_for(rules: MulatschakRules, players: Sequence[str], state: SessionState) -> Table:
    """The table the next deal is played at, a new game started if the last one ended."""
    fresh = state.game_over
    return Table.of(
        rules,
        players,
        state.dealer,
        dict.fromkeys(players, rules.start_score) if fresh else state.scores,
        0 if fresh else state.collapses,
        () if fresh else tuple(state.previous_stayed_home),
        0 if fresh else state.knocks,
    )


def next_sitting_out(
    rules: MulatschakRules, players: Sequence[str], state: SessionState
) -> str | None:
    """Who sits out the next deal (docs/rules.md, "Sitting out"): its dealer from
    ``sit_out_at`` on, else None."""
    return sitting_out(rules, players, state.dealer)


def pending_multiplier(
    rules: MulatschakRules, state: SessionState, *, knocked: bool = False, hearts: bool = False
) -> tuple[int, tuple[str, ...]]:
    """The multiplier the next deal would carry, and its factors for display."""
    factors = multiplier_factors(
        rules, hearts=hearts, collapses=state.pending_collapses, knocked=knocked,
        knocks_before=state.pending_knocks,
    )
    return multiplier_of(rules, factors), tuple(str(f) for f in factors)


def apply(
    rules: MulatschakRules, players: Sequence[str], state: SessionState, deal: Deal
) -> tuple[DealOutcome, SessionState]:
    """Score the next deal; raise IllegalDeal when it breaks a rule at this point."""
    number = state.deals + 1
    table = table_for(rules, players, state)
    result = score_deal(table, deal)
    if not result.legal:
        raise IllegalDeal(number, result.violations)
    game_number = state.game_number + 1 if state.game_over else state.game_number
    outcome = DealOutcome(
        number=number,
        game_number=game_number,
        dealer=table.dealer,
        scores_before=table.scores_before,
        collapses_before=table.collapses_before,
        deal=deal,
        result=result,
        knocks_before=table.knocks_before,
    )
    played = deal.kind is DealKind.PLAYED
    games = state.games
    if result.game_over:
        games = (*games, GameSummary(game_number, result.scores_after, result.winners))
    assert result.next_dealer is not None
    new_state = replace(
        state,
        game_number=game_number,
        scores=result.scores_after,
        dealer=result.next_dealer,
        collapses=result.collapses_after,
        previous_stayed_home=(
            frozenset(deal.stayed_home) if played else table.previous_stayed_home
        ),
        game_over=result.game_over,
        winners=result.winners,
        games=games,
        deals=number,
        knocks=result.knocks_after,
    )
    return outcome, new_state


@dataclass(frozen=True)
class Replay:
    outcomes: tuple[DealOutcome, ...]
    state: SessionState
    illegal: IllegalDeal | None = field(default=None)


def replay(
    rules: MulatschakRules,
    players: Sequence[str],
    first_dealer: str,
    deals: Sequence[Deal],
) -> Replay:
    """Replay deals from the start; stop at the first deal that is illegal where it stands."""
    state = start(rules, players, first_dealer)
    outcomes: list[DealOutcome] = []
    for deal in deals:
        try:
            outcome, state = apply(rules, players, state, deal)
        except IllegalDeal as e:
            return Replay(tuple(outcomes), state, e)
        outcomes.append(outcome)
    return Replay(tuple(outcomes), state)
