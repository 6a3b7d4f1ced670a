"""Exchange forms and the talon (docs/rules.md, "Exchange"), counted.

The referee knows counts, not cards: every exchange has a ``form`` from which two counts
follow, ``drawn`` (cards that leave the talon for this player, refused face-up cards
included) and ``taken`` (cards that enter the hand). The talon is dealt in a fixed order
(docs/rules.md, "The talon and its order"): a delayed trump's bridge first, then every
exchange that is not a bridge (the declarer first, then clockwise from the declarer), then
the bridges, clockwise from the declarer. An exchange *exhausts* the talon when the running
sum of ``drawn`` in this order reaches the talon's size during that exchange.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .violations import RuleError


class Form(StrEnum):
    PLAIN = "plain"
    ON_SIGHT = "on_sight"
    ACE_FIVE = "ace_five"
    SEVEN_SIX = "seven_six"
    BRIDGE = "bridge"


#: The record fields of each form besides ``form`` (docs/rules.md, "Recording exchanges").
FORM_FIELDS: Mapping[Form, tuple[str, ...]] = MappingProxyType(
    {
        Form.PLAIN: ("cards", "face_up", "face_up_kept"),
        Form.ON_SIGHT: ("refused",),
        Form.ACE_FIVE: (),
        Form.SEVEN_SIX: (),
        Form.BRIDGE: ("face_up",),
    }
)
#: The fields of ``FORM_FIELDS`` a form's record cannot do without.
FORM_REQUIRED: Mapping[Form, tuple[str, ...]] = MappingProxyType(
    {form: ("cards",) if form is Form.PLAIN else () for form in Form}
)

#: The cards an ``ace_five`` player receives (1 + 5 − 1 kept; docs/rules.md, "Five on the ace").
ACE_FIVE_CARDS = 5
#: The cards a ``seven_six`` player receives (six on the seven).
SEVEN_SIX_CARDS = 6
#: The face-down cards of a bridge: the whole hand.
BRIDGE_CARDS = 5


@dataclass(frozen=True)
class Exchange:
    """One player's exchange as recorded.

    ``cards`` is the plain exchange's face-down count; ``face_up`` the face-up cards of a
    bridge (default 1) or of the declarer's chain on sight after a plain exchange (default
    0); ``face_up_kept`` how many of the chain's face-up cards the declarer kept (None:
    all of them); ``refused`` whether an ``on_sight`` card was refused.
    """

    form: Form
    cards: int = 0
    face_up: int = 0
    face_up_kept: int | None = None
    refused: bool = False

    @classmethod
    def plain(cls, cards: int, face_up: int = 0, face_up_kept: int | None = None) -> Exchange:
        return cls(Form.PLAIN, cards=cards, face_up=face_up, face_up_kept=face_up_kept)

    @classmethod
    def on_sight(cls, refused: bool = False) -> Exchange:
        return cls(Form.ON_SIGHT, refused=refused)

    @classmethod
    def ace_five(cls) -> Exchange:
        return cls(Form.ACE_FIVE)

    @classmethod
    def seven_six(cls) -> Exchange:
        return cls(Form.SEVEN_SIX)

    @classmethod
    def bridge(cls, face_up: int = 1) -> Exchange:
        return cls(Form.BRIDGE, face_up=face_up)

    @property
    def kept(self) -> int:
        """The face-up cards of a plain exchange's chain that went into the hand."""
        return self.face_up if self.face_up_kept is None else self.face_up_kept

    @property
    def drawn(self) -> int:
        """Cards that leave the talon for this exchange (refused cards included)."""
        if self.form is Form.PLAIN:
            return self.cards + self.face_up
        if self.form is Form.ON_SIGHT:
            return 2 if self.refused else 1
        if self.form is Form.ACE_FIVE:
            return ACE_FIVE_CARDS
        if self.form is Form.SEVEN_SIX:
            return SEVEN_SIX_CARDS
        return BRIDGE_CARDS + self.face_up

    @property
    def taken(self) -> int:
        """Cards that enter the hand (the chain's kept cards included)."""
        if self.form is Form.PLAIN:
            return self.cards + self.kept
        if self.form is Form.ON_SIGHT:
            return 1
        return self.drawn

    @property
    def is_exchange(self) -> bool:
        """An entry is an exchange when it draws a card (docs/rules.md, "Drawn and taken"): a
        plain 0 is none."""
        return self.drawn > 0

    @property
    def has_chain(self) -> bool:
        """A plain exchange that records cards on sight (the declarer's chain; docs/rules.md,
        "Declarer chain on sight")."""
        return self.form is Form.PLAIN and (self.face_up > 0 or (self.face_up_kept or 0) > 0)


def _count(field: str, value: object, maximum: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, "must be a whole number", "not_int")
    if value < 0:
        raise RuleError(field, "must be at least 0", "too_small", min=0)
    if maximum is not None and value > maximum:
        raise RuleError(field, f"must be at most {maximum}", "too_large", max=maximum)
    return value


def exchange_from_dict(
    data: object, field: str = "exchange", *, maximum: int | None = None
) -> Exchange:
    """An exchange from its JSON object (docs/rules.md, "Recording exchanges"), or RuleError
    naming ``<field>.<part>``.

    An unknown or missing ``form``, a missing ``cards`` (plain), a field that does not
    belong to the form, a wrong type or a negative count is an error; so is a count above
    ``maximum`` when one is given.
    """
    if not isinstance(data, Mapping):
        raise RuleError(field, "must be an object with a form", "not_object")
    if "form" not in data:
        raise RuleError(f"{field}.form", "is required", "missing")
    raw = data["form"]
    choices = ", ".join(Form)
    if not isinstance(raw, str) or raw not in set(Form):
        raise RuleError(f"{field}.form", f"must be one of {choices}", "not_choice",
                        choices=choices)
    form = Form(raw)
    allowed = FORM_FIELDS[form]
    for key in sorted(str(k) for k in data):
        if key != "form" and key not in allowed:
            raise RuleError(f"{field}.{key}", f"is not a field of a {form} exchange",
                            "not_form_field", form=str(form))
    for key in FORM_REQUIRED[form]:
        if key not in data:
            raise RuleError(f"{field}.{key}", "is required", "missing")
    if form is Form.PLAIN:
        kept = data.get("face_up_kept")
        return Exchange.plain(
            _count(f"{field}.cards", data["cards"], maximum),
            _count(f"{field}.face_up", data.get("face_up", 0), maximum),
            None if "face_up_kept" not in data
            else _count(f"{field}.face_up_kept", kept, maximum),
        )
    if form is Form.ON_SIGHT:
        refused = data.get("refused", False)
        if not isinstance(refused, bool):
            raise RuleError(f"{field}.refused", "must be true or false", "not_bool")
        return Exchange.on_sight(refused)
    if form is Form.BRIDGE:
        return Exchange.bridge(_count(f"{field}.face_up", data.get("face_up", 1), maximum))
    return Exchange(form)


def exchange_to_dict(exchange: Exchange) -> dict[str, object]:
    """The JSON object of an exchange: its form and the fields of that form."""
    out: dict[str, object] = {"form": str(exchange.form)}
    if exchange.form is Form.PLAIN:
        out["cards"] = exchange.cards
        if exchange.face_up or exchange.face_up_kept is not None:
            out["face_up"] = exchange.face_up
        if exchange.face_up_kept is not None:
            out["face_up_kept"] = exchange.face_up_kept
    elif exchange.form is Form.ON_SIGHT:
        out["refused"] = exchange.refused
    elif exchange.form is Form.BRIDGE:
        out["face_up"] = exchange.face_up
    return out


# --- a deal's exchanges and the talon ---------------------------------------------


class Source(StrEnum):
    """Which map of the record an entry comes from."""

    EXCHANGED = "exchanged"  # the old map of plain counts
    EXCHANGES = "exchanges"  # the map of forms


@dataclass(frozen=True)
class Entry:
    """One recorded exchange of one player."""

    player: str
    exchange: Exchange
    source: Source


def recorded_entries(
    players: Sequence[str],
    exchanged: Mapping[str, int] | None,
    exchanges: Mapping[str, Exchange] | None,
) -> tuple[Entry, ...]:
    """Every entry of both maps: seated players in seat order (``exchanged`` before
    ``exchanges`` for one player), then names that are not seated, as recorded."""
    entries = [Entry(p, Exchange.plain(n), Source.EXCHANGED) for p, n in (exchanged or {}).items()]
    entries += [Entry(p, x, Source.EXCHANGES) for p, x in (exchanges or {}).items()]
    seat = {p: i for i, p in enumerate(players)}
    return tuple(
        sorted(entries, key=lambda e: (seat.get(e.player, len(seat)),
                                       0 if e.player in seat else 1))
    )


@dataclass(frozen=True)
class Dealt:
    """An entry with the talon before and after it, in the order the talon is dealt."""

    entry: Entry
    before: int
    after: int

    def exhausts(self, talon: int) -> bool:
        """The running sum reaches the talon's size during this exchange."""
        return self.before < talon <= self.after

    def runs_out(self, talon: int) -> bool:
        """The talon is used up by the end of this exchange (during it or before)."""
        return self.after >= talon


def talon_order(
    players: Sequence[str], declarer: str | None, entries: Sequence[Entry], *,
    delayed: bool = False,
) -> tuple[Dealt, ...]:
    """The entries in the order the talon is dealt (docs/rules.md,
    "The talon and its order"), with running sums.

    1. the declarer's bridge under a delayed trump; 2. every exchange that is not a bridge,
    the declarer first, then clockwise from the declarer; 3. the bridges, clockwise from
    the declarer. Names that are not seated come after the seated ones, by name. The
    order does not depend on the order of the record.
    """
    n = len(players)
    start = players.index(declarer) if declarer in players else 0

    def clockwise(e: Entry) -> tuple[int, str, int]:
        if e.player in players:
            offset = (players.index(e.player) - start) % n
            return offset, "", 0 if e.source is Source.EXCHANGED else 1
        return n, e.player, 0 if e.source is Source.EXCHANGED else 1

    def first(e: Entry) -> bool:
        return delayed and e.player == declarer and e.exchange.form is Form.BRIDGE

    ordered = sorted((e for e in entries if first(e)), key=clockwise)
    ordered += sorted(
        (e for e in entries if not first(e) and e.exchange.form is not Form.BRIDGE),
        key=clockwise,
    )
    ordered += sorted(
        (e for e in entries if not first(e) and e.exchange.form is Form.BRIDGE), key=clockwise
    )
    out: list[Dealt] = []
    running = 0
    for e in ordered:
        out.append(Dealt(e, running, running + e.exchange.drawn))
        running += e.exchange.drawn
    return tuple(out)


@dataclass(frozen=True)
class ExchangeTotals:
    """The cards drawn by all exchanges of a deal, and the talon they came from."""

    drawn: int
    talon: int

    def as_dict(self) -> dict[str, int]:
        return {"drawn": self.drawn, "talon": self.talon}
