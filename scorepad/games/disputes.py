"""What the Referee page's questions share: the table, an answer's lines, reading the
form (cards, seats) and what the card picker shows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from referee.cards import PACKS, Card, CardNotInPack, CardSyntaxError, Pack

from ..cardnames import card_name, picker_suits

#: The most cards or calls one question holds: more is somebody typing, not a table.
MAX_ITEMS = 60


class FormError(ValueError):
    """A field the form cannot use: the message names it, in the user's language."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass
class Line:
    """One sentence of an answer: ``kind`` is ``yes``, ``no`` or ``info``; ``rule`` is the
    rule in one sentence and ``anchor`` its section of docs/rules.md."""

    kind: str
    text: str
    rule: str = ""
    anchor: str = ""


@dataclass
class Table:
    """What the page knows about the table: the game, its rules, its pack, the players
    in seat order (names, or "Player 1" … at a stand-alone page), the dealer and the
    scores where a session knows them, and the trump where known."""

    game: str
    rules: Any
    pack: str
    players: list[str]
    dealer: str | None = None
    scores: dict[str, int] = field(default_factory=dict)
    trump: str | None = None
    session: Any = None
    preset: str = ""
    #: The stand-alone page's rules picker: fields for the template (empty in a session),
    #: and the presets to pick from (none: the game has one set of rules, its defaults).
    rule_fields: list[dict[str, Any]] = field(default_factory=list)
    presets: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Tool:
    """One question of the Referee page."""

    name: str  # the URL's last part
    game: str
    title: Callable[[], str]  # the question, as the page's heading
    blurb: Callable[[], str]  # what to pick, one sentence
    template: str
    answer: Callable[[Table, Any], dict[str, Any]]  # (table, form data) -> context


def line(sentences: Mapping[str, tuple[Any, str]], kind: str, text: str, code: str = ""
         ) -> Line:
    """A sentence of an answer with the rule behind ``code``, if the game's
    ``sentences`` (its RULE_SENTENCES: the rule in one sentence and its anchor in
    docs/rules.md) explain it."""
    rule, anchor = sentences.get(code, ("", ""))
    return Line(kind, text, str(rule), anchor)


# --- reading the form --------------------------------------------------------------------


def one(data: Any, name: str) -> str:
    """A field's value as text ("" when missing); a repeated field counts by its last."""
    value = data.get(name, "")
    return value if isinstance(value, str) else ""


def many(data: Any, name: str) -> list[str]:
    values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
    if isinstance(values, str):
        values = [values]
    values = [v for v in values if isinstance(v, str) and v.strip()]
    if len(values) > MAX_ITEMS:
        raise FormError(name, _("too many entries: at most {max}").format(max=MAX_ITEMS))
    return values


def parse_card(pack: Pack, code: str, field_name: str, label: str) -> Card:
    """A card of ``pack`` from its code, or FormError naming the field by its label."""
    try:
        return pack.parse(code)
    except CardSyntaxError:
        raise FormError(field_name, _("{field}: {text} is not a card.").format(
            field=label, text=code[:40])) from None
    except CardNotInPack:
        raise FormError(field_name, _("{field}: {card} is not a card of this pack.").format(
            field=label, card=code[:40])) from None


def parse_cards(pack: Pack, data: Any, name: str, label: str) -> list[Card]:
    cards = [parse_card(pack, code, name, label) for code in many(data, name)]
    if len(set(cards)) != len(cards):
        raise FormError(name, _("{field}: a card is listed twice.").format(field=label))
    return cards


def gather_cards(pack: Pack, data: Any, name: str, label: str,
                 errors: list[FormError]) -> list[Card]:
    """parse_cards for a page that shows every error at once: a bad list is noted in
    ``errors`` and read as empty."""
    try:
        return parse_cards(pack, data, name, label)
    except FormError as e:
        errors.append(e)
        return []


def picked_card(pack: Pack, data: Any, errors: list[FormError]) -> Card | None:
    """The card just tapped in the picker (``pick``), if any; a bad one is noted."""
    if not one(data, "pick"):
        return None
    try:
        return parse_card(pack, one(data, "pick"), "pick", _("The card tapped"))
    except FormError as e:
        errors.append(e)
        return None


def seat_index(value: str, players: Sequence[str], field_name: str, label: str) -> int:
    """A seat's number (0 for the first) as a form sends it, or FormError."""
    if not value.isascii() or not value.isdigit() or not 0 <= int(value) < len(players):
        raise FormError(field_name, _("{field}: choose one of the players.").format(
            field=label))
    return int(value)


# --- what the page shows -----------------------------------------------------------------


def name_of(card: Card | str, pack: str) -> str:
    """A card by its name in the user's language ("Hearts Ober", "Herz Ober")."""
    return card_name(card.code if isinstance(card, Card) else card, pack)


def picker(pack: str, *, played: Sequence[Card] = (), chosen: Sequence[Card] = ()
           ) -> list[dict[str, object]]:
    """The pack as the card picker shows it, each card marked ``played`` (greyed out, not
    to be picked again) or ``chosen`` (in the slot being filled; a tap takes it out)."""
    gone = {c.code for c in played}
    picked = {c.code for c in chosen}
    suits = picker_suits(pack)
    for suit in suits:
        for card in suit["cards"]:  # type: ignore[attr-defined]
            card["played"] = card["code"] in gone
            card["chosen"] = card["code"] in picked
    return suits


def slots(items: Sequence[tuple[str, str, Sequence[Card]]], pack: str, target: str
          ) -> list[dict[str, Any]]:
    """The slots of a question (name, label, cards) as the template lists them, each card
    with its name and the ``drop`` value that takes it out again."""
    return [{"name": name, "label": label, "active": name == target,
             "cards": [{"code": c.code, "name": name_of(c, pack), "drop": f"{name}:{i}"}
                       for i, c in enumerate(cards)]}
            for name, label, cards in items]


def dropped(data: Any, lists: Mapping[str, list[Any]]) -> None:
    """Apply a ``drop`` button (``<slot>:<index>``): that entry leaves its list."""
    what, _sep, index = one(data, "drop").partition(":")
    if what in lists and index.isascii() and index.isdigit():
        i = int(index)
        if 0 <= i < len(lists[what]):
            del lists[what][i]


def pack_of(table: Table) -> Pack:
    return PACKS[table.pack]
