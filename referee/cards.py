"""Cards and packs (docs/rules.md, "Cards").

A card is written ``<suit>-<rank>`` in lowercase ASCII (``hearts-ober``, ``bells-6``).
``sau`` is accepted as an alias of ``ace`` in German packs. A code that names a real card
of some pack but not of the pack in use is ``card_not_in_pack``; a string that is no card
code at all is a :class:`CardSyntaxError`.
"""

from __future__ import annotations

from dataclasses import dataclass

GERMAN_SUITS: tuple[str, ...] = ("acorns", "leaves", "hearts", "bells")
GERMAN_RANKS: tuple[str, ...] = ("ace", "king", "ober", "unter", "10", "9", "8", "7", "6")
HUNGARIAN_SUITS: tuple[str, ...] = ("hearts", "bells", "leaves", "acorns")
#: Mura order, high to low.
HUNGARIAN_RANKS: tuple[str, ...] = ("10", "9", "ace", "king", "ober", "unter", "8", "7")
FRENCH_SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
FRENCH_RANKS: tuple[str, ...] = (
    "ace", "king", "queen", "jack", "10", "9", "8", "7", "6", "5", "4", "3", "2",
)

ALL_SUITS = frozenset(GERMAN_SUITS + FRENCH_SUITS)
ALL_RANKS = frozenset(GERMAN_RANKS + HUNGARIAN_RANKS + FRENCH_RANKS) | {"sau"}


class CardSyntaxError(ValueError):
    """The text is not a card code of any pack (``"foo"``, ``"hearts-11"``)."""

    def __init__(self, text: object) -> None:
        super().__init__(f"{text!r} is not a card code like 'hearts-ober'")
        self.text = text


class CardNotInPack(ValueError):
    """A well-formed card code that the pack in use does not have."""

    def __init__(self, text: str, pack: str) -> None:
        super().__init__(f"{text!r} is not in the {pack} pack")
        self.text = text
        self.pack = pack


@dataclass(frozen=True, order=True)
class Card:
    suit: str
    rank: str

    @property
    def code(self) -> str:
        return f"{self.suit}-{self.rank}"

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class Pack:
    """A pack: its suits and its ranks from high to low (the pack's own order)."""

    name: str
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...] = ()
    excluded: frozenset[Card] = frozenset()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(
            Card(suit, rank)
            for suit in self.suits
            for rank in self.ranks
            if Card(suit, rank) not in self.excluded
        )

    def __len__(self) -> int:
        return len(self.suits) * len(self.ranks) - len(self.excluded)

    def __contains__(self, card: object) -> bool:
        return (
            isinstance(card, Card)
            and card.suit in self.suits
            and card.rank in self.ranks
            and card not in self.excluded
        )

    def rank_index(self, rank: str) -> int:
        """0 for the highest rank of the pack."""
        return self.ranks.index(rank)

    def parse(self, text: object) -> Card:
        """Parse a card code of this pack, or raise CardSyntaxError / CardNotInPack."""
        suit, rank = split_code(text)
        rank = dict(self.aliases).get(rank, rank)
        card = Card(suit, rank)
        if card not in self:
            raise CardNotInPack(f"{suit}-{rank}", self.name)
        return card


def split_code(text: object) -> tuple[str, str]:
    """Split ``suit-rank`` and check that both words exist in some pack."""
    if not isinstance(text, str):
        raise CardSyntaxError(text)
    suit, sep, rank = text.strip().lower().partition("-")
    if not sep or suit not in ALL_SUITS or rank not in ALL_RANKS:
        raise CardSyntaxError(text)
    return suit, rank


GERMAN36 = Pack("german36", GERMAN_SUITS, GERMAN_RANKS, aliases=(("sau", "ace"),))
#: The sixes are removed except the Weli (bells-6).
GERMAN33 = Pack(
    "german33",
    GERMAN_SUITS,
    GERMAN_RANKS,
    aliases=(("sau", "ace"),),
    excluded=frozenset(Card(s, "6") for s in GERMAN_SUITS if s != "bells"),
)
HUNGARIAN32 = Pack("hungarian32", HUNGARIAN_SUITS, HUNGARIAN_RANKS, aliases=(("sau", "ace"),))
FRENCH52 = Pack("french52", FRENCH_SUITS, FRENCH_RANKS)

PACKS: dict[str, Pack] = {p.name: p for p in (GERMAN36, GERMAN33, HUNGARIAN32, FRENCH52)}

#: The Weli: the second-highest trump in Mulatschak, whatever the trump suit.
WELI = Card("bells", "6")
