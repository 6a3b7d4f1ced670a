"""Mura's shapes: the deal (counts, or card by card) as the API and the services take
it, and the API's answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from ...errors import InputError
from ...fields import (
    AsStored,
    CardField,
    CountsField,
    NameField,
    PerPlayerField,
    Shape,
    utc_datetime,
)
from ...loaded import Names

if TYPE_CHECKING:
    from ...models import Deal


# --- the deal's shape (the API takes it as it is; the services check it with this) --------


class MuraTrickIn(Shape):
    leader = NameField()
    cards = PerPlayerField(child=CardField())


#: The schema of counts_or_cards.
COUNTS_OR_CARDS = {"oneOf": [
    {"required": ["tricks", "figures"], "not": {"required": ["trick_cards"]}},
    {"required": ["trick_cards"],
     "not": {"anyOf": [{"required": ["tricks"]}, {"required": ["figures"]}]}},
]}


def counts_or_cards(attrs: dict[str, Any]) -> dict[str, Any]:
    """Counts (``tricks`` and ``figures``) or, instead of both, ``trick_cards``."""
    counts = [name for name in ("tricks", "figures") if name in attrs]
    if "trick_cards" in attrs:
        if counts:
            raise serializers.ValidationError(
                {name: [gettext_lazy("give counts or trick_cards, not both")]
                 for name in counts})
    elif len(counts) != 2:
        missing = {"tricks", "figures"} - set(counts)
        raise serializers.ValidationError(
            {name: [gettext_lazy("is required (or give trick_cards instead)")]
             for name in missing})
    return attrs


class MuraSessionDealIn(Shape):
    """A Mura deal: tricks and figures per player, or instead ``trick_cards``."""

    schema_extra = COUNTS_OR_CARDS

    tricks = CountsField(minimum=-99, required=False)
    figures = CountsField(minimum=-99, required=False)
    trick_cards = serializers.ListField(child=MuraTrickIn(), required=False, max_length=16)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return counts_or_cards(attrs)


def parse_deal(data: object) -> dict[str, Any]:
    """The deal's fields, checked (InputError naming each bad field), names as given."""
    checked = MuraSessionDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {k: v for k, v in checked.validated_data.items()
            if k in ("tricks", "figures", "trick_cards")}




# --- the API's output ----------------------------------------------------------------------


class MuraScoreboardOut(Shape):
    mura = serializers.DictField(child=serializers.IntegerField())
    zeros = serializers.DictField(child=serializers.IntegerField())
    zeros_to_next_mura = serializers.DictField(child=serializers.IntegerField())
    next_dealer = serializers.CharField()
    deals = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(),
                                     help_text='every player, "0.00" without a stake')


class MuraPlayerResultOut(Shape):
    tricks = serializers.IntegerField()
    figures = serializers.IntegerField()
    mura = serializers.IntegerField()
    zero = serializers.BooleanField()


class MuraDealResultOut(Shape):
    dealer = serializers.CharField()
    results = serializers.DictField(child=MuraPlayerResultOut())
    mura_after = serializers.DictField(child=serializers.IntegerField())
    zeros_after = serializers.DictField(child=serializers.IntegerField())


class MuraStoredTrickOut(Shape):
    leader = serializers.CharField()
    cards = serializers.DictField(child=serializers.CharField())


class MuraStoredDealOut(AsStored):
    tricks = serializers.DictField(child=serializers.IntegerField(), required=False)
    figures = serializers.DictField(child=serializers.IntegerField(), required=False)
    trick_cards = MuraStoredTrickOut(many=True, required=False)
    first_lead_checked = serializers.BooleanField(
        required=False, help_text="card by card: the first lead was checked against the "
        "dealer (/rules/#first-lead); deals recorded before carry no such mark")


class MuraSessionDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField(help_text="counts or cards")
    deal = MuraStoredDealOut()
    result = MuraDealResultOut()
    created_at = utc_datetime()
    updated_at = utc_datetime()


class MuraPenaltyOut(Shape):
    mura = serializers.IntegerField()
    zeros = serializers.IntegerField()


class MuraSettlementOut(Shape):
    penalties = serializers.DictField(child=MuraPenaltyOut(), required=False,
                                      help_text="with a stake")
    zeros_per_mura = serializers.IntegerField(required=False, help_text="with a stake")


class MuraStatsOut(Shape):
    sessions = serializers.IntegerField()
    deals = serializers.IntegerField()
    mura = serializers.IntegerField()
    zeros = serializers.IntegerField()
    mura_per_deal = serializers.FloatField(allow_null=True)
    zeros_per_deal = serializers.FloatField(allow_null=True)


#: The API's shapes of a Mura session (games.Game).
DEAL_IN, BOARD_OUT, DEAL_OUT = MuraSessionDealIn, MuraScoreboardOut, MuraSessionDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = MuraSettlementOut, MuraStatsOut


def deal_out(row: Deal, names: Names) -> dict[str, Any]:
    return {"number": row.number, "version": row.version, "kind": row.kind,
            "deal": names.deal_names(row.data), "result": names.deal_names(row.result),
            "created_at": row.created_at, "updated_at": row.updated_at}
