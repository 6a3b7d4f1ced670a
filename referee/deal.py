"""Checking and scoring one recorded Mulatschak deal (docs/rules.md, "Deal codes" and "Scoring").

A deal is checked against the table it is played at (seats, dealer, scores before it,
the collapses right before it) and, when legal, scored. Every violation is reported,
never only the first, in the order of the table in docs/rules.md, "Deal codes", and then in
seat order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .cards import GERMAN_SUITS
from .exchange import (
    Entry,
    Exchange,
    ExchangeTotals,
    Form,
    exchange_from_dict,
    exchange_to_dict,
    recorded_entries,
    talon_order,
)
from .rules import MAX_SCORE, TRICKS_PER_DEAL, MulatschakRules
from .violations import RuleError, Violation

MULI = TRICKS_PER_DEAL
HEARTS = "hearts"
BELLS = "bells"


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
    SITTING_OUT = "sitting_out"
    NONE = "none"


class Factor(StrEnum):
    """One doubling in a multiplier, shown to players as a product."""

    HEARTS = "hearts"
    COLLAPSE = "collapse"
    KNOCK = "knock"


def _frozen(mapping: Mapping[str, int] | None) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping or {}))


def _frozen_exchanges(
    mapping: Mapping[str, Exchange] | None,
) -> Mapping[str, Exchange] | None:
    return None if mapping is None else MappingProxyType(dict(mapping))


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
    #: Exchanges by form (docs/rules.md, "Exchange"): one per player; ``exchanged`` entries
    #: are plain ones.
    exchanges: Mapping[str, Exchange] | None = None
    #: "Weiß ich noch nicht": trump was set by the declarer's bridge (docs/rules.md,
    #: "Delayed trump").
    trump_delayed: bool = False

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
        exchanges: Mapping[str, Exchange] | None = None,
        trump_delayed: bool = False,
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
            exchanges=_frozen_exchanges(exchanges),
            trump_delayed=trump_delayed,
        )

    def entries(self, players: Sequence[str]) -> tuple[Entry, ...]:
        """Every recorded exchange, of both maps, seated players in seat order."""
        return recorded_entries(players, self.exchanged, self.exchanges)

    @classmethod
    def collapsed(cls) -> Deal:
        return cls(DealKind.COLLAPSED)

    @classmethod
    def passed(cls) -> Deal:
        return cls(DealKind.PASSED)


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    """A deal as JSON-ready data: the ``deal`` object of the API.

    ``exchanges`` and ``trump_delayed`` appear only when recorded (``exchanges`` given,
    ``trump_delayed`` true), so that deals stored before they existed keep their shape.
    """
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
        if deal.exchanges is not None:
            out["exchanges"] = {p: exchange_to_dict(x) for p, x in deal.exchanges.items()}
        if deal.trump_delayed:
            out["trump_delayed"] = True
    return out


def deal_from_dict(data: Mapping[str, Any]) -> Deal:
    """The inverse of :func:`deal_to_dict`. What it cannot read is a RuleError naming the
    field (``tricks.Anna``): the edges check shapes first, but nothing that reaches the
    referee turns into a KeyError or TypeError.

    Entries of ``exchanges`` may be :class:`Exchange` values or their JSON objects (an
    unusable object raises RuleError naming ``deal.exchanges.<player>...``).
    """
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
    raw = data.get("exchanges")
    if raw is not None and not isinstance(raw, Mapping):
        raise RuleError("exchanges", "must map each player to an exchange", "not_object")
    exchanges = None if raw is None else {
        p: x if isinstance(x, Exchange) else exchange_from_dict(x, f"deal.exchanges.{p}")
        for p, x in raw.items()
    }
    trump_delayed = data.get("trump_delayed", False)
    if not isinstance(trump_delayed, bool):
        raise RuleError("trump_delayed", "must be true or false", "not_bool")
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
        exchanges=exchanges,
        trump_delayed=trump_delayed,
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
    #: The knocked deals among the ``collapses_before`` (docs/rules.md, "Knocks and collapses").
    knocks_before: int = 0

    @classmethod
    def of(
        cls,
        rules: MulatschakRules,
        players: Sequence[str],
        dealer: str,
        scores_before: Mapping[str, int] | None = None,
        collapses_before: int = 0,
        previous_stayed_home: Sequence[str] = (),
        knocks_before: int = 0,
    ) -> Table:
        """A table; players missing from ``scores_before`` start at ``start_score``.

        RuleError for a name seated twice, nobody seated, ``collapses_before`` below 0 and
        ``knocks_before`` outside 0..``collapses_before``.
        """
        seats = tuple(players)
        if len(set(seats)) != len(seats):
            raise RuleError("players", "a name is seated twice", "seated_twice")
        if not seats:
            raise RuleError("players", "nobody is seated", "empty")
        if isinstance(collapses_before, bool) or collapses_before < 0:
            raise RuleError("collapses_before", "must be 0 or more", "too_small", min=0)
        if isinstance(knocks_before, bool) or knocks_before < 0:
            raise RuleError("knocks_before", "must be 0 or more", "too_small", min=0)
        if knocks_before > collapses_before:
            raise RuleError(
                "knocks_before",
                f"must be at most {collapses_before}, the collapses before",
                "too_large",
                max=collapses_before,
            )
        scores = dict.fromkeys(seats, rules.start_score)
        scores.update(scores_before or {})
        return cls(
            rules,
            seats,
            dealer,
            MappingProxyType(scores),
            collapses_before,
            frozenset(previous_stayed_home),
            knocks_before,
        )

    @property
    def sitting_out(self) -> str | None:
        """The player who sits out this deal: the dealer, from ``sit_out_at`` on
        (docs/rules.md, "Sitting out")."""
        return sitting_out(self.rules, self.players, self.dealer)

    @property
    def active(self) -> tuple[str, ...]:
        """The players who take part in the deal, in seat order."""
        out = self.sitting_out
        return tuple(p for p in self.players if p != out)

    @property
    def talon(self) -> int:
        """The talon: pack size − 5 × active players (docs/rules.md, "The talon and its order")."""
        return self.rules.talon_size(len(self.active))


def sitting_out(rules: MulatschakRules, players: Sequence[str], dealer: str) -> str | None:
    """Who sits out a deal dealt by ``dealer``: the dealer when at least ``sit_out_at``
    players are seated, else nobody (None). A dealer who is not seated sits out nothing."""
    if dealer not in players or not rules.sits_out(len(players)):
        return None
    return dealer


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
    #: Knocks carried over to the next deal (``knocks_before`` of the next deal; docs/rules.md,
    #: "Knocks and collapses").
    knocks_after: int = 0
    #: Who sat out this deal (docs/rules.md, "Sitting out"), and who sits out the next one.
    sitting_out: str | None = None
    next_sitting_out: str | None = None
    #: Cards drawn and the talon, when the deal records exchanges.
    exchange_totals: ExchangeTotals | None = None

    @property
    def legal(self) -> bool:
        return not self.violations


# --- multiplier ---------------------------------------------------------------


def multiplier_factors(
    rules: MulatschakRules, *, hearts: bool, collapses: int, knocked: bool,
    knocks_before: int = 0,
) -> tuple[Factor, ...]:
    """The doublings of a deal, each counted only where its switch is on: hearts, the
    collapses before, its own knock, and the knocks carried over a collapse (docs/rules.md,
    "Knocks and collapses")."""
    out: list[Factor] = []
    if hearts and rules.hearts_double:
        out.append(Factor.HEARTS)
    if rules.collapse_doubles:
        out.extend([Factor.COLLAPSE] * collapses)
    if knocked and rules.knock_doubles:
        out.append(Factor.KNOCK)
    if rules.knock_doubles and rules.knock_survives_collapse:
        out.extend([Factor.KNOCK] * knocks_before)
    return tuple(out)


def multiplier_of(rules: MulatschakRules, factors: Sequence[Factor]) -> int:
    """``2 ** len(factors)``, capped by ``multiplier_cap`` or, where that is null, by the
    implicit cap that keeps every deal's change within the score limit."""
    cap = rules.largest_multiplier
    if len(factors) >= cap.bit_length():  # 2 ** len(factors) >= 2 * cap: never computed
        return cap
    return min(1 << len(factors), cap)


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


def knocks_after(
    rules: MulatschakRules, kind: DealKind, knocks_before: int, knocked: bool
) -> int:
    """The knocks carried to the next deal (docs/rules.md, "Knocks and collapses"): with
    ``knock_survives_collapse`` (and ``knock_doubles``), a knocked deal that is thrown in
    and feeds the next multiplier (a collapse, or an all-passed deal with ``redeal_double``)
    adds one; an all-passed deal that does not double keeps the ones before; a played deal
    uses them up. Never more than :func:`collapses_after`."""
    if kind is DealKind.PLAYED or not (rules.knock_doubles and rules.knock_survives_collapse):
        return 0
    feeds = kind is DealKind.COLLAPSED or rules.all_pass == "redeal_double"
    return knocks_before + (1 if knocked and feeds else 0)


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
    """Every violation of the deal at this table, in the order of docs/rules.md, "Deal codes"."""
    rules = table.rules
    seated = set(table.players)
    out = table.sitting_out
    active = table.active
    v: list[Violation] = []

    def add(code: str, player: str | None = None, **params: object) -> None:
        v.append(Violation.of(code, player, **params))

    if not rules.players_min <= len(active) or len(table.players) > rules.players_max:
        count = len(table.players) if len(table.players) > rules.players_max else len(active)
        add("players_count", count=count, min=rules.players_min, max=rules.players_max)

    named: list[str] = list(table.scores_before) + list(table.previous_stayed_home)
    if deal.kind is DealKind.PLAYED:
        named += [p for p in (deal.declarer, deal.muli_breaker) if p is not None]
        named += list(deal.stayed_home) + list(deal.tricks) + list(deal.exchanged or {})
        named += list(deal.exchanges or {})
    for name in dict.fromkeys(named):
        if name not in seated:
            add("unknown_player", name)
    if table.dealer not in seated:
        add("dealer_not_seated", table.dealer)
    if deal.knocked and not rules.knock_doubles:
        add("knock_not_allowed")
    if table.knocks_before and not (rules.knock_doubles and rules.knock_survives_collapse):
        add("knock_not_allowed", knocks_before=table.knocks_before)
    if deal.kind is not DealKind.PLAYED:
        return tuple(sorted(v, key=_rank))

    declarer, bid, trump = deal.declarer, deal.bid, deal.trump
    assert declarer is not None and bid is not None and trump is not None
    if out is not None:
        for field_name, present in (
            ("declarer", declarer == out),
            ("stayed_home", out in deal.stayed_home),
            ("tricks", out in deal.tricks),
            ("exchanged", out in (deal.exchanged or {})),
            ("exchanges", out in (deal.exchanges or {})),
            ("muli_breaker", deal.muli_breaker == out),
        ):
            if present:
                add("player_sitting_out", out, field=field_name)
    listed_home = [p for p in table.players if p in set(deal.stayed_home) and p != out]
    # A declarer listed as staying home is declarer_stayed_home alone: the stay-home
    # duties are not checked for the declarer, who counts as playing, a trick count
    # included; a missing one is no news (docs/rules.md, "Deal codes").
    home = [p for p in listed_home if p != declarer]
    playing = [p for p in active if p not in set(home)]
    score = table.scores_before.get
    hearts = trump == HEARTS
    is_muli = bid == MULI
    delayed = deal.trump_delayed and rules.delayed_trump

    # A delayed trump was unknown at the bid: min_bid_hearts does not apply (docs/rules.md,
    # "Delayed trump").
    lowest = rules.min_bid_hearts if hearts and not delayed else rules.min_bid
    if not lowest <= bid <= MULI:
        add("bid_out_of_range", declarer, bid=bid, min=lowest, max=MULI)
    if declarer in seated and _at_or_below(score(declarer, 0), rules.no_bid_at_or_below):
        add("bid_forbidden_low_score", declarer, score=score(declarer),
            threshold=rules.no_bid_at_or_below)
    if trump not in GERMAN_SUITS:
        add("trump_invalid", trump=trump)
    if declarer in listed_home:
        add("declarer_stayed_home", declarer)
    if hearts and rules.hearts_all_play:
        for p in home:
            add("stay_home_forbidden_hearts", p)
    if is_muli and rules.muli_all_play:
        for p in home:
            add("stay_home_forbidden_muli", p)
    for p in home:
        if _at_or_below(score(p, 0), rules.must_play_at_or_below):
            add("stay_home_forbidden_low_score", p, score=score(p),
                threshold=rules.must_play_at_or_below)
    if rules.last_player_must_play and declarer in seated and not [
        p for p in playing if p != declarer
    ]:
        add("no_opponent", declarer)

    missing = [p for p in playing if p not in deal.tricks]
    for p in missing:
        if p not in listed_home:
            add("tricks_missing", p)
    for p in home:  # not even 0
        if p in deal.tricks:
            add("tricks_for_absent", p, tricks=deal.tricks[p])
    for p, n in _seat_order(table.players, deal.tricks).items():
        if not 0 <= n <= TRICKS_PER_DEAL:
            add("tricks_out_of_range", p, tricks=n)
    total = sum(deal.tricks.get(p, 0) for p in playing)
    if total > TRICKS_PER_DEAL or (not missing and total != TRICKS_PER_DEAL):
        add("tricks_sum", total=total, expected=TRICKS_PER_DEAL)

    v.extend(_exchange_violations(table, deal, home))

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


def _form_allowed(rules: MulatschakRules, entry: Entry, *, declarer: str | None,
                  delayed: bool) -> str | None:
    """None when the entry's form is allowed here, else the form to name (docs/rules.md,
    "Exchange")."""
    x, p = entry.exchange, entry.player
    if x.form is Form.PLAIN:
        chain_ok = p == declarer and rules.declarer_on_sight_chain
        return None if chain_ok or not x.has_chain else "on_sight_chain"
    allowed = {
        Form.ON_SIGHT: rules.exchange_on_sight,
        Form.ACE_FIVE: rules.exchange_ace_five,
        Form.SEVEN_SIX: rules.exchange_seven_six,
        # a delayed trump allows the declarer's bridge whatever exchange_bridge says
        Form.BRIDGE: rules.exchange_bridge or (delayed and p == declarer),
    }[x.form]
    return None if allowed else str(x.form)


def _exchange_violations(table: Table, deal: Deal, home: Sequence[str]) -> list[Violation]:
    """The exchange rules (docs/rules.md, "Exchange"), their codes in the order of "Deal codes"
    and each code in seat order."""
    rules = table.rules
    declarer = deal.declarer
    delayed = deal.trump_delayed and rules.delayed_trump
    entries = deal.entries(table.players)
    exchanges = [e for e in entries if e.exchange.is_exchange]
    score = table.scores_before.get
    v: list[Violation] = []

    if deal.bid == MULI and rules.muli_no_exchange:
        v += [Violation.of("exchange_forbidden_muli", e.player, cards=e.exchange.taken)
              for e in exchanges]
    for e in exchanges:
        if _at_or_below(score(e.player, 0), rules.no_exchange_at_or_below):
            v.append(Violation.of("exchange_forbidden_low_score", e.player,
                                  cards=e.exchange.taken, score=score(e.player),
                                  threshold=rules.no_exchange_at_or_below))
    limit = rules.max_exchange_for(len(table.active))
    own = [e.exchange.taken for e in entries if e.player == declarer]
    declarer_took = sum(own) if own else None
    for e in entries:
        if e.exchange.form is not Form.PLAIN:
            continue
        cap = limit
        if rules.exchange_capped_by_declarer and e.player != declarer and declarer_took is not None:
            cap = min(cap, declarer_took)
        if e.exchange.cards > cap:
            v.append(Violation.of("exchange_too_many", e.player, cards=e.exchange.cards, max=cap))
    talon = table.talon
    drawn = sum(e.exchange.drawn for e in entries)
    if drawn > talon:
        v.append(Violation.of("exchange_exceeds_talon", cards=drawn, talon=talon))
    both = set(deal.exchanged or {}) & set(deal.exchanges or {})
    for p in dict.fromkeys(e.player for e in entries if e.player in both):
        v.append(Violation.of("exchange_recorded_twice", p))
    for e in exchanges:
        if e.player in home:
            v.append(Violation.of("exchange_by_absent", e.player, form=str(e.exchange.form)))

    # A form that is not allowed is reported once, and its own rules are not checked.
    not_allowed: set[Entry] = set()
    names = list(dict.fromkeys(e.player for e in entries))
    delayed_off = deal.trump_delayed and not rules.delayed_trump
    if delayed_off and declarer is not None and declarer not in names:
        names.append(declarer)
    for p in sorted(names, key=_seat_key(table.players, names)):
        if delayed_off and p == declarer:
            v.append(Violation.of("exchange_form_not_allowed", p, form="delayed_trump"))
        for e in entries:
            if e.player != p:
                continue
            form = _form_allowed(rules, e, declarer=declarer, delayed=delayed)
            if form is not None:
                not_allowed.add(e)
                v.append(Violation.of("exchange_form_not_allowed", p, form=form))
    checked = [e for e in entries if e not in not_allowed]
    for e in checked:
        if e.exchange.form is Form.SEVEN_SIX and deal.trump != BELLS:
            v.append(Violation.of("seven_six_not_bells", e.player, trump=deal.trump))
    dealt = {d.entry: d for d in talon_order(table.players, declarer, entries, delayed=delayed)}
    for e in checked:
        x = e.exchange
        if x.form is Form.BRIDGE:
            # the first face-up card of a delayed trump sets trump and so is a trump
            least = 2 if delayed and e.player == declarer else 1
            if x.face_up < least and not dealt[e].runs_out(talon):
                v.append(Violation.of("face_up_chain_invalid", e.player, form="bridge",
                                      reason="counts"))
        elif x.has_chain and not (
            x.kept <= x.face_up <= x.kept + 1 and (x.cards > 0 or x.face_up == 0)
        ):
            v.append(Violation.of("face_up_chain_invalid", e.player, form="on_sight_chain",
                                  reason="counts"))
    if delayed and declarer is not None and not any(
        e.player == declarer and e.exchange.form is Form.BRIDGE for e in entries
    ):
        v.append(Violation.of("delayed_trump_without_bridge", declarer))
    return v


def _seat_key(players: Sequence[str], named: Sequence[str]) -> Callable[[str], tuple[int, int]]:
    """Seat order; names that are not seated after, in the order they were named."""
    seat = {p: i for i, p in enumerate(players)}
    return lambda p: (seat.get(p, len(seat)), named.index(p))


def exchange_totals(table: Table, deal: Deal) -> ExchangeTotals | None:
    """The cards all recorded exchanges draw, and the talon; None without a record."""
    if deal.exchanged is None and deal.exchanges is None:
        return None
    drawn = sum(e.exchange.drawn for e in deal.entries(table.players))
    return ExchangeTotals(drawn=drawn, talon=table.talon)


#: The order of docs/rules.md, "Deal codes"; codes not in the table come first (table-level
#: problems).
CODE_ORDER: tuple[str, ...] = (
    "players_count",
    "unknown_player",
    "dealer_not_seated",
    "player_sitting_out",
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
    "exchange_recorded_twice",
    "exchange_by_absent",
    "exchange_form_not_allowed",
    "seven_six_not_bells",
    "face_up_chain_invalid",
    "delayed_trump_without_bridge",
    "knock_not_allowed",
    "stay_home_twice",
    "muli_breaker_required",
    # checked only once the deal is otherwise legal: its scores
    # (docs/rules.md, "Scores have a limit")
    "score_out_of_range",
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
    out = table.sitting_out
    for p in table.players:
        n = tricks.get(p, 0)
        if p == out:
            base[p], why[p] = 0, Reason.SITTING_OUT
        elif bid == MULI:
            # Players at home (only with muli_all_play off) are among the others: the
            # Muli amounts, never the stay-home penalty; they took no trick.
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
        elif p in home:
            base[p], why[p] = rules.stay_home_penalty, Reason.STAYED_HOME
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
    knocks = knocks_after(rules, deal.kind, table.knocks_before, deal.knocked)
    out = table.sitting_out
    next_out = None if following is None else sitting_out(rules, table.players, following)
    if violations:
        return DealResult(violations=violations, scores_after=_frozen(scores_before))
    if deal.kind is not DealKind.PLAYED:
        zero = dict.fromkeys(table.players, 0)
        return DealResult(
            violations=(),
            deltas=_frozen(zero),
            base=_frozen(zero),
            scores_after=_frozen(scores_before),
            reasons=MappingProxyType(
                {p: Reason.SITTING_OUT if p == out else Reason.NONE for p in table.players}
            ),
            collapses_after=pending,
            next_dealer=following,
            knocks_after=knocks,
            sitting_out=out,
            next_sitting_out=next_out,
        )
    factors = multiplier_factors(
        rules,
        hearts=deal.trump == HEARTS,
        collapses=table.collapses_before,
        knocked=deal.knocked,
        knocks_before=table.knocks_before,
    )
    m = multiplier_of(rules, factors)
    base, reasons, made = _base_changes(rules, table, deal)
    deltas = {
        p: _apply_floor(rules.score_floor, scores_before[p], base[p] * m) for p in table.players
    }
    after = {p: scores_before[p] + deltas[p] for p in table.players}
    beyond = tuple(
        Violation.of("score_out_of_range", p, limit=MAX_SCORE)
        for p in table.players if abs(after[p]) > MAX_SCORE
    )
    if beyond:
        return DealResult(violations=beyond, scores_after=_frozen(scores_before))
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
        knocks_after=knocks,
        sitting_out=out,
        next_sitting_out=next_out,
        exchange_totals=exchange_totals(table, deal),
    )
