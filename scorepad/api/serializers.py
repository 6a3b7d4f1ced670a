"""Input and output shapes of the referee API (API.md). Inputs are strict; outputs document."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from scorepad.fields import (
    MAX_PLAYERS,
    CardField,
    CountsField,
    MulatschakRulesField,
    NameField,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
)
from scorepad.games.mulatschak import CallIn, DealIn
from scorepad.games.mura import MuraTrickIn, counts_or_cards

SCORE_LIMIT = 1_000_000


def _score() -> StrictIntegerField:
    return StrictIntegerField(min_value=-SCORE_LIMIT, max_value=SCORE_LIMIT)


class ScoresField(serializers.DictField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=_score(), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, int]:
        if isinstance(data, dict) and len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(_("names too many players"))
        if isinstance(data, dict):
            for key in data:
                NameField().run_validation(key)
        return dict(super().to_internal_value(data))


class TableIn(serializers.Serializer):  # type: ignore[type-arg]
    rules = MulatschakRulesField()
    players = UniqueNamesField(min_length=1)
    dealer = NameField()
    scores_before = ScoresField(required=False, default=dict)


class DealRequest(TableIn):
    collapses_before = StrictIntegerField(min_value=0, max_value=60, default=0)
    previous_stayed_home = UniqueNamesField(required=False, default=list)
    deal = DealIn()


class AuctionRequest(TableIn):
    calls = serializers.ListField(child=CallIn(), max_length=60)


class PlayIn(serializers.Serializer):  # type: ignore[type-arg]
    player = NameField()
    card = CardField()
    hand = serializers.ListField(child=CardField(), required=False, allow_null=True,
                                 default=None, max_length=40)


class TrickRequest(serializers.Serializer):  # type: ignore[type-arg]
    rules = MulatschakRulesField()
    trump = StrictCharField(max_length=20)
    plays = serializers.ListField(child=PlayIn(), min_length=1, max_length=MAX_PLAYERS)


# --- outputs (documentation) -----------------------------------------------------


class ViolationOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    player = serializers.CharField(required=False)
    message = serializers.CharField()
    params = serializers.DictField(required=False)


class ViolationsOut(serializers.Serializer):  # type: ignore[type-arg]
    legal = serializers.BooleanField()
    violations = ViolationOut(many=True)


class ErrorOut(serializers.Serializer):  # type: ignore[type-arg]
    detail = serializers.CharField()
    errors = serializers.DictField(required=False)


class DealOut(serializers.Serializer):  # type: ignore[type-arg]
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
    pending_multiplier = serializers.IntegerField()
    next_dealer = serializers.CharField()


class AuctionOut(serializers.Serializer):  # type: ignore[type-arg]
    legal = serializers.BooleanField()
    declarer = serializers.CharField(allow_null=True)
    bid = serializers.IntegerField(allow_null=True)
    all_passed = serializers.BooleanField()


class TrickOut(serializers.Serializer):  # type: ignore[type-arg]
    legal = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    winning_card = serializers.CharField(allow_null=True)


class TrickViolationsOut(ViolationsOut):
    winner = serializers.CharField(allow_null=True, required=False)
    winning_card = serializers.CharField(allow_null=True, required=False)


class PresetOut(serializers.Serializer):  # type: ignore[type-arg]
    game = serializers.CharField()
    name = serializers.CharField()
    title = serializers.CharField()
    params = serializers.DictField()


class RulesOut(serializers.Serializer):  # type: ignore[type-arg]
    presets = PresetOut(many=True)


# --- Mura and Müller Matz ---------------------------------------------------------


class MuraDealRequest(serializers.Serializer):  # type: ignore[type-arg]
    """Counts (``tricks`` and ``figures``) or, instead of both, ``trick_cards``."""

    players = UniqueNamesField(min_length=1)
    tricks = CountsField(minimum=-99, required=False)
    figures = CountsField(minimum=-99, required=False)
    trick_cards = serializers.ListField(child=MuraTrickIn(), required=False, max_length=16)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return counts_or_cards(attrs)


class MuraResultOut(serializers.Serializer):  # type: ignore[type-arg]
    tricks = serializers.IntegerField()
    figures = serializers.IntegerField()
    mura = serializers.IntegerField()
    zero = serializers.BooleanField()


class MuraTrickOut(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    leader = serializers.CharField()
    winner = serializers.CharField(allow_null=True)
    winning_card = serializers.CharField(allow_null=True)
    figures = serializers.IntegerField()


class MuraDealOut(serializers.Serializer):  # type: ignore[type-arg]
    legal = serializers.BooleanField()
    results = serializers.DictField(child=MuraResultOut())
    tricks = MuraTrickOut(many=True, required=False)


class PenaltyIn(serializers.Serializer):  # type: ignore[type-arg]
    mura = StrictIntegerField(min_value=0, max_value=10**9)
    zeros = StrictIntegerField(min_value=0, max_value=10**9)


class SettleRequest(serializers.Serializer):  # type: ignore[type-arg]
    stake = StrictCharField(max_length=40, help_text="a decimal string like '0.50'")
    currency = StrictCharField(max_length=3, min_length=3, help_text="ISO 4217, e.g. EUR")
    penalties = serializers.DictField(child=PenaltyIn())

    def validate_penalties(self, value: dict[str, Any]) -> dict[str, Any]:
        if not value:
            raise serializers.ValidationError(_("must name at least one player"))
        if len(value) > MAX_PLAYERS:
            raise serializers.ValidationError(_("names too many players"))
        for name in value:
            NameField().run_validation(name)
        return value


class TransferOut(serializers.Serializer):  # type: ignore[type-arg]
    # "from" is a Python keyword: declared through the fields mapping below.
    to = serializers.CharField()
    amount = serializers.CharField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = serializers.CharField()
        return fields


class SettleOut(serializers.Serializer):  # type: ignore[type-arg]
    currency = serializers.CharField()
    stake = serializers.CharField()
    balances = serializers.DictField(child=serializers.CharField())
    pairs = TransferOut(many=True)
    transfers = TransferOut(many=True)


class BeatRequest(serializers.Serializer):  # type: ignore[type-arg]
    trump = serializers.ChoiceField(["clubs", "diamonds", "hearts", "spades"])
    life = StrictIntegerField(min_value=1, max_value=2)
    attack = CardField()
    defense = CardField()


class BeatOut(serializers.Serializer):  # type: ignore[type-arg]
    legal = serializers.BooleanField()
    reason = serializers.CharField()
    reason_code = serializers.CharField()
