"""Müller Matz (docs/rules.md, "Mueller Matz"): which card beats which, sleeping, the result.

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
it may be given back instead (the German Wikipedia article on Müller Matz).

It also answers for a hand what it draws, whether it may swap the lowest trump and go to
sleep (:func:`hand_state`; docs/rules.md, "Drawing", "Swapping the lowest trump" and
"Sleeping"), and checks a second-life pile action by action (:func:`play_pile`;
docs/rules.md, "The second-life pile").

Violation codes of :func:`check_result`: ``players_count``, ``player_listed_twice``,
``unknown_player``, ``player_missing``, ``loser_not_last``; of :func:`play_pile`:
``card_not_in_hand``, ``does_not_serve``, ``not_your_turn``, ``pick_up_empty_pile``,
``play_after_complete``, ``unknown_player``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType

from referee.cards import FRENCH_SUITS, PACKS, Card, CardNotInPack, CardSyntaxError, Pack
from referee.params import one_of, overrides_schema, typed_overrides
from referee.violations import RuleError, Violation


@dataclass(frozen=True)
class MullerMatzRules:
    """Every number and switch of Müller Matz, by its name in docs/rules.md,
    "Mueller Matz parameters"."""

    pack: str = "french52"
    players_min: int = 2
    players_max: int = 10
    two_packs_from: int = 5
    lowest_trump: str = "2"
    sleep_trumps: int = 3
    #: A player draws from the stock up to this many cards (002 l.31).
    hand_size: int = 3

    def as_params(self) -> dict[str, object]:
        """Every parameter by name, for ``GET /api/v1/rules``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def card_pack(self) -> Pack:
        return PACKS[self.pack]


#: What each of its rules means, in a line for the forms that set it: a new rule brings its
#: help here, beside it, and the pages translate it from the game's catalogue.
HELP: Mapping[str, str] = {
    "pack": "the cards used",
    "players_min": "fewest players at the table",
    "players_max": "most players at the table",
    "two_packs_from": "from this many players on, two packs are used",
    "lowest_trump": "rank of the trump that may be swapped for the turned-up card",
    "sleep_trumps": "trumps needed to go to sleep while the stock lasts",
    "hand_size": "a hand draws from the stock up to this many cards",
}


MULLER_MATZ_RULES = MullerMatzRules()
#: Most seats any override may allow (two packs, three cards each, leave a stock).
MAX_PLAYERS = 20
#: Most cards any override may deal a hand (a hand of a pack's suit).
MAX_HAND_SIZE = 13


def _overrides_schema() -> dict[str, object]:
    return overrides_schema(MULLER_MATZ_RULES.as_params(), {
        "pack": one_of(["french52"]),
        "players_min": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS},
        "players_max": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS},
        "two_packs_from": {"type": "integer", "minimum": 2},
        "sleep_trumps": {"type": "integer", "minimum": 1},
        "hand_size": {"type": "integer", "minimum": 1, "maximum": MAX_HAND_SIZE},
        "lowest_trump": one_of(PACKS["french52"].ranks)})


def muller_matz_rules(overrides: Mapping[str, object]) -> MullerMatzRules:
    """The rules with ``overrides`` applied, or RuleError naming ``overrides.<name>``."""
    values = typed_overrides(MULLER_MATZ_RULES.as_params(), overrides)
    rules = MullerMatzRules(**values)
    if rules.pack != "french52":
        raise RuleError(
            "overrides.pack", "must be one of french52", "not_choice", choices="french52"
        )
    for name, least in (("players_min", 2), ("two_packs_from", 2), ("sleep_trumps", 1),
                        ("hand_size", 1)):
        if getattr(rules, name) < least:
            raise RuleError(
                f"overrides.{name}", f"must be at least {least}", "too_small", min=least
            )
    if rules.hand_size > MAX_HAND_SIZE:
        raise RuleError(
            "overrides.hand_size", f"must be at most {MAX_HAND_SIZE}", "too_large",
            max=MAX_HAND_SIZE,
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

    The German Wikipedia article, translated: "If you have three trumps in hand, you can
    'go to sleep' [...] discard the three trump cards [...] and take three new cards for
    them. [...] When the pile is used up, you can go to sleep with two or one trump card."
    So while the stock lasts, a hand with at least ``sleep_trumps`` (3) trumps sleeps with 3
    of them; once the stock is empty, any trump held is enough and the group is all trumps
    held, up to 3. The hand need not consist of trumps only (the article says "three trumps
    in hand").
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


# ---------------------------------------------------------------------------------------
# A hand: drawing, swapping, sleeping (docs/rules.md, "Drawing" to "Sleeping")


@dataclass(frozen=True)
class HandState:
    """What a hand may do now: draw cards, swap the lowest trump, go to sleep."""

    draw: int
    may_swap: bool
    swap_card: Card | None
    sleep_cards: int
    #: Why not, when ``may_swap`` is false: ``stock_empty``, ``turned_up_is_lowest`` or
    #: ``no_lowest_trump`` (the first that applies); None when the swap is allowed.
    swap_refused: str | None = None
    #: Trumps needed to go to sleep now (``sleep_trumps`` while the stock lasts, else 1).
    sleep_needed: int = 0

    @property
    def may_sleep(self) -> bool:
        return self.sleep_cards > 0

    def as_dict(self) -> dict[str, object]:
        return {
            "draw": self.draw,
            "may_swap": self.may_swap,
            "swap_card": None if self.swap_card is None else self.swap_card.code,
            "may_sleep": self.may_sleep,
            "sleep_cards": self.sleep_cards,
        }


def hand_state(
    hand: Sequence[Card],
    trump: str,
    stock: int,
    turned_up: Card | None = None,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> HandState:
    """The hand's draw, swap and sleep (docs/rules.md, "Drawing" to "Sleeping"). ``stock``
    counts the cards left in the stock, the turned-up card (its last card) included.

    - ``draw = min(max(0, hand_size − cards in hand), stock)``;
    - ``may_swap``: the stock is not empty, the hand holds the lowest trump, and the
      turned-up card, if given, is not that card (``swap_card`` is then that card);
    - ``sleep_cards``: :func:`sleep_group` (stock empty when ``stock`` is 0).

    RuleError naming ``trump``, ``stock``, ``hand.<index>`` or ``turned_up``.
    """
    trump = _trump(trump)
    if isinstance(stock, bool) or not isinstance(stock, int):
        raise RuleError("stock", "must be a whole number", "not_int")
    if stock < 0:
        raise RuleError("stock", "must be at least 0", "too_small", min=0)
    cards = _hand(hand, rules.card_pack)
    if turned_up is not None and (not isinstance(turned_up, Card)
                                  or turned_up not in rules.card_pack):
        raise RuleError("turned_up", f"must be a card of the {rules.pack} pack",
                        "card_not_in_pack", pack=rules.pack)
    lowest = lowest_trump_card(trump, rules)
    may_swap = stock > 0 and can_swap_lowest_trump(cards, trump, rules, turned_up)
    refused = None
    if not may_swap:
        refused = ("stock_empty" if stock == 0 else
                   "turned_up_is_lowest" if turned_up == lowest else "no_lowest_trump")
    return HandState(
        draw=min(max(0, rules.hand_size - len(cards)), stock),
        may_swap=may_swap,
        swap_card=lowest if may_swap else None,
        sleep_cards=sleep_group(cards, trump, stock == 0, rules),
        swap_refused=refused,
        sleep_needed=rules.sleep_trumps if stock > 0 else 1,
    )


def parse_card(code: object, field: str, rules: MullerMatzRules = MULLER_MATZ_RULES) -> Card:
    """A card of the pack from its code, or RuleError naming ``field`` (``bad_card`` for
    no card code at all, ``card_not_in_pack`` for a card of another pack)."""
    try:
        return rules.card_pack.parse(code)
    except CardSyntaxError as error:
        raise RuleError(field, str(error), "bad_card", card=str(code)) from error
    except CardNotInPack as error:
        raise RuleError(field, str(error), "card_not_in_pack", card=str(code),
                        pack=rules.pack) from error


def check_hand(
    hand: object,
    trump: object,
    stock: object,
    turned_up: object = None,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> HandState:
    """:func:`hand_state` for JSON input: card codes as strings."""
    trump = _trump(trump)
    if isinstance(hand, str) or not isinstance(hand, Sequence):
        raise RuleError("hand", "must be a list of card codes", "not_list")
    cards = [parse_card(code, f"hand.{i}", rules) for i, code in enumerate(hand)]
    up = None if turned_up is None else parse_card(turned_up, "turned_up", rules)
    if isinstance(stock, bool) or not isinstance(stock, int):
        raise RuleError("stock", "must be a whole number", "not_int")
    return hand_state(cards, trump, stock, up, rules)


# ---------------------------------------------------------------------------------------
# A second-life pile (docs/rules.md, "The second-life pile")


@dataclass(frozen=True)
class PileAction:
    """One action on a pile: ``card`` played by ``player``, or a pick-up (card None)."""

    player: str
    card: Card | None = None

    @property
    def pick_up(self) -> bool:
        return self.card is None


@dataclass(frozen=True)
class PileResult:
    """A pile as far as it stands after the legal actions.

    ``pile`` holds the cards on it, bottom first, with who played each; ``complete`` says
    whether it holds one card per player; ``winner`` is the last card's player once it is
    complete; ``next`` who acts next (None when anybody may lead, or nobody holds cards).
    """

    violations: tuple[Violation, ...]
    pile: tuple[tuple[str, Card], ...]
    complete: bool
    winner: str | None
    next: str | None

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _player, card in self.pile)


#: The order pile violations are reported in: by code, alphabetically, then by action
#: (docs/rules.md, "The second-life pile", prescribes none).
PILE_CODE_ORDER: tuple[str, ...] = (
    "card_not_in_hand",
    "does_not_serve",
    "not_your_turn",
    "pick_up_empty_pile",
    "play_after_complete",
    "unknown_player",
)


def play_pile(
    trump: str,
    players: Sequence[str],
    actions: Sequence[PileAction],
    hands: Mapping[str, Sequence[Card]] | None = None,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> PileResult:
    """Check a second-life pile action by action (docs/rules.md, "The second-life pile").

    ``players`` are those holding cards when the pile was led, in order of play (each
    one's left neighbour next). The first action is the lead, by any of them; each later
    one is by the next player after the one who acted last who still holds cards
    (``not_your_turn``, param ``expected``). A card must serve the top card in the sense
    of :func:`beats` (``does_not_serve``: ``card``, ``top``, ``reason``); on an empty pile
    it is a new lead. A pick-up takes the top card (``pick_up_empty_pile`` on an empty
    pile). With ``len(players)`` cards the pile is complete: the last card wins, its
    player (or, without cards, the next who holds some) leads next, and any further
    action is ``play_after_complete``. With ``hands``, a card not held is
    ``card_not_in_hand``; a name not in ``players`` is ``unknown_player``. An illegal
    action is reported and otherwise ignored. Every violation names its ``play`` (the
    action's index from 0).

    RuleError for ``trump``, ``players`` (not distinct names, fewer than two) and cards
    that are not of the pack.
    """
    trump = _trump(trump)
    seats = _names(players, "players")
    if len(set(seats)) != len(seats):
        raise RuleError("players", "a name is seated twice", "seated_twice")
    if len(seats) < 2:
        raise RuleError("players", "must name at least 2 players", "too_short", min=2)
    pack = rules.card_pack
    held: dict[str, list[Card]] | None = None
    if hands is not None:
        held = {p: list(_hand(hands.get(p, ()), pack)) for p in seats}
    found: list[tuple[int, Violation]] = []
    pile: list[tuple[str, Card]] = []
    last: str | None = None
    winner: str | None = None

    def holds(player: str) -> bool:
        return held is None or bool(held[player])

    def after(player: str) -> str | None:
        start = seats.index(player)
        for step in range(1, len(seats) + 1):
            candidate = seats[(start + step) % len(seats)]
            if holds(candidate):
                return candidate
        return None

    def following() -> str | None:
        if winner is not None:
            return winner if holds(winner) else after(winner)
        return None if last is None else after(last)

    for index, action in enumerate(actions):
        player, card = action.player, action.card
        if card is not None and card not in pack:
            raise RuleError(f"plays.{index}.card", f"must be a card of the {pack.name} pack",
                            "card_not_in_pack", pack=pack.name)

        def report(code: str, violation: Violation) -> None:
            found.append((PILE_CODE_ORDER.index(code), violation))

        if player not in seats:
            report("unknown_player", Violation.of("unknown_player", player, play=index))
            continue
        if winner is not None:
            report("play_after_complete",
                   Violation.of("play_after_complete", player, play=index))
            continue
        expected = following()
        if expected is not None and player != expected:
            report("not_your_turn",
                   Violation.of("not_your_turn", player, expected=expected, play=index))
            continue
        if card is None:
            if not pile:
                report("pick_up_empty_pile",
                       Violation.of("pick_up_empty_pile", player, play=index))
                continue
            _owner, top = pile.pop()
            if held is not None:
                held[player].append(top)
            last = player
            continue
        if held is not None and card not in held[player]:
            report("card_not_in_hand",
                   Violation.of("card_not_in_hand", player, card=card.code, play=index))
            continue
        if pile:
            top = pile[-1][1]
            answer = beats(top, card, trump, 2, rules)
            if not answer.legal:
                report("does_not_serve",
                       Violation.of("does_not_serve", player, card=card.code, top=top.code,
                                    reason=answer.reason, play=index))
                continue
        if held is not None:
            held[player].remove(card)
        pile.append((player, card))
        last = player
        if len(pile) == len(seats):
            winner = player

    found.sort(key=lambda pair: (pair[0], pair[1].params.get("play", 0)))
    return PileResult(
        violations=tuple(v for _rank, v in found),
        pile=tuple(pile),
        complete=winner is not None,
        winner=winner,
        next=following(),
    )


def check_pile(
    trump: object,
    players: object,
    plays: object,
    hands: object = None,
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> PileResult:
    """:func:`play_pile` for JSON input: ``plays`` as ``[{"player": "A", "card":
    "spades-9"}, {"player": "B", "pick_up": true}, ...]`` and ``hands`` as ``{"A":
    ["spades-9", ...]}``; RuleError naming ``plays.<i>...`` or ``hands.<name>...``."""
    trump = _trump(trump)
    seats = _names(players, "players")
    if isinstance(plays, str) or not isinstance(plays, Sequence):
        raise RuleError("plays", "must be a list of plays", "not_list")
    actions: list[PileAction] = []
    for index, play in enumerate(plays):
        where = f"plays.{index}"
        if not isinstance(play, Mapping):
            raise RuleError(where, "must be an object with player and card", "not_object")
        player = play.get("player")
        if not isinstance(player, str) or not player:
            raise RuleError(f"{where}.player", "must be a player's name", "not_name")
        pick_up = play.get("pick_up", False)
        if not isinstance(pick_up, bool):
            raise RuleError(f"{where}.pick_up", "must be true or false", "not_bool")
        has_card = play.get("card") is not None
        if has_card == pick_up:
            raise RuleError(where, 'give either a card or "pick_up": true', "card_or_pick_up")
        card = parse_card(play["card"], f"{where}.card", rules) if has_card else None
        actions.append(PileAction(player, card))
    held: dict[str, list[Card]] | None = None
    if hands is not None:
        if not isinstance(hands, Mapping):
            raise RuleError("hands", "must map each player to a list of cards", "not_object")
        held = {}
        for name, cards in hands.items():
            if not isinstance(name, str) or name not in seats:
                raise RuleError(f"hands.{name}", "must be one of the players", "not_seated")
            if isinstance(cards, str) or not isinstance(cards, Sequence):
                raise RuleError(f"hands.{name}", "must be a list of card codes", "not_list")
            held[name] = [parse_card(c, f"hands.{name}.{i}", rules) for i, c in enumerate(cards)]
        for name in seats:
            if name not in held:
                raise RuleError(f"hands.{name}", "is required", "missing")
    return play_pile(trump, seats, actions, held, rules)


#: The JSON Schema of what muller_matz_rules takes as overrides (all but players_min at
#: most players_max).
OVERRIDES_SCHEMA = _overrides_schema()
