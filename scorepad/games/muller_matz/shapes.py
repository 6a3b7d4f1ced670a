"""Müller Matz's shapes: the deal as the API and the services take it, its rules as the
referee API takes them, and the API's answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.muller_matz import OVERRIDES_SCHEMA as MULLER_MATZ_OVERRIDES
from referee.muller_matz import muller_matz_rules
from referee.violations import RuleError

from ...errors import InputError
from ...fields import (
    AsStored,
    NameField,
    RuleSetField,
    Shape,
    raise_rule_error,
    rules_schema,
    utc_datetime,
)
from ...loaded import Names
from ...messages import input_error_message

if TYPE_CHECKING:
    from ...models import Deal

#: Any preset name: Müller Matz has one rule set, its overrides are what counts.
RULES_SCHEMA = rules_schema({"type": "string"}, MULLER_MATZ_OVERRIDES)


# --- the game's shape (the API takes it as it is; the services check it with this) --------


class MatzSessionDealIn(Shape):
    """A Müller Matz game: the whole finishing order, or only the loser."""

    schema_extra = {"oneOf": [
        {"required": ["finish_order"], "not": {"required": ["loser"]}},
        {"required": ["loser"], "not": {"required": ["finish_order"]}},
    ]}

    finish_order = serializers.ListField(child=NameField(), required=False, max_length=12)
    loser = NameField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("finish_order" in attrs) == ("loser" in attrs):
            raise serializers.ValidationError(
                {"loser": [gettext_lazy("give the finishing order or the loser, one of them")]}
            )
        return attrs


def parse_deal(data: object) -> dict[str, Any]:
    """The game's fields, checked (InputError naming each bad field), names as given."""
    checked = MatzSessionDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {k: v for k, v in checked.validated_data.items() if k in ("finish_order", "loser")}




# --- the API's output ----------------------------------------------------------------------


class MatzScoreboardOut(Shape):
    losses = serializers.DictField(child=serializers.IntegerField())
    games_played = serializers.IntegerField()
    packs = serializers.IntegerField(help_text="packs of cards needed at this table")
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(),
                                     help_text='every player, "0.00" without a stake')


class MatzStoredDealOut(AsStored):
    finish_order = serializers.ListField(child=serializers.CharField(), required=False)
    loser = serializers.CharField(required=False)


class MatzGameResultOut(Shape):
    loser = serializers.CharField()
    order = serializers.ListField(child=serializers.CharField())
    game_number = serializers.IntegerField()
    losses_after = serializers.DictField(child=serializers.IntegerField())


class MatzSessionDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField(help_text="order or loser")
    deal = MatzStoredDealOut()
    result = MatzGameResultOut()
    created_at = utc_datetime()
    updated_at = utc_datetime()


class MatzSettlementOut(Shape):
    """Nothing beyond the balances, pairs and transfers."""


class MatzStatsOut(Shape):
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    mm_losses = serializers.IntegerField()
    loss_rate = serializers.FloatField(allow_null=True)


#: The API's shapes of a Müller Matz session (games.Game).
DEAL_IN, BOARD_OUT, DEAL_OUT = MatzSessionDealIn, MatzScoreboardOut, MatzSessionDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = MatzSettlementOut, MatzStatsOut


def deal_out(row: Deal, names: Names) -> dict[str, Any]:
    return {"number": row.number, "version": row.version, "kind": row.kind,
            "deal": names.deal_names(row.data), "result": names.deal_names(row.result),
            "created_at": row.created_at, "updated_at": row.updated_at}


MULLER_MATZ = "muller_matz"
MULLER_MATZ_RULES_SCHEMA = {
    **rules_schema({"type": "string", "enum": [MULLER_MATZ]}, MULLER_MATZ_OVERRIDES),
    "description": '"muller_matz", or {"preset": "muller_matz", "overrides": {parameter: value}}.',
}


@extend_schema_field(MULLER_MATZ_RULES_SCHEMA)
class MullerMatzRulesField(RuleSetField):
    """``"muller_matz"`` or ``{"preset": "muller_matz", "overrides": {...}}`` →
    MullerMatzRules (the default rules when the field is left out)."""

    def to_internal_value(self, data: Any) -> Any:
        preset, overrides = self.shape(data)
        if preset != MULLER_MATZ:
            error = RuleError("preset", f"must be {MULLER_MATZ}", "not_choice",
                              choices=MULLER_MATZ)
            if isinstance(data, str):
                raise serializers.ValidationError(input_error_message(error))
            raise_rule_error(error)
        try:
            return muller_matz_rules(overrides)
        except RuleError as e:
            raise_rule_error(e)

    def to_representation(self, value: Any) -> Any:
        return MULLER_MATZ
