"""Checking and scoring one recorded Mulatschak deal (RULES.md §2.3, §2.5).

A deal is checked against the table it is played at (seats, dealer, scores before it,
the collapses right before it) and, when legal, scored. Every violation is reported,
never only the first, in the order of the RULES.md table and then in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .cards import GERMAN_SUITS
from .rules import TRICKS_PER_DEAL, MulatschakRules
from .violations import RuleError, Violation

MULI = TRICKS_PER_DEAL
HEARTS = "hearts"


class DealKind(StrEnum):
    PLAYED = "played"
    COLLAPSED = "collapsed"
    PASSED = "passed"


class Reason(StrEnum):
    """Why a player's score changed (the base change, before the multiplier)."""

    STAYED_HOME = "stayed_home"
    DECLARER_MADE = "declarer_made"
    DECLARER_FELL = "declarer_fell"
    NO_TRICK = "no_trick"
    TRICKS = "tricks"
    MULI_MADE = "muli_made"
    MULI_MADE_OTHER = "muli_made_other"
    MULI_FAILED = "muli_failed"
    MULI_BROKEN = "muli_broken"
    MULI_FAILED_OTHER = "muli_failed_other"
    NONE = "none"


class Factor(StrEnum):
    """One doubling in a multiplier, shown to players as a product."""

    HEARTS = "hearts"
    COLLAPSE = "collapse"
    KNOCK = "knock"


def _frozen(mapping: Mapping[str, int] | None) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Deal:
    """What the score keeper records for one deal."""

    kind: DealKind
    declarer: str | None = None
    bid: int | None = None
    trump: str | None = None
    stayed_home: tuple[str, ...] = ()
    tricks: Mapping[str, int] = field(default_factory=lambda: _frozen(None))
    knocked: bool = False
    exchanged: Mapping[str, int] | None = None
    muli_breaker: str | None = None

    @classmethod
    def played(
        cls,
        *,
        declarer: str,
        bid: int,
        trump: str,
        tricks: Mapping[str, int],
        stayed_home: Sequence[str] = (),
        knocked: bool = False,
        exchanged: Mapping[str, int] | None = None,
        muli_breaker: str | None = None,
    ) -> Deal:
        return cls(
            DealKind.PLAYED,
            declarer=declarer,
            bid=bid,
            trump=trump,
            stayed_home=tuple(stayed_home),
            tricks=_frozen(tricks),
            knocked=knocked,
            exchanged=None if exchanged is None else _frozen(exchanged),
            muli_breaker=muli_breaker,
        )

    @classmethod
    def collapsed(cls) -> Deal:
        return cls(DealKind.COLLAPSED)

    @classmethod
    def passed(cls) -> Deal:
        return cls(DealKind.PASSED)


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    """A deal as JSON-ready data: the ``deal`` object of the API."""
    out: dict[str, Any] = {"kind": str(deal.kind), "knocked": deal.knocked}
    if deal.kind is DealKind.PLAYED:
        out.update(
            declarer=deal.declarer,
            bid=deal.bid,
            trump=deal.trump,
            stayed_home=list(deal.stayed_home),
            tricks=dict(deal.tricks),
            exchanged=None if deal.exchanged is None else dict(deal.exchanged),
            muli_breaker=deal.muli_breaker,
        )
    return out


def deal_from_dict(data: Mapping[str, Any]) -> Deal:
    """The inverse of :func:`deal_to_dict`. What it cannot read is a RuleError naming the
    field (``tricks.Anna``): the edges check shapes first, but nothing that reaches the
    referee turns into a KeyError or TypeError."""
    if not isinstance(data, Mapping):
        raise RuleError("", "must be an object", "not_object")
    try:
        kind = DealKind(str(data.get("kind")))
    except ValueError:
        raise RuleError("kind", "must be played, collapsed or passed", "not_choice",
                        choices="played, collapsed, passed") from None
    knocked = data.get("knocked", False)
    if not isinstance(knocked, bool):
        raise RuleError("knocked", "must be true or false", "not_bool")
    if kind is not DealKind.PLAYED:
        return Deal(kind, knocked=knocked)
    exchanged = data.get("exchanged")
    return Deal.played(
        declarer=_name(data.get("declarer"), "declarer"),
        bid=_whole(data.get("bid"), "bid"),
        trump=_text(data.get("trump"), "trump"),
        tricks=_counts(data.get("tricks") or {}, "tricks"),
        stayed_home=_names(data.get("stayed_home") or (), "stayed_home"),
        knocked=knocked,
        exchanged=None if exchanged is None else _counts(exchanged, "exchanged"),
        muli_breaker=(None if data.get("muli_breaker") is None
                      else _name(data.get("muli_breaker"), "muli_breaker")),
    )


def _text(value: object, field_name: str) -> str:
    if not isinstance(value, str):
        raise RuleError(field_name, "must be text", "not_string")
    return value


def _name(value: object, field_name: str) -> str:
    if not isinstance(value, str) or not value:
        raise RuleError(field_name, "must be a player's name", "not_name")
    return value


def _whole(value: object, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field_name, "must be a whole number", "not_int")
    return value


def _names(value: object, field_name: str) -> list[str]:
    if not isinstance(value, list | tuple):
        raise RuleError(field_name, "must be a list", "not_list")
    return [_name(name, f"{field_name}.{i}") for i, name in enumerate(value)]


def _counts(value: object, field_name: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RuleError(field_name, "must map each player to a whole number", "not_object")
    return {_name(name, field_name): _whole(n, f"{field_name}.{name}")
            for name, n in value.items()}


@dataclass(frozen=True)
class Table:
    """Where a deal is played: seats (clockwise), dealer, and the state before the deal."""

    rules: MulatschakRules
    players: tuple[str, ...]
    dealer: str
    scores_before: Mapping[str, int]
    collapses_before: int = 0
    previous_stayed_home: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        rules: MulatschakRules,
        players: Sequence[str],
        dealer: str,
        scores_before: Mapping[str, int] | None = None,
        collapses_before: int = 0,
        previous_stayed_home: Sequence[str] = (),
    ) -> Table:
        """A table; players missing from ``scores_before`` start at ``start_score``."""
        seats = tuple(players)
        if len(set(seats)) != len(seats):
            raise RuleError("players", "a name is seated twice", "seated_twice")
        if not seats:
            raise RuleError("players", "nobody is seated", "empty")
        if isinstance(collapses_before, bool) or collapses_before < 0:
            raise RuleError("collapses_before", "must be 0 or more", "too_small", min=0)
        scores = dict.fromkeys(seats, rules.start_score)
        scores.update(scores_before or {})
        return cls(
            rules,
            seats,
            dealer,
            MappingProxyType(scores),
            collapses_before,
            frozenset(previous_stayed_home),
        )


@dataclass(frozen=True)
class DealResult:
    violations: tuple[Violation, ...]
    multiplier: int = 1
    factors: tuple[Factor, ...] = ()
    deltas: Mapping[str, int] = field(default_factory=lambda: _frozen(None))
    scores_after: Mapping[str, int] = field(default_factory=lambda: _frozen(None))
    reasons: Mapping[str, Reason] = field(default_factory=lambda: MappingProxyType({}))
    #: The change of each player before the multiplier (and before any score floor).
    base: Mapping[str, int] = field(default_factory=lambda: _frozen(None))
    declarer_made: bool | None = None
    game_over: bool = False
    winners: tuple[str, ...] = ()
    #: Doublings pending for the next deal (``collapses_before`` of the next deal).
    collapses_after: int = 0
    next_dealer: str | None = None

    @property
    def legal(self) -> bool:
        return not self.violations


# --- multiplier ---------------------------------------------------------------


def multiplier_factors(
    rules: MulatschakRules, *, hearts: bool, collapses: int, knocked: bool
) -> tuple[Factor, ...]:
    """The doublings of a deal, each counted only where its switch is on."""
    out: list[Factor] = []
    if hearts and rules.hearts_double:
        out.append(Factor.HEARTS)
    if rules.collapse_doubles:
        out.extend([Factor.COLLAPSE] * collapses)
    if knocked and rules.knock_doubles:
        out.append(Factor.KNOCK)
    return tuple(out)


def multiplier_of(rules: MulatschakRules, factors: Sequence[Factor]) -> int:
    """``2 ** len(factors)``, capped by ``multiplier_cap``."""
    m: int = 2 ** len(factors)
    if rules.multiplier_cap is not None:
        m = min(m, rules.multiplier_cap)
    return m


def collapses_after(rules: MulatschakRules, kind: DealKind, collapses_before: int) -> int:
    """The count of doubling redeals right before the next deal.

    A collapse always counts; an all-passed deal counts with ``all_pass: redeal_double``
    and otherwise leaves the pending collapses for the next played deal; a played deal
    uses them up.
    """
    if kind is DealKind.PLAYED:
        return 0
    if kind is DealKind.COLLAPSED or rules.all_pass == "redeal_double":
        return collapses_before + 1
    return collapses_before


def next_dealer(players: Sequence[str], dealer: str, kind: DealKind) -> str:
    """A collapsed deal is redealt by the same dealer; otherwise the deal passes clockwise."""
    if kind is DealKind.COLLAPSED:
        return dealer
    return players[(players.index(dealer) + 1) % len(players)]


def forehand(players: Sequence[str], dealer: str) -> str:
    """The player to the dealer's left, who receives cards and bids first."""
    return players[(players.index(dealer) + 1) % len(players)]


# --- checking -----------------------------------------------------------------


def _at_or_below(score: int, threshold: int | None) -> bool:
    return threshold is not None and score <= threshold


def check_deal(table: Table, deal: Deal) -> tuple[Violation, ...]:
    """Every violation of the deal at this table, in RULES.md order."""
    rules = table.rules
    seated = set(table.players)
    v: list[Violation] = []

    def add(code: str, player: str | None = None, **params: object) -> None:
        v.append(Violation.of(code, player, **params))

    if not rules.players_min <= len(table.players) <= rules.players_max:
        add("players_count", count=len(table.players), min=rules.players_min,
            max=rules.players_max)

    named: list[str] = list(table.scores_before) + list(table.previous_stayed_home)
    if deal.kind is DealKind.PLAYED:
        named += [p for p in (deal.declarer, deal.muli_breaker) if p is not None]
        named += list(deal.stayed_home) + list(deal.tricks) + list(deal.exchanged or {})
    for name in dict.fromkeys(named):
        if name not in seated:
            add("unknown_player", name)
    if table.dealer not in seated:
        add("dealer_not_seated", table.dealer)
    if deal.knocked and not rules.knock_doubles:
        add("knock_not_allowed")
    if deal.kind is not DealKind.PLAYED:
        return tuple(sorted(v, key=_rank))

    declarer, bid, trump = deal.declarer, deal.bid, deal.trump
    assert declarer is not None and bid is not None and trump is not None
    home = [p for p in table.players if p in set(deal.stayed_home)]
    playing = [p for p in table.players if p not in set(home)]
    score = table.scores_before.get
    hearts = trump == HEARTS
    is_muli = bid == MULI

    lowest = rules.min_bid_hearts if hearts else rules.min_bid
    if not lowest <= bid <= MULI:
        add("bid_out_of_range", declarer, bid=bid, min=lowest, max=MULI)
    if declarer in seated and _at_or_below(score(declarer, 0), rules.no_bid_at_or_below):
        add("bid_forbidden_low_score", declarer, score=score(declarer),
            threshold=rules.no_bid_at_or_below)
    if trump not in GERMAN_SUITS:
        add("trump_invalid", trump=trump)
    if declarer in home:
        add("declarer_stayed_home", declarer)
    others_home = [p for p in home if p != declarer]
    if hearts and rules.hearts_all_play:
        for p in others_home:
            add("stay_home_forbidden_hearts", p)
    if is_muli and rules.muli_all_play:
        for p in others_home:
            add("stay_home_forbidden_muli", p)
    for p in others_home:
        if _at_or_below(score(p, 0), rules.must_play_at_or_below):
            add("stay_home_forbidden_low_score", p, score=score(p),
                threshold=rules.must_play_at_or_below)
    if rules.last_player_must_play and declarer in seated and not [
        p for p in playing if p != declarer
    ]:
        add("no_opponent", declarer)

    missing = [p for p in playing if p not in deal.tricks]
    for p in missing:
        add("tricks_missing", p)
    for p in home:
        if deal.tricks.get(p, 0) != 0:
            add("tricks_for_absent", p, tricks=deal.tricks[p])
    for p, n in _seat_order(table.players, deal.tricks).items():
        if not 0 <= n <= TRICKS_PER_DEAL:
            add("tricks_out_of_range", p, tricks=n)
    total = sum(deal.tricks.get(p, 0) for p in playing)
    if total > TRICKS_PER_DEAL or (not missing and total != TRICKS_PER_DEAL):
        add("tricks_sum", total=total, expected=TRICKS_PER_DEAL)

    v.extend(_exchange_violations(table, deal, playing))

    if rules.no_stay_home_twice:
        for p in home:
            if p in table.previous_stayed_home:
                add("stay_home_twice", p)
    if is_muli and rules.muli_fail_mode == "breaker" and deal.tricks.get(declarer, 0) < MULI:
        breaker = deal.muli_breaker
        if (
            breaker is None
            or breaker == declarer
            or breaker not in playing
            or deal.tricks.get(breaker, 0) < 1
        ):
            add("muli_breaker_required", breaker)
    return tuple(sorted(v, key=_rank))


def _seat_order(players: Sequence[str], counts: Mapping[str, int]) -> dict[str, int]:
    """Counts in seat order, names that are not seated last (as given)."""
    seated = {p: counts[p] for p in players if p in counts}
    return seated | {p: n for p, n in counts.items() if p not in seated}


def _exchange_violations(table: Table, deal: Deal, playing: Sequence[str]) -> list[Violation]:
    rules = table.rules
    taken = {p: n for p, n in _seat_order(table.players, deal.exchanged or {}).items() if n > 0}
    v: list[Violation] = []
    score = table.scores_before.get
    if deal.bid == MULI and rules.muli_no_exchange:
        v += [Violation.of("exchange_forbidden_muli", p, cards=n) for p, n in taken.items()]
    for p, n in taken.items():
        if _at_or_below(score(p, 0), rules.no_exchange_at_or_below):
            v.append(Violation.of("exchange_forbidden_low_score", p, cards=n, score=score(p),
                                  threshold=rules.no_exchange_at_or_below))
    limit = rules.max_exchange_for(len(table.players))
    declarer_took = (deal.exchanged or {}).get(deal.declarer or "")
    for p, n in taken.items():
        cap = limit
        if rules.exchange_capped_by_declarer and p != deal.declarer and declarer_took is not None:
            cap = min(cap, declarer_took)
        if n > cap:
            v.append(Violation.of("exchange_too_many", p, cards=n, max=cap))
    talon = rules.talon_size(len(table.players))
    if sum(taken.values()) > talon:
        v.append(Violation.of("exchange_exceeds_talon", cards=sum(taken.values()), talon=talon))
    return v


#: RULES.md §2.3 order; codes not in the table come first (table-level problems).
CODE_ORDER: tuple[str, ...] = (
    "players_count",
    "unknown_player",
    "dealer_not_seated",
    "bid_out_of_range",
    "bid_forbidden_low_score",
    "trump_invalid",
    "declarer_stayed_home",
    "stay_home_forbidden_hearts",
    "stay_home_forbidden_muli",
    "stay_home_forbidden_low_score",
    "no_opponent",
    "tricks_missing",
    "tricks_for_absent",
    "tricks_out_of_range",
    "tricks_sum",
    "exchange_forbidden_muli",
    "exchange_forbidden_low_score",
    "exchange_too_many",
    "exchange_exceeds_talon",
    "knock_not_allowed",
    "stay_home_twice",
    "muli_breaker_required",
)
_ORDER = {code: i for i, code in enumerate(CODE_ORDER)}


def _rank(violation: Violation) -> int:
    return _ORDER.get(violation.code, len(_ORDER))


# --- scoring ------------------------------------------------------------------


def _base_changes(rules: MulatschakRules, table: Table, deal: Deal) -> tuple[
    dict[str, int], dict[str, Reason], bool
]:
    """Each player's change before the multiplier, its reason, and whether the declarer made it."""
    declarer, bid = deal.declarer, deal.bid
    assert declarer is not None and bid is not None
    home = set(deal.stayed_home)
    tricks = deal.tricks
    base: dict[str, int] = {}
    why: dict[str, Reason] = {}
    made = tricks.get(declarer, 0) >= bid
    for p in table.players:
        n = tricks.get(p, 0)
        if p in home:
            base[p], why[p] = rules.stay_home_penalty, Reason.STAYED_HOME
        elif bid == MULI:
            payout = rules.muli_win if made else rules.muli_fail
            if p == declarer:
                base[p] = payout.declarer
                why[p] = Reason.MULI_MADE if made else Reason.MULI_FAILED
            elif made:
                base[p], why[p] = payout.others, Reason.MULI_MADE_OTHER
            elif (
                rules.muli_fail_mode == "all"
                or (rules.muli_fail_mode == "breaker" and p == deal.muli_breaker)
                or (rules.muli_fail_mode == "trick_takers" and n >= 1)
            ):
                base[p], why[p] = payout.others, Reason.MULI_BROKEN
            else:
                base[p], why[p] = 0, Reason.MULI_FAILED_OTHER
        elif p == declarer:
            if made:
                base[p], why[p] = -rules.trick_value * n, Reason.DECLARER_MADE
            else:
                counted = -rules.trick_value * n if rules.failed_declarer_counts_tricks else 0
                base[p], why[p] = rules.declarer_fail_penalty + counted, Reason.DECLARER_FELL
        elif n == 0:
            base[p], why[p] = rules.no_trick_penalty, Reason.NO_TRICK
        else:
            base[p], why[p] = -rules.trick_value * n, Reason.TRICKS
    return base, why, made


def _apply_floor(floor: int | None, before: int, change: int) -> int:
    """The change actually applied: a score never goes below the floor because of it."""
    if floor is None or change >= 0 or before + change >= floor:
        return change
    return min(before, floor) - before if before > floor else 0


def game_winners(scores: Mapping[str, int], players: Sequence[str]) -> tuple[str, ...]:
    """The players with the lowest score, in seat order (a tie shares the win)."""
    best = min(scores[p] for p in players)
    return tuple(p for p in players if scores[p] == best)


def score_deal(table: Table, deal: Deal) -> DealResult:
    """Check the deal; if it is legal, score it. Violations leave every score unchanged."""
    rules = table.rules
    violations = check_deal(table, deal)
    scores_before = {p: table.scores_before[p] for p in table.players}
    following = (
        next_dealer(table.players, table.dealer, deal.kind)
        if table.dealer in table.players
        else None
    )
    pending = collapses_after(rules, deal.kind, table.collapses_before)
    if violations:
        return DealResult(violations=violations, scores_after=_frozen(scores_before))
    if deal.kind is not DealKind.PLAYED:
        zero = dict.fromkeys(table.players, 0)
        return DealResult(
            violations=(),
            deltas=_frozen(zero),
            base=_frozen(zero),
            scores_after=_frozen(scores_before),
            reasons=MappingProxyType(dict.fromkeys(table.players, Reason.NONE)),
            collapses_after=pending,
            next_dealer=following,
        )
    factors = multiplier_factors(
        rules,
        hearts=deal.trump == HEARTS,
        collapses=table.collapses_before,
        knocked=deal.knocked,
    )
    m = multiplier_of(rules, factors)
    base, reasons, made = _base_changes(rules, table, deal)
    deltas = {
        p: _apply_floor(rules.score_floor, scores_before[p], base[p] * m) for p in table.players
    }
    after = {p: scores_before[p] + deltas[p] for p in table.players}
    over = any(s <= rules.target_score for s in after.values())
    return DealResult(
        violations=(),
        multiplier=m,
        factors=factors,
        deltas=_frozen(deltas),
        scores_after=_frozen(after),
        reasons=MappingProxyType(reasons),
        base=_frozen(base),
        declarer_made=made,
        game_over=over,
        winners=game_winners(after, table.players) if over else (),
        collapses_after=pending,
        next_dealer=following,
    )
