"""Input and output shapes of the referee API (README.md, "The referee API"; the OpenAPI
schema at /api/v1/schema/). Inputs are strict; outputs document."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.rules import MAX_SCORE
from referee.violations import RuleError
from scorepad.fields import (
    MAX_PLAYERS,
    CardField,
    CountsField,
    FrenchCardField,
    MulatschakRulesField,
    MullerMatzRulesField,
    NameField,
    PerPlayerField,
    Shape,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
    money_schema,
)
from scorepad.games.mulatschak import CallIn, DealIn
from scorepad.games.mura import COUNTS_OR_CARDS, MuraTrickIn, counts_or_cards
from scorepad.messages import input_error_message

#: Scores before a deal: anything a deal may leave (docs/rules.md, "Scores have a limit").
SCORE_LIMIT = MAX_SCORE


def _score() -> StrictIntegerField:
    return StrictIntegerField(min_value=-SCORE_LIMIT, max_value=SCORE_LIMIT)


class ScoresField(PerPlayerField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=_score(), **kwargs)


class RefereeDealIn(DealIn):
    """A deal for the referee: the session's deal, the exchange forms included
    (docs/rules.md, "Exchange")."""


class TableIn(Shape):
    rules = MulatschakRulesField()
    players = UniqueNamesField(min_length=1)
    dealer = NameField()
    scores_before = ScoresField(
        required=False,
        help_text="optional: everybody starts at start_score; if given, every seated player",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A ``scores_before`` that is given names every seated player: a player left out
        would otherwise start silently at ``start_score``."""
        scores = attrs.setdefault("scores_before", {})
        if "scores_before" in self.initial_data:
            missing = [p for p in attrs["players"] if p not in scores]
            if missing:
                error = RuleError("scores_before", f"names no score for {', '.join(missing)}",
                                  "scores_missing", players=", ".join(missing))
                raise serializers.ValidationError(
                    {"scores_before": [input_error_message(error)]})
        return attrs


class DealRequest(TableIn):
    collapses_before = StrictIntegerField(min_value=0, max_value=60, default=0)
    knocks_before = StrictIntegerField(
        min_value=0, max_value=60, default=0,
        help_text="the knocked deals among collapses_before (/rules/#knocks-and-collapses); "
        "0..collapses_before",
    )
    previous_stayed_home = UniqueNamesField(required=False, default=list)
    deal = RefereeDealIn()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs["knocks_before"] > attrs["collapses_before"]:
            error = RuleError("knocks_before", "must not exceed collapses_before",
                              "knocks_over_collapses", max=attrs["collapses_before"])
            raise serializers.ValidationError({"knocks_before": [input_error_message(error)]})
        return attrs


class AuctionRequest(TableIn):
    calls = serializers.ListField(child=CallIn(), max_length=60)


class PlayIn(Shape):
    player = NameField()
    card = CardField()
    hand = serializers.ListField(child=CardField(), required=False, allow_null=True,
                                 default=None, max_length=40)


class TrickRequest(Shape):
    rules = MulatschakRulesField()
    trump = StrictCharField(max_length=20)
    plays = serializers.ListField(child=PlayIn(), min_length=1, max_length=MAX_PLAYERS)


# --- outputs (documentation) -----------------------------------------------------


class ViolationOut(Shape):
    code = serializers.CharField()
    player = serializers.CharField(required=False)
    message = serializers.CharField()
    params = serializers.DictField(required=False)


class ViolationsOut(Shape):
    legal = serializers.BooleanField()
    violations = ViolationOut(many=True)


class ErrorOut(Shape):
    detail = serializers.CharField()
    errors = serializers.DictField(required=False)


class ExchangeTotalsOut(Shape):
    drawn = serializers.IntegerField(help_text="cards drawn from the talon by all exchanges")
    talon = serializers.IntegerField(help_text="pack size − 5 × active players")


class DealOut(Shape):
    legal = serializers.BooleanField()
    multiplier = serializers.IntegerField()
    factors = serializers.ListField(child=serializers.CharField())
    deltas = serializers.DictField(child=serializers.IntegerField())
    scores_after = serializers.DictField(child=serializers.IntegerField())
    reasons = serializers.DictField(child=serializers.CharField())
    declarer_made = serializers.BooleanField(allow_null=True)
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    collapses_after = serializers.IntegerField()
    knocks_after = serializers.IntegerField(
        help_text="knocks carried to the next deal (/rules/#knocks-and-collapses)")
    pending_multiplier = serializers.IntegerField()
    next_dealer = serializers.CharField()
    sitting_out = serializers.CharField(allow_null=True,
                                        help_text="who sits out (/rules/#sitting-out)")
    exchange_totals = ExchangeTotalsOut(required=False)


class AuctionOut(Shape):
    legal = serializers.BooleanField()
    declarer = serializers.CharField(allow_null=True)
    bid = serializers.IntegerField(allow_null=True)
    all_passed = serializers.BooleanField()
    sitting_out = serializers.CharField(allow_null=True)


class TrickOut(Shape):
    legal = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    winning_card = serializers.CharField(allow_null=True)


class TrickViolationsOut(ViolationsOut):
    winner = serializers.CharField(allow_null=True, required=False)
    winning_card = serializers.CharField(allow_null=True, required=False)


class PresetOut(Shape):
    game = serializers.CharField()
    name = serializers.CharField()
    title = serializers.CharField()
    params = serializers.DictField()


class RulesOut(Shape):
    presets = PresetOut(many=True)


# --- Mura and Müller Matz ---------------------------------------------------------


class MuraDealRequest(Shape):
    """Counts (``tricks`` and ``figures``) or, instead of both, ``trick_cards``."""

    schema_extra = COUNTS_OR_CARDS

    players = UniqueNamesField(min_length=1)
    dealer = NameField(
        required=False, help_text="optional: card by card, the next player leads trick 1"
    )
    tricks = CountsField(minimum=-99, required=False)
    figures = CountsField(minimum=-99, required=False)
    trick_cards = serializers.ListField(child=MuraTrickIn(), required=False, max_length=16)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return counts_or_cards(attrs)


class MuraResultOut(Shape):
    tricks = serializers.IntegerField()
    figures = serializers.IntegerField()
    mura = serializers.IntegerField()
    zero = serializers.BooleanField()


class MuraTrickOut(Shape):
    number = serializers.IntegerField()
    leader = serializers.CharField()
    winner = serializers.CharField(allow_null=True)
    winning_card = serializers.CharField(allow_null=True)
    figures = serializers.IntegerField()


class MuraDealOut(Shape):
    legal = serializers.BooleanField()
    results = serializers.DictField(child=MuraResultOut())
    tricks = MuraTrickOut(many=True, required=False)


_COUNT = {"type": "integer", "minimum": 0, "maximum": 10**9}


class PenaltyIn(Shape):
    mura = StrictIntegerField(min_value=0, max_value=_COUNT["maximum"])
    zeros = StrictIntegerField(min_value=0, max_value=_COUNT["maximum"])


@extend_schema_field({"type": "object", "minProperties": 1, "maxProperties": MAX_PLAYERS,
                      "additionalProperties": {"type": "object", "required": ["mura", "zeros"],
                                               "properties": {"mura": _COUNT, "zeros": _COUNT}}})
class PenaltiesField(PerPlayerField):
    """Each player's mura and zeros, by name: at least one player."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=PenaltyIn(), **kwargs)


class SettleRequest(Shape):
    schema_extra = money_schema()

    stake = StrictCharField(max_length=40, help_text="a decimal string like '0.50'")
    currency = StrictCharField(max_length=3, min_length=3, help_text="ISO 4217, e.g. EUR")
    penalties = PenaltiesField()

    def validate_penalties(self, value: dict[str, Any]) -> dict[str, Any]:
        if not value:
            raise serializers.ValidationError(_("must name at least one player"))
        return value


class TransferOut(Shape):
    # "from" is a Python keyword: declared through the fields mapping below.
    to = serializers.CharField()
    amount = serializers.CharField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = serializers.CharField()
        return fields


class SettleOut(Shape):
    currency = serializers.CharField()
    stake = serializers.CharField()
    balances = serializers.DictField(child=serializers.CharField())
    pairs = TransferOut(many=True)
    transfers = TransferOut(many=True)


class BeatRequest(Shape):
    trump = serializers.ChoiceField(["clubs", "diamonds", "hearts", "spades"])
    life = StrictIntegerField(min_value=1, max_value=2)
    attack = FrenchCardField()
    defense = FrenchCardField()


class BeatOut(Shape):
    legal = serializers.BooleanField()
    reason = serializers.CharField()
    reason_code = serializers.CharField()


# --- Müller Matz: a hand, a pile ---------------------------------------------------------

FRENCH_SUITS = ["clubs", "diamonds", "hearts", "spades"]
#: Two packs hold 104 cards.
MAX_CARDS = 104


class HandRequest(Shape):
    rules = MullerMatzRulesField(required=False)
    trump = serializers.ChoiceField(FRENCH_SUITS)
    hand = serializers.ListField(child=FrenchCardField(), max_length=MAX_CARDS)
    stock = StrictIntegerField(min_value=0, max_value=MAX_CARDS,
                               help_text="cards left in the stock, the turned-up card included")
    turned_up = FrenchCardField(required=False, allow_null=True, default=None)


class HandOut(Shape):
    draw = serializers.IntegerField()
    may_swap = serializers.BooleanField()
    swap_card = serializers.CharField(allow_null=True)
    may_sleep = serializers.BooleanField()
    sleep_cards = serializers.IntegerField()


class PileActionIn(Shape):
    """A card played, or ``"pick_up": true``: exactly one of them."""

    schema_extra = {"oneOf": [
        {"properties": {"card": {"type": "string"}}, "required": ["card"],
         "not": {"required": ["pick_up"]}},
        {"properties": {"pick_up": {"type": "boolean", "enum": [True]}},
         "required": ["pick_up"], "not": {"required": ["card"]}},
    ]}

    player = NameField()
    card = FrenchCardField(required=False, allow_null=True, default=None)
    pick_up = StrictBooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs["card"] is None) != attrs["pick_up"]:
            error = RuleError("play", 'give either a card or "pick_up": true', "card_or_pick_up")
            raise serializers.ValidationError(input_error_message(error))
        return attrs


class HandsField(serializers.DictField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.ListField(child=FrenchCardField(),
                                                     max_length=MAX_CARDS),
                         **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, list[str]]:
        if isinstance(data, dict) and len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(_("names too many players"))
        return dict(super().to_internal_value(data))


class PileRequest(Shape):
    rules = MullerMatzRulesField(required=False)
    trump = serializers.ChoiceField(FRENCH_SUITS)
    players = UniqueNamesField(min_length=2, help_text="those holding cards, in order of play")
    plays = serializers.ListField(child=PileActionIn(), max_length=MAX_CARDS)
    hands = HandsField(required=False, allow_null=True, default=None)


class PileOut(Shape):
    legal = serializers.BooleanField()
    pile = serializers.ListField(child=serializers.CharField())
    complete = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    next = serializers.CharField(allow_null=True)


class PileViolationsOut(ViolationsOut):
    pile = serializers.ListField(child=serializers.CharField())
    complete = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    next = serializers.CharField(allow_null=True)
