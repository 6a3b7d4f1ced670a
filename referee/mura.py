"""Mura (docs/rules.md, "Mura"): checking a deal and deriving mura and zeros.

Four players, no trumps, the Hungarian 32-card pack, eight tricks. A deal can be recorded
as counts (tricks and figures per player, :func:`check_counts`) or card by card
(:func:`check_cards`, which derives the counts and then checks them like
:func:`check_counts`). Both report every violation at once and derive whatever can be
derived even from an illegal record.

**Order of play.** ``players`` is always given in the order of play: the player after X is
the next one in the list (and the first follows the last). Mura is played counter-clockwise,
so by default the list is the table in counter-clockwise seat order. ``MuraRules.clockwise``
only records the physical direction that the list stands for (for drawing the table); the
referee's logic does not depend on it.

Violation codes: ``players_count``, ``unknown_player``,
``tricks_missing``, ``figures_missing``, ``tricks_out_of_range``, ``figures_out_of_range``,
``tricks_sum``, ``figures_sum``, ``figures_without_tricks``, ``figures_too_many``,
``figures_too_few`` and, card by card, ``card_not_in_pack``, ``card_played_twice``,
``wrong_number_of_plays``, ``wrong_leader``, ``must_follow_suit``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from referee.cards import PACKS, Card, CardNotInPack, CardSyntaxError, Pack
from referee.money import Penalty
from referee.params import one_of, overrides_schema, typed_overrides
from referee.violations import RuleError, Violation

#: Ranks that are figures: 1 each, an ace that wins its trick 3.
FIGURE_RANKS: frozenset[str] = frozenset({"ace", "king", "ober", "unter"})
#: Figures an ace counts when it wins its trick.
WINNING_ACE_FIGURES = 3


@dataclass(frozen=True)
class MuraRules:
    """Every number and switch of Mura, by its name in docs/rules.md, "Mura parameters"."""

    players: int = 4
    figures_needed: int = 3
    zeros_per_mura: int = 9
    pack: str = "hungarian32"
    max_figures_per_trick: int = 6
    clockwise: bool = False

    def as_params(self) -> dict[str, object]:
        """Every parameter by name, for ``GET /api/v1/rules``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def card_pack(self) -> Pack:
        return PACKS[self.pack]

    @property
    def tricks_per_deal(self) -> int:
        """8 with four players: all cards are dealt, one card each per trick."""
        return len(self.card_pack) // self.players

    @property
    def figure_cards(self) -> int:
        """Cards of the pack that are figures (16): the figures of a deal without ace wins."""
        return sum(1 for card in self.card_pack.cards if card.rank in FIGURE_RANKS)

    @property
    def blank_cards(self) -> int:
        """Cards that are no figures (16: the 10s, 9s, 8s and 7s)."""
        return len(self.card_pack) - self.figure_cards

    @property
    def min_figures_total(self) -> int:
        return self.figure_cards

    @property
    def max_figures_total(self) -> int:
        """24: every ace wins its trick."""
        aces = sum(1 for card in self.card_pack.cards if card.rank == "ace")
        return self.figure_cards + (WINNING_ACE_FIGURES - 1) * aces


#: What each of its rules means, in a line for the forms that set it: a new rule brings its
#: help here, beside it, and the pages translate it from the game's catalogue.
HELP: Mapping[str, str] = {
    "players": "players at the table (2, 4 or 8: all 32 cards are dealt)",
    "figures_needed": "figures a player with tricks needs to be safe",
    "zeros_per_mura": "zeros worth one mura in the settlement",
    "pack": "the cards used",
    "max_figures_per_trick": "most figures one trick can hold",
    "clockwise": "the list of players goes clockwise round the table",
}


MURA_RULES = MuraRules()


def _overrides_schema() -> dict[str, object]:
    at_least_one = {"type": "integer", "minimum": 1}
    return overrides_schema(MURA_RULES.as_params(), {
        "pack": one_of(["hungarian32"]), "players": {"type": "integer", "enum": [2, 4, 8]},
        "figures_needed": at_least_one, "zeros_per_mura": at_least_one,
        "max_figures_per_trick": at_least_one})


def mura_rules(overrides: Mapping[str, object]) -> MuraRules:
    """The Mura rules with ``overrides`` applied, or RuleError naming ``overrides.<name>``.

    Booleans are not accepted where a number is expected (``True`` is no player count).
    """
    values = typed_overrides(MURA_RULES.as_params(), overrides)
    rules = MuraRules(**values)
    if rules.pack != "hungarian32":
        raise RuleError(
            "overrides.pack", "must be one of hungarian32", "not_choice", choices="hungarian32"
        )
    if rules.players not in (2, 4, 8):
        raise RuleError(
            "overrides.players",
            "must be one of 2, 4, 8 (all 32 cards are dealt)",
            "not_choice",
            choices="2, 4, 8",
        )
    for name in ("figures_needed", "zeros_per_mura", "max_figures_per_trick"):
        if getattr(rules, name) < 1:
            raise RuleError(f"overrides.{name}", "must be at least 1", "too_small", min=1)
    return rules


# ---------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class MuraPlayerResult:
    """One player's deal: ``mura`` is the number of tricks when in mura, else 0."""

    tricks: int
    figures: int
    mura: int
    zero: bool

    @property
    def safe(self) -> bool:
        """Took tricks and enough figures: no penalty."""
        return not self.zero and self.mura == 0

    def as_dict(self) -> dict[str, object]:
        return {
            "tricks": self.tricks,
            "figures": self.figures,
            "mura": self.mura,
            "zero": self.zero,
        }


@dataclass(frozen=True)
class TrickOutcome:
    """One trick as recorded card by card.

    ``number`` counts from 1. ``plays`` are the usable cards in order of play (from the
    leader on). ``winner`` and ``winning_card`` are None when the trick cannot be decided
    (its leader is not seated or the led card is unusable). ``figures`` is what the
    winner takes (a winning ace counts 3).
    """

    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]
    winner: str | None
    winning_card: Card | None
    figures: int


@dataclass(frozen=True)
class MuraDealResult:
    """A checked deal: legal when there is no violation.

    ``results`` has every seated player whose counts are known, in seat order. ``tricks``
    is empty for a deal recorded as counts.
    """

    violations: tuple[Violation, ...]
    results: Mapping[str, MuraPlayerResult]
    tricks: tuple[TrickOutcome, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def winners(self) -> tuple[str | None, ...]:
        """The winner of each trick (card by card only), None where undecidable."""
        return tuple(t.winner for t in self.tricks)


def player_result(tricks: int, figures: int, rules: MuraRules = MURA_RULES) -> MuraPlayerResult:
    """Mura = tricks when 1+ tricks and fewer than ``figures_needed`` figures; zero = no trick."""
    mura = tricks if tricks >= 1 and figures < rules.figures_needed else 0
    return MuraPlayerResult(tricks, figures, mura, tricks == 0)


# ---------------------------------------------------------------------------------------
# Counts


def check_counts(
    players: Sequence[str],
    tricks: Mapping[str, int],
    figures: Mapping[str, int],
    rules: MuraRules = MURA_RULES,
    dealer: str | None = None,
) -> MuraDealResult:
    """Check a deal recorded as tricks and figures per player.

    A ``dealer`` given is only checked to be seated (``dealer_not_seated``; docs/rules.md,
    "First lead").
    RuleError (an unusable input, not a rule violation) for players that are no list of
    distinct names (``players``, code ``seated_twice`` for a name seated twice) and counts
    that are not whole numbers (``tricks.<player>`` / ``figures.<player>``).
    """
    names = _names(players)
    violations = _dealer_violations(names, dealer)
    count_violations, results = _count_violations(
        names, _counts("tricks", tricks), _counts("figures", figures), rules
    )
    violations += count_violations
    return MuraDealResult(tuple(violations), MappingProxyType(results))


def first_leader(players: Sequence[str], dealer: str) -> str:
    """Who leads the first trick (docs/rules.md, "First lead"): the player to the dealer's
    right, which is the next player after the dealer in ``players`` (the order of play)."""
    return players[(players.index(dealer) + 1) % len(players)]


def _dealer_violations(names: tuple[str, ...], dealer: object) -> list[Violation]:
    if dealer is None:
        return []
    if not isinstance(dealer, str) or not dealer:
        raise RuleError("dealer", "must be a player's name", "not_name")
    if dealer not in names:
        return [Violation.of("dealer_not_seated", dealer)]
    return []


def _names(players: object) -> tuple[str, ...]:
    """The seated names, or RuleError("players") for no list, a bad name or a name twice."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise RuleError("players", "must be a list of names", "not_list")
    for index, name in enumerate(players):
        if not isinstance(name, str) or not name:
            raise RuleError(f"players.{index}", "must be a non-empty name", "not_name")
    if len(set(players)) != len(players):
        raise RuleError("players", "a name is seated twice", "seated_twice")
    return tuple(players)


def _counts(field_name: str, counts: object) -> dict[str, int]:
    if not isinstance(counts, Mapping):
        raise RuleError(field_name, "must map each player to a whole number", "not_object")
    out: dict[str, int] = {}
    for name, value in counts.items():
        if not isinstance(name, str):
            raise RuleError(field_name, "player names must be strings", "not_name")
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(f"{field_name}.{name}", "must be a whole number", "not_int")
        out[name] = value
    return out


def _count_violations(
    names: tuple[str, ...],
    tricks: Mapping[str, int],
    figures: Mapping[str, int],
    rules: MuraRules,
) -> tuple[list[Violation], dict[str, MuraPlayerResult]]:
    seats = names
    seated = set(seats)
    violations: list[Violation] = []
    if len(seats) != rules.players:
        violations.append(Violation.of("players_count", expected=rules.players, actual=len(seats)))
    for field_name, counts in (("tricks", tricks), ("figures", figures)):
        for name in counts:
            if name not in seated:
                violations.append(Violation.of("unknown_player", name, field=field_name))

    max_tricks = rules.tricks_per_deal
    max_figures = rules.max_figures_total
    results: dict[str, MuraPlayerResult] = {}
    for name in seats:
        t, f = tricks.get(name), figures.get(name)
        if t is None:
            violations.append(Violation.of("tricks_missing", name))
        elif not 0 <= t <= max_tricks:
            violations.append(
                Violation.of("tricks_out_of_range", name, value=t, min=0, max=max_tricks)
            )
        if f is None:
            violations.append(Violation.of("figures_missing", name))
        elif not 0 <= f <= max_figures:
            violations.append(
                Violation.of("figures_out_of_range", name, value=f, min=0, max=max_figures)
            )
        if t is None or f is None:
            continue
        results[name] = player_result(t, f, rules)
        if not (0 <= t <= max_tricks and 0 <= f <= max_figures):
            continue
        if t == 0 and f > 0:
            violations.append(Violation.of("figures_without_tricks", name, figures=f))
        most = rules.max_figures_per_trick * t
        # Of the 4t cards taken at most all 16 blanks can be no figures.
        fewest = max(0, rules.players * t - rules.blank_cards)
        if t > 0 and f > most:
            violations.append(Violation.of("figures_too_many", name, figures=f, tricks=t, max=most))
        if f < fewest:
            violations.append(
                Violation.of("figures_too_few", name, figures=f, tricks=t, min=fewest)
            )

    if all(name in tricks for name in seats):
        total = sum(tricks[name] for name in seats)
        if total != max_tricks:
            violations.append(Violation.of("tricks_sum", total=total, expected=max_tricks))
    if all(name in figures for name in seats):
        total = sum(figures[name] for name in seats)
        low = rules.min_figures_total
        if total % 2 or not low <= total <= max_figures:
            violations.append(Violation.of("figures_sum", total=total, min=low, max=max_figures))
    return violations, results


# ---------------------------------------------------------------------------------------
# Card by card


@dataclass(frozen=True)
class TrickCards:
    """One recorded trick: its leader and the card code each player played."""

    leader: str
    cards: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))


def parse_trick_cards(data: object) -> tuple[TrickCards, ...]:
    """Turn JSON-shaped ``[{"leader": "A", "cards": {"A": "hearts-7", ...}}, ...]`` into
    TrickCards, or RuleError naming ``trick_cards.<index>...`` (indexes count from 0)."""
    if isinstance(data, str) or not isinstance(data, Sequence):
        raise RuleError("trick_cards", "must be a list of tricks", "not_list")
    out: list[TrickCards] = []
    for index, trick in enumerate(data):
        where = f"trick_cards.{index}"
        if not isinstance(trick, Mapping):
            raise RuleError(where, "must be an object with leader and cards", "not_object")
        leader, cards = trick.get("leader"), trick.get("cards")
        if not isinstance(leader, str):
            raise RuleError(f"{where}.leader", "must be a player's name", "not_name")
        if not isinstance(cards, Mapping):
            raise RuleError(f"{where}.cards", "must map each player to a card code", "not_object")
        for name, code in cards.items():
            if not isinstance(name, str):
                raise RuleError(f"{where}.cards", "player names must be strings", "not_name")
            if not isinstance(code, str):
                raise RuleError(f"{where}.cards.{name}", "must be a card code", "bad_card")
        out.append(TrickCards(leader, cards))
    return tuple(out)


def card_figures(card: Card, wins: bool) -> int:
    """Figures a card counts: 1 for ace, king, ober, unter, 3 for an ace that wins."""
    if card.rank not in FIGURE_RANKS:
        return 0
    return WINNING_ACE_FIGURES if wins and card.rank == "ace" else 1


def trick_winner(
    plays: Sequence[tuple[str, Card]], pack: Pack = MURA_RULES.card_pack
) -> tuple[str, Card]:
    """The play that wins: the highest card of the suit led (``plays[0]``), no trumps.

    With identical cards (an illegal record) the earlier play wins.
    """
    led = plays[0][1].suit
    best = plays[0]
    for play in plays[1:]:
        card = play[1]
        if card.suit == led and pack.rank_index(card.rank) < pack.rank_index(best[1].rank):
            best = play
    return best


def check_cards(
    players: Sequence[str],
    trick_cards: Sequence[TrickCards],
    rules: MuraRules = MURA_RULES,
    dealer: str | None = None,
) -> MuraDealResult:
    """Check a deal recorded card by card and derive each player's tricks and figures.

    ``players`` is in the order of play (see the module docstring): in a trick led by X,
    the next player in the list plays second. Checks ``card_not_in_pack``,
    ``card_played_twice``, ``wrong_number_of_plays`` (``rules.players`` cards a trick,
    ``tricks_per_deal`` tricks), ``wrong_leader`` (a trick after the first is led by the
    winner of the one before; with a ``dealer``, trick 1 by :func:`first_leader`
    (docs/rules.md, "First lead"); a dealer who is not seated is ``dealer_not_seated``),
    ``must_follow_suit`` (a player did not follow the suit led in trick n but plays a card of
    that suit later: params ``trick``, ``suit``, and the evidence ``card`` and
    ``later_trick``), ``unknown_player``, then every counts check on the derived counts.
    Trick numbers in violations count from 1.

    A string that is no card code at all raises RuleError naming
    ``trick_cards.<index>.cards.<player>`` (index from 0).
    """
    names = _names(players)
    seats = names
    seated = set(seats)
    pack = rules.card_pack
    violations: list[Violation] = _dealer_violations(names, dealer)
    opening = first_leader(seats, dealer) if dealer in seated else None
    if isinstance(trick_cards, str) or not isinstance(trick_cards, Sequence):
        raise RuleError("trick_cards", "must be a list of tricks", "not_list")
    expected_tricks = rules.tricks_per_deal
    if len(trick_cards) != expected_tricks:
        violations.append(
            Violation.of("wrong_number_of_plays", tricks=len(trick_cards), expected=expected_tricks)
        )

    outcomes: list[TrickOutcome] = []
    seen: dict[Card, int] = {}
    previous_winner: str | None = None
    for index, trick in enumerate(trick_cards):
        number = index + 1
        if not isinstance(trick, TrickCards):
            raise RuleError(
                f"trick_cards.{index}", "must be a trick with leader and cards", "not_object"
            )
        leader = trick.leader
        if not isinstance(leader, str):
            raise RuleError(f"trick_cards.{index}.leader", "must be a player's name", "not_name")
        if leader not in seated:
            violations.append(Violation.of("unknown_player", leader, trick=number, field="leader"))
        for name in trick.cards:
            if name not in seated:
                violations.append(Violation.of("unknown_player", name, trick=number, field="cards"))
        if len(trick.cards) != rules.players:
            violations.append(
                Violation.of(
                    "wrong_number_of_plays",
                    trick=number,
                    cards=len(trick.cards),
                    expected=rules.players,
                )
            )
        if number > 1 and previous_winner is not None and leader != previous_winner:
            violations.append(
                Violation.of("wrong_leader", leader, trick=number, expected=previous_winner)
            )
        if number == 1 and opening is not None and leader != opening:
            violations.append(Violation.of("wrong_leader", leader, trick=1, expected=opening))

        plays: list[tuple[str, Card]] = []
        for name in _play_order(seats, leader, trick.cards):
            code = trick.cards[name]
            try:
                card = pack.parse(code)
            except CardSyntaxError as error:
                raise RuleError(
                    f"trick_cards.{index}.cards.{name}", str(error), "bad_card", card=str(code)
                ) from error
            except CardNotInPack:
                violations.append(
                    Violation.of("card_not_in_pack", name, trick=number, card=code, pack=pack.name)
                )
                continue
            if card in seen:
                violations.append(
                    Violation.of(
                        "card_played_twice",
                        name,
                        trick=number,
                        card=card.code,
                        first_trick=seen[card],
                    )
                )
            else:
                seen[card] = number
            if name in seated:
                plays.append((name, card))

        winner: str | None = None
        winning_card: Card | None = None
        taken = 0
        if plays and plays[0][0] == leader:
            winner, winning_card = trick_winner(plays, pack)
            taken = sum(card_figures(card, name == winner) for name, card in plays)
        outcomes.append(TrickOutcome(number, leader, tuple(plays), winner, winning_card, taken))
        previous_winner = winner

    violations.extend(_revokes(outcomes))

    tricks = dict.fromkeys(seats, 0)
    figures = dict.fromkeys(seats, 0)
    for outcome in outcomes:
        if outcome.winner is not None:
            tricks[outcome.winner] += 1
            figures[outcome.winner] += outcome.figures
    count_violations, results = _count_violations(names, tricks, figures, rules)
    violations.extend(count_violations)
    return MuraDealResult(tuple(violations), MappingProxyType(results), tuple(outcomes))


def _play_order(seats: tuple[str, ...], leader: str, cards: Mapping[str, str]) -> list[str]:
    """Who played, in order of play from the leader; players not seated come last."""
    if leader in seats:
        start = seats.index(leader)
        ordered = [n for n in seats[start:] + seats[:start] if n in cards]
    else:
        ordered = [n for n in seats if n in cards]
    return ordered + [n for n in cards if n not in seats]


def _revokes(outcomes: Sequence[TrickOutcome]) -> list[Violation]:
    """Did not follow the suit led, yet plays a card of that suit in a later trick."""
    violations: list[Violation] = []
    for position, outcome in enumerate(outcomes):
        if outcome.winner is None:
            continue
        led = outcome.plays[0][1].suit
        for name, card in outcome.plays[1:]:
            later = [(t.number, c) for t in outcomes[position + 1 :]
                     for player, c in t.plays if player == name]
            found = revoke_evidence(led, card, [c for _n, c in later])
            if found is not None:
                violations.append(
                    Violation.of(
                        "must_follow_suit",
                        name,
                        trick=outcome.number,
                        suit=led,
                        card=later[found][1].code,
                        later_trick=later[found][0],
                    )
                )
    return violations


def revoke_evidence(led: str, card: Card, later: Sequence[Card]) -> int | None:
    """A revoke (``must_follow_suit``; docs/rules.md, "Mura play"): ``card`` was played to a
    trick led in ``led`` without following it, yet the same player plays a card of ``led``
    later. The index in ``later`` (that player's cards in later tricks, in order) of the
    first such card, or None when the cards seen show no revoke."""
    if card.suit == led:
        return None
    return next((i for i, c in enumerate(later) if c.suit == led), None)


# ---------------------------------------------------------------------------------------
# Running totals


def penalties(deals: Iterable[Mapping[str, MuraPlayerResult]]) -> Mapping[str, Penalty]:
    """Running totals: each player's mura and zeros summed over the deals given."""
    mura: dict[str, int] = {}
    zeros: dict[str, int] = {}
    for results in deals:
        for name, result in results.items():
            mura[name] = mura.get(name, 0) + result.mura
            zeros[name] = zeros.get(name, 0) + int(result.zero)
    return MappingProxyType({name: Penalty(mura[name], zeros[name]) for name in mura})


def zeros_to_next_mura(zeros: int, rules: MuraRules = MURA_RULES) -> int:
    """How many more zeros make the next whole mura (9 with none, 1 with 8, 9 with 9)."""
    if isinstance(zeros, bool) or not isinstance(zeros, int) or zeros < 0:
        raise RuleError("zeros", "must be a whole number, 0 or more", "too_small", min=0)
    return rules.zeros_per_mura - zeros % rules.zeros_per_mura


#: The JSON Schema of what mura_rules takes as overrides (every check but none).
OVERRIDES_SCHEMA = _overrides_schema()
