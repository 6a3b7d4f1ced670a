"""One Mulatschak trick: legality of each play and the winner (docs/rules.md, "Tricks").

Trump order: trump ace, the Weli (``bells-6``), trump king, ober, unter, 10 … 6. The Weli
belongs to the trump suit whatever the trump is, also for following suit. Without a
trump in the trick, the highest card of the suit led wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import GERMAN_SUITS, WELI, Card, CardNotInPack, CardSyntaxError, Pack
from .rules import MulatschakRules
from .violations import RuleError, Violation


@dataclass(frozen=True)
class Play:
    player: str
    card: str
    hand: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TrickResult:
    violations: tuple[Violation, ...]
    winner: str | None
    winning_card: Card | None

    @property
    def legal(self) -> bool:
        return not self.violations


def effective_suit(card: Card, trump: str) -> str:
    """The suit a card belongs to in play: the Weli is always of the trump suit."""
    return trump if card == WELI else card.suit


def strength(card: Card, trump: str, led: str, pack: Pack) -> tuple[int, int]:
    """A key that orders the cards of one trick: higher wins.

    Trumps beat the suit led, which beats the rest (which never wins). Within the trump
    suit the Weli ranks right below the ace.
    """
    suit = effective_suit(card, trump)
    if suit == trump:
        if card.rank == "ace":
            return (2, 100)
        if card == WELI:
            return (2, 99)
        return (2, 50 - pack.rank_index(card.rank))
    if suit == led:
        return (1, 50 - pack.rank_index(card.rank))
    return (0, 0)


def trick_winner(cards: Sequence[Card], trump: str, pack: Pack) -> int:
    """The index of the winning card (the first card leads)."""
    led = effective_suit(cards[0], trump)
    keys = [strength(c, trump, led, pack) for c in cards]
    return max(range(len(cards)), key=lambda i: (keys[i], -i))


def _parse(pack: Pack, text: str, player: str, v: list[Violation], where: str) -> Card | None:
    try:
        return pack.parse(text)
    except CardSyntaxError as e:
        raise RuleError(where, str(e), "not_a_card", text=repr(text)) from e
    except CardNotInPack:
        v.append(Violation.of("card_not_in_pack", player, card=text, pack=pack.name,
                              field=where))
        return None


def _play_violation(
    rules: MulatschakRules,
    trump: str,
    pack: Pack,
    earlier: Sequence[Card],
    card: Card,
    hand: Sequence[Card],
) -> str | None:
    """The code of the first rule the play breaks, given the hand held before it."""
    led = effective_suit(earlier[0], trump)
    best = earlier[trick_winner(earlier, trump, pack)]

    def key(c: Card) -> tuple[int, int]:
        return strength(c, trump, led, pack)

    suit = effective_suit(card, trump)
    of_led = [c for c in hand if effective_suit(c, trump) == led]
    if of_led:
        if not rules.must_follow_suit:
            return None
        if suit != led:
            return "must_follow_suit"
        trumped_over = led != trump and effective_suit(best, trump) == trump
        if rules.must_head_trick and not trumped_over:
            beaters = [c for c in of_led if key(c) > key(best)]
            if beaters and card not in beaters:
                return "must_head_trick"
        return None
    trumps = [c for c in hand if effective_suit(c, trump) == trump]
    if trumps and rules.must_trump:
        if suit != trump:
            return "must_trump"
        if rules.must_head_trick:
            beaters = [c for c in trumps if key(c) > key(best)]
            if beaters and card not in beaters:
                return "must_head_trick"
    return None


def check_trick(rules: MulatschakRules, trump: str, plays: Sequence[Play]) -> TrickResult:
    """Check every play of one trick and find its winner (when every card is known)."""
    if trump not in GERMAN_SUITS:
        return TrickResult((Violation.of("trump_invalid", trump=trump),), None, None)
    if not plays:
        raise RuleError("plays", "a trick needs at least one play", "empty")
    pack = rules.card_pack
    v: list[Violation] = []
    cards: list[Card | None] = []
    seen_players: set[str] = set()
    seen_cards: set[Card] = set()
    for i, play in enumerate(plays):
        card = _parse(pack, play.card, play.player, v, f"plays.{i}.card")
        cards.append(card)
        if play.player in seen_players:
            v.append(Violation.of("wrong_number_of_plays", play.player, play=i))
        seen_players.add(play.player)
        if card is not None and card in seen_cards:
            v.append(Violation.of("card_played_twice", play.player, card=card.code, play=i))
        if card is not None:
            seen_cards.add(card)
        if play.hand is None:
            continue
        hand = [_parse(pack, h, play.player, v, f"plays.{i}.hand") for h in play.hand]
        known = [c for c in hand if c is not None]
        if len(set(known)) != len(known):
            raise RuleError(f"plays.{i}.hand", "lists a card twice", "card_twice")
        if card is None:
            continue
        if card not in known:
            v.append(Violation.of("card_not_in_hand", play.player, card=card.code, play=i))
            continue
        earlier = cards[:i]
        if i == 0 or any(c is None for c in earlier):
            continue
        code = _play_violation(rules, trump, pack, [c for c in earlier if c], card, known)
        if code:
            v.append(Violation.of(code, play.player, card=card.code, play=i))
    if any(c is None for c in cards):
        return TrickResult(tuple(v), None, None)
    known_cards = [c for c in cards if c is not None]
    w = trick_winner(known_cards, trump, pack)
    return TrickResult(tuple(v), plays[w].player, known_cards[w])
