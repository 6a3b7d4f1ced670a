"""Müller Matz (RULES.md §4, seed 002): which card beats which, sleeping, the result.

The referee answers "does ``defense`` beat ``attack`` with trump T in life L" with a stable
reason code (:data:`REASONS_EN` has an English sentence for each), says who may swap the
turned-up trump or go to sleep, and checks a game's recorded result.

**The beat relation is the same in both lives.** First life: a card played to you is
beaten by a higher card of its suit, or by any trump if it is not a trump; a trump only by
a higher trump. Second life: the next player must serve the card on top "with a higher card
of its suit, or with a trump if it is not a trump (a higher trump if it is)" — the very same
relation, so :func:`beats` gives the same answer and the same reason for ``life`` 1 and 2.
What differs between the lives (giving back a smaller card, picking up) is a choice of the
defender, not part of the relation.

An identical card (possible with two packs) does not beat (``same_card``); in the first life
it may be given back instead (seed 002).

Violation codes of :func:`check_result`: ``players_count``, ``player_listed_twice``,
``unknown_player``, ``player_missing``, ``loser_not_last``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType

from referee.cards import FRENCH_SUITS, PACKS, Card, CardNotInPack, CardSyntaxError, Pack
from referee.params import typed_overrides
from referee.violations import RuleError, Violation


@dataclass(frozen=True)
class MullerMatzRules:
    """Every number and switch of Müller Matz, by its RULES.md name."""

    pack: str = "french52"
    players_min: int = 2
    players_max: int = 10
    two_packs_from: int = 5
    lowest_trump: str = "2"
    sleep_trumps: int = 3

    def as_params(self) -> dict[str, object]:
        """Every parameter by name, for ``GET /api/v1/rules``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def card_pack(self) -> Pack:
        return PACKS[self.pack]


MULLER_MATZ_RULES = MullerMatzRules()
#: Most seats any override may allow (two packs, three cards each, leave a stock).
MAX_PLAYERS = 20


def muller_matz_rules(overrides: Mapping[str, object]) -> MullerMatzRules:
    """The rules with ``overrides`` applied, or RuleError naming ``overrides.<name>``."""
    values = typed_overrides(MULLER_MATZ_RULES.as_params(), overrides)
    rules = MullerMatzRules(**values)
    if rules.pack != "french52":
        raise RuleError(
            "overrides.pack", "must be one of french52", "not_choice", choices="french52"
        )
    for name, least in (("players_min", 2), ("two_packs_from", 2), ("sleep_trumps", 1)):
        if getattr(rules, name) < least:
            raise RuleError(
                f"overrides.{name}", f"must be at least {least}", "too_small", min=least
            )
    if rules.players_max > MAX_PLAYERS:
        raise RuleError(
            "overrides.players_max", f"must be at most {MAX_PLAYERS}", "too_large", max=MAX_PLAYERS
        )
    if rules.players_min > rules.players_max:
        raise RuleError("overrides.players_min", "must not exceed players_max", "min_over_max")
    if rules.lowest_trump not in rules.card_pack.ranks:
        ranks = ", ".join(rules.card_pack.ranks)
        raise RuleError(
            "overrides.lowest_trump", f"must be one of {ranks}", "not_choice", choices=ranks
        )
    return rules


def packs_for(players: int, rules: MullerMatzRules = MULLER_MATZ_RULES) -> int:
    """Packs needed: 1 for 2–4 players, 2 from ``two_packs_from`` (5) players on.

    RuleError("players") outside ``players_min``..``players_max``.
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise RuleError("players", "must be a whole number", "not_int")
    if players < rules.players_min:
        raise RuleError(
            "players", f"must be at least {rules.players_min}", "too_small", min=rules.players_min
        )
    if players > rules.players_max:
        raise RuleError(
            "players", f"must be at most {rules.players_max}", "too_large", max=rules.players_max
        )
    return 2 if players >= rules.two_packs_from else 1


# ---------------------------------------------------------------------------------------
# Beating

#: English sentence for every reason code; the scorepad translates the codes.
REASONS_EN: Mapping[str, str] = MappingProxyType(
    {
        "higher_same_suit": "A higher card of the same suit beats it.",
        "higher_trump": "A higher trump beats a trump.",
        "trump_beats_non_trump": "Any trump beats a card that is not a trump.",
        "not_higher": "A card of the same suit must be higher to beat it.",
        "trump_only_beaten_by_higher_trump": "A trump can only be beaten by a higher trump.",
        "different_suit_not_trump": ("A card of another suit beats it only if it is a trump."),
        "same_card": (
            "An identical card (from the second pack) does not beat it; in the first life "
            "it may be given back instead."
        ),
    }
)


@dataclass(frozen=True)
class BeatResult:
    """Whether ``defense`` beats ``attack``, and why (a code of :data:`REASONS_EN`)."""

    legal: bool
    reason: str
    attack: Card
    defense: Card
    trump: str
    life: int

    @property
    def reason_en(self) -> str:
        return REASONS_EN[self.reason]


def _trump(trump: object) -> str:
    if not isinstance(trump, str) or trump not in FRENCH_SUITS:
        suits = ", ".join(FRENCH_SUITS)
        raise RuleError("trump", f"must be one of {suits}", "not_choice", choices=suits)
    return trump


def _life(life: object) -> int:
    if isinstance(life, bool) or not isinstance(life, int) or life not in (1, 2):
        raise RuleError("life", "must be one of 1, 2", "not_choice", choices="1, 2")
    return life


def beats(
    attack: Card,
    defense: Card,
    trump: str,
    life: int,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> BeatResult:
    """Does ``defense`` (played on top) beat ``attack`` with ``trump`` in ``life``?

    RuleError naming ``trump``, ``life``, ``attack`` or ``defense`` for unusable input.
    """
    trump = _trump(trump)
    life = _life(life)
    pack = rules.card_pack
    for name, card in (("attack", attack), ("defense", defense)):
        if not isinstance(card, Card) or card not in pack:
            raise RuleError(
                name, f"must be a card of the {pack.name} pack", "card_not_in_pack", pack=pack.name
            )

    def answer(legal: bool, reason: str) -> BeatResult:
        return BeatResult(legal, reason, attack, defense, trump, life)

    if attack == defense:
        return answer(False, "same_card")
    if defense.suit == attack.suit:
        if pack.rank_index(defense.rank) > pack.rank_index(attack.rank):
            return answer(False, "not_higher")
        return answer(True, "higher_trump" if attack.suit == trump else "higher_same_suit")
    if attack.suit == trump:
        return answer(False, "trump_only_beaten_by_higher_trump")
    if defense.suit == trump:
        return answer(True, "trump_beats_non_trump")
    return answer(False, "different_suit_not_trump")


def check_beat(
    attack: object,
    defense: object,
    trump: object,
    life: object,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> BeatResult:
    """:func:`beats` for JSON input: card codes as strings (``"spades-9"``).

    A code that is no card, or a card not in the French pack (``"bells-7"``), raises
    RuleError naming ``attack`` or ``defense``: a beat question about a card that is not in
    the game has no answer.
    """
    trump = _trump(trump)
    life = _life(life)
    cards: list[Card] = []
    for name, code in (("attack", attack), ("defense", defense)):
        try:
            cards.append(rules.card_pack.parse(code))
        except CardSyntaxError as error:
            raise RuleError(name, str(error), "bad_card", card=str(code)) from error
        except CardNotInPack as error:
            raise RuleError(
                name, str(error), "card_not_in_pack", card=str(code), pack=rules.pack
            ) from error
    return beats(cards[0], cards[1], trump, life, rules)


# ---------------------------------------------------------------------------------------
# Swapping the turned-up trump, going to sleep


def lowest_trump_card(trump: str, rules: MullerMatzRules = MULLER_MATZ_RULES) -> Card:
    """The lowest trump of the pack: the 2 of the trump suit (``lowest_trump``)."""
    return Card(_trump(trump), rules.lowest_trump)


def _hand(hand: Iterable[Card], pack: Pack) -> tuple[Card, ...]:
    cards = tuple(hand)
    for index, card in enumerate(cards):
        if not isinstance(card, Card) or card not in pack:
            raise RuleError(
                f"hand.{index}",
                f"must be a card of the {pack.name} pack",
                "card_not_in_pack",
                pack=pack.name,
            )
    return cards


def can_swap_lowest_trump(
    hand: Iterable[Card],
    trump: str,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
    turned_up: Card | None = None,
) -> bool:
    """A hand holding the lowest trump may swap it (on its turn) for the turned-up card.

    With ``turned_up`` given, a swap is pointless (False) when the turned-up card is itself
    the lowest trump.
    """
    lowest = lowest_trump_card(trump, rules)
    if turned_up == lowest:
        return False
    return lowest in _hand(hand, rules.card_pack)


def sleep_group(
    hand: Iterable[Card],
    trump: str,
    stock_empty: bool,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> int:
    """How many trumps the hand may put to sleep now: 0 when it may not sleep.

    Seed 002: "If you have three trumps in hand, you can 'go to sleep' [...] discard the
    three trump cards [...] and take three new cards for them. [...] When the pile is used
    up, you can go to sleep with two or one trump card." So while the stock lasts, a hand
    with at least ``sleep_trumps`` (3) trumps sleeps with 3 of them; once the stock is
    empty, any trump held is enough and the group is all trumps held, up to 3. The hand
    need not consist of trumps only (the seed says "three trumps in hand").
    """
    trump = _trump(trump)
    if not isinstance(stock_empty, bool):
        raise RuleError("stock_empty", "must be true or false", "not_bool")
    held = sum(1 for card in _hand(hand, rules.card_pack) if card.suit == trump)
    if stock_empty:
        return min(held, rules.sleep_trumps)
    return rules.sleep_trumps if held >= rules.sleep_trumps else 0


def may_go_to_sleep(
    hand: Iterable[Card],
    trump: str,
    stock_empty: bool,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> bool:
    """Three trumps in hand; once the stock is empty, one or two are enough (see
    :func:`sleep_group`)."""
    return sleep_group(hand, trump, stock_empty, rules) > 0


# ---------------------------------------------------------------------------------------
# A game's result


@dataclass(frozen=True)
class MullerMatzResult:
    """A checked game result.

    ``order`` is the finishing order when one was recorded (winner first, loser last),
    else empty; ``loser`` is the Müller Matz, ``winner`` the first out (None if unknown).
    Both are derived where possible even when there are violations.
    """

    violations: tuple[Violation, ...]
    loser: str | None
    order: tuple[str, ...]

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def winner(self) -> str | None:
        return self.order[0] if self.order else None


def _names(value: object, field_name: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise RuleError(field_name, "must be a list of names", "not_list")
    for index, name in enumerate(value):
        if not isinstance(name, str) or not name:
            raise RuleError(f"{field_name}.{index}", "must be a non-empty name", "not_name")
    return tuple(value)


def check_result(
    players: Sequence[str],
    finish_order: Sequence[str] | None = None,
    loser: str | None = None,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> MullerMatzResult:
    """Check a game's result: a full finishing order (winner first), or only the loser.

    ``finish_order`` names every seated player exactly once (``unknown_player``,
    ``player_listed_twice``, ``player_missing``). ``loser`` alone must be seated. Given
    both, the loser is the last of the order (``loser_not_last``). RuleError("finish_order")
    when neither is given.
    """
    names = _names(players, "players")
    if len(set(names)) != len(names):
        raise RuleError("players", "a name is seated twice", "seated_twice")
    if finish_order is None and loser is None:
        raise RuleError("finish_order", "give the finishing order or the loser", "missing")
    if loser is not None and (not isinstance(loser, str) or not loser):
        raise RuleError("loser", "must be a player's name", "not_name")
    order = _names(finish_order, "finish_order") if finish_order is not None else ()

    violations: list[Violation] = []
    seats = names
    if not rules.players_min <= len(seats) <= rules.players_max:
        violations.append(
            Violation.of(
                "players_count", actual=len(seats), min=rules.players_min, max=rules.players_max
            )
        )
    for name in dict.fromkeys(order):
        if name not in seats:
            violations.append(Violation.of("unknown_player", name, field="finish_order"))
        elif order.count(name) > 1:
            violations.append(Violation.of("player_listed_twice", name, field="finish_order"))
    if finish_order is not None:
        for name in seats:
            if name not in order:
                violations.append(Violation.of("player_missing", name, field="finish_order"))
    if loser is not None and loser not in seats:
        violations.append(Violation.of("unknown_player", loser, field="loser"))
    if loser is not None and order and order[-1] != loser:
        violations.append(Violation.of("loser_not_last", loser, last=order[-1]))

    if loser is None and order:
        loser = order[-1]
    return MullerMatzResult(tuple(violations), loser, order)
