"""Localized card names (docs/rules.md, "Cards": codes are ASCII, the UI shows localized names).

The same code has different names by pack: ``hearts`` is *Herz* in a German pack and
*Piros* in a Hungarian one; ``ober`` is *Ober* or *Felső*. Every name goes through
gettext with the pack's family as context, so each language names each pack its own way.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

from referee.cards import PACKS, CardNotInPack, CardSyntaxError, Pack

FAMILY = {"german36": "german", "german33": "german", "hungarian32": "hungarian",
          "french52": "french"}

#: The trumps a deal names, as the pages say them (the German pack's suits).
TRUMP_NAMES = [
    ("acorns", gettext_lazy("Acorns")),
    ("leaves", gettext_lazy("Leaves")),
    ("hearts", gettext_lazy("Hearts")),
    ("bells", gettext_lazy("Bells")),
]
SUITS: dict[str, dict[str, Promise]] = {
    "german": {
        "acorns": pgettext_lazy("German suit", "Acorns"),
        "leaves": pgettext_lazy("German suit", "Leaves"),
        "hearts": pgettext_lazy("German suit", "Hearts"),
        "bells": pgettext_lazy("German suit", "Bells"),
    },
    "hungarian": {
        "hearts": pgettext_lazy("Hungarian suit", "Hearts"),
        "bells": pgettext_lazy("Hungarian suit", "Bells"),
        "leaves": pgettext_lazy("Hungarian suit", "Leaves"),
        "acorns": pgettext_lazy("Hungarian suit", "Acorns"),
    },
    "french": {
        "clubs": pgettext_lazy("French suit", "Clubs"),
        "diamonds": pgettext_lazy("French suit", "Diamonds"),
        "hearts": pgettext_lazy("French suit", "Hearts"),
        "spades": pgettext_lazy("French suit", "Spades"),
    },
}

#: Ranks that are words; number ranks are shown as they are.
RANKS: dict[str, dict[str, Promise]] = {
    "german": {
        "ace": pgettext_lazy("German rank", "Ace"),
        "king": pgettext_lazy("German rank", "King"),
        "ober": pgettext_lazy("German rank", "Ober"),
        "unter": pgettext_lazy("German rank", "Unter"),
    },
    "hungarian": {
        "ace": pgettext_lazy("Hungarian rank", "Ace"),
        "king": pgettext_lazy("Hungarian rank", "King"),
        "ober": pgettext_lazy("Hungarian rank", "Ober"),
        "unter": pgettext_lazy("Hungarian rank", "Unter"),
    },
    "french": {
        "ace": pgettext_lazy("French rank", "Ace"),
        "king": pgettext_lazy("French rank", "King"),
        "queen": pgettext_lazy("French rank", "Queen"),
        "jack": pgettext_lazy("French rank", "Jack"),
    },
}

SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def suit_name(suit: str, pack: str) -> str:
    return str(SUITS[FAMILY[pack]].get(suit, suit))


def rank_name(rank: str, pack: str) -> str:
    return str(RANKS[FAMILY[pack]].get(rank, rank))


def card_name(code: str, pack: str) -> str:
    """``hearts-ober`` in hungarian32 → "Piros Felső" in Hungarian, "Hearts Ober" in
    English. A code that is no card of the pack is returned unchanged."""
    try:
        card = PACKS[pack].parse(code)
    except (CardSyntaxError, CardNotInPack, KeyError):
        return str(code)
    return f"{suit_name(card.suit, pack)} {rank_name(card.rank, pack)}"


def pack_choices(pack: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """Per suit of the pack: (suit, its name, [(card code, card name), ...]) in the
    pack's own order, high to low — what a card picker shows."""
    the_pack: Pack = PACKS[pack]
    out = []
    for suit in the_pack.suits:
        cards = [(c.code, card_name(c.code, pack)) for c in the_pack.cards if c.suit == suit]
        out.append((suit, suit_name(suit, pack), cards))
    return out


def picker_suits(pack: str) -> list[dict[str, object]]:
    """The pack as a card picker shows it: per suit its code, name and symbol (French
    suits have one; German and Hungarian suits are drawn as a coloured pip), and per card
    its code, its full name and the rank as printed on the button (numbers as numbers)."""
    the_pack: Pack = PACKS[pack]
    out: list[dict[str, object]] = []
    for suit in the_pack.suits:
        cards = [{"code": c.code, "name": card_name(c.code, pack),
                  "rank": rank_name(c.rank, pack)}
                 for c in the_pack.cards if c.suit == suit]
        out.append({"suit": suit, "name": suit_name(suit, pack),
                    "symbol": SYMBOLS.get(suit, "") if FAMILY[pack] == "french" else "",
                    "cards": cards})
    return out
