"""Mulatschak's shapes: the deal (the referee API's deal object) as the API and the
services take it, its rules as the API takes them (a preset's name, or a preset with
overrides), and the API's answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.exchange import FORM_FIELDS, FORM_REQUIRED, Form, exchange_from_dict, exchange_to_dict
from referee.rules import OVERRIDES_SCHEMA as MULATSCHAK_OVERRIDES
from referee.rules import PRESETS, mulatschak_rules
from referee.violations import RuleError

from ...errors import InputError
from ...fields import (
    MAX_PLAYERS,
    AsStored,
    CallField,
    CountsField,
    NameField,
    RuleSetField,
    Shape,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
    raise_rule_error,
    rules_schema,
    utc_datetime,
)
from ...loaded import Names
from ...messages import input_error_message

if TYPE_CHECKING:
    from ...models import Deal

MULATSCHAK_RULES_SCHEMA = rules_schema({"type": "string", "enum": list(PRESETS)},
                                       MULATSCHAK_OVERRIDES)


@extend_schema_field(MULATSCHAK_RULES_SCHEMA)
class MulatschakRulesField(RuleSetField):
    """``"salzburg"`` or ``{"preset": "salzburg", "overrides": {...}}`` → MulatschakRules."""

    def to_internal_value(self, data: Any) -> Any:
        preset, overrides = self.shape(data)
        try:
            return mulatschak_rules(preset, overrides)
        except RuleError as e:
            if isinstance(data, str):
                raise serializers.ValidationError(input_error_message(e)) from e
            raise_rule_error(e)

    def to_representation(self, value: Any) -> Any:
        return value.name


#: The schema of a session's rules (games.Game).
RULES_SCHEMA = MULATSCHAK_RULES_SCHEMA


# --- the deal's shape (the referee API's deal object; the services check it with this) ------


class CallIn(Shape):
    player = NameField()
    call = CallField()


#: The largest count an exchange entry may carry (a talon has at most 26 cards).
MAX_EXCHANGE_COUNT = 99

_COUNT_SCHEMA = {"type": "integer", "minimum": 0, "maximum": MAX_EXCHANGE_COUNT}
#: One player's exchange: a shape per form, with that form's fields alone (the referee's
#: FORM_FIELDS and FORM_REQUIRED), so that the schema allows what exchange_from_dict takes.
_EXCHANGE_SCHEMA = {
    "description": (
        "One player's exchange by form (/rules/#exchange): plain (cards; face_up, face_up_kept for "
        "the declarer's chain on sight), on_sight (refused), ace_five, seven_six, bridge "
        "(face_up, default 1)."
    ),
    "oneOf": [
        {"type": "object",
         "properties": {"form": {"type": "string", "enum": [str(form)]},
                        **{name: {"type": "boolean"} if name == "refused" else _COUNT_SCHEMA
                           for name in FORM_FIELDS[form]}},
         "required": ["form", *FORM_REQUIRED[form]],
         "additionalProperties": False}
        for form in Form
    ],
}


@extend_schema_field(
    {"type": "object", "additionalProperties": _EXCHANGE_SCHEMA, "nullable": True,
     "maxProperties": MAX_PLAYERS}
)
class ExchangesField(serializers.Field):  # type: ignore[type-arg]
    """``{"Anna": {"form": "on_sight", "refused": true}, ...}`` → referee Exchanges.

    A malformed entry answers 400 naming its field (``deal.exchanges.Anna.form``)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(gettext_lazy("must be an object"))
        if len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(gettext_lazy("names too many players"))
        out: dict[str, Any] = {}
        for name, entry in data.items():
            try:
                NameField().run_validation(name)
            except serializers.ValidationError as e:
                raise serializers.ValidationError({name: e.detail}) from e
            try:
                out[name] = exchange_from_dict(entry, "entry", maximum=MAX_EXCHANGE_COUNT)
            except RuleError as e:
                detail: Any = [input_error_message(e)]
                for part in reversed(e.field.split(".")[1:]):
                    detail = {part: detail}
                raise serializers.ValidationError({name: detail}) from e
        return out

    def to_representation(self, value: Any) -> Any:
        return {name: exchange_to_dict(x) for name, x in value.items()}


#: What a deal that was not played leaves out (DealIn.validate).
NOT_PLAYED_NONE = ("declarer", "bid", "trump", "muli_breaker", "stayed_home", "tricks",
                   "exchanged", "exchanges", "trump_delayed")


class DealIn(Shape):
    schema_extra = {"oneOf": [
        {"properties": {"kind": {"type": "string", "pattern": "^played$"},
                        "declarer": {"type": "string"}, "bid": {"type": "integer"},
                        "trump": {"type": "string"}},
         "required": ["declarer", "bid", "trump"]},
        {"properties": {"kind": {"type": "string", "pattern": "^(collapsed|passed)$"}},
         "required": ["kind"],
         "not": {"anyOf": [{"required": [name]} for name in NOT_PLAYED_NONE]}},
    ]}

    kind = serializers.ChoiceField(["played", "collapsed", "passed"], default="played")
    knocked = StrictBooleanField(default=False)
    declarer = NameField(required=False, allow_null=True)
    bid = StrictIntegerField(required=False, allow_null=True, min_value=-99, max_value=99)
    trump = StrictCharField(required=False, allow_null=True, max_length=20)
    stayed_home = UniqueNamesField(required=False, default=list)
    tricks = CountsField(minimum=-99, required=False, default=dict)
    exchanged = CountsField(minimum=0, required=False, allow_null=True, default=None)
    muli_breaker = NameField(required=False, allow_null=True, default=None)
    auction = serializers.ListField(
        child=CallIn(), required=False, allow_null=True, default=None, max_length=60
    )
    exchanges = ExchangesField(required=False, allow_null=True, default=None)
    trump_delayed = StrictBooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == "played":
            missing = {
                name: [gettext_lazy("is required for a played deal")]
                for name in ("declarer", "bid", "trump")
                if attrs.get(name) is None
            }
            if missing:
                raise serializers.ValidationError(missing)
        else:
            extra = {
                name: [gettext_lazy("a deal that was not played has none")]
                for name in NOT_PLAYED_NONE
                if attrs.get(name)
            }
            if extra:
                raise serializers.ValidationError(extra)
        return attrs


class SessionDealIn(DealIn):
    """A deal of a session: as the referee's, without the bidding (not kept)."""

    schema_extra = {**DealIn.schema_extra, "not": {"required": ["auction"]}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs.get("auction"):
            raise serializers.ValidationError(
                {"auction": [gettext_lazy("is not kept by the scorepad; check it with the "
                                          "referee.")]}
            )
        return attrs


DEAL_KEYS = ("kind", "knocked", "declarer", "bid", "trump", "stayed_home", "tricks",
             "exchanged", "muli_breaker", "exchanges", "trump_delayed")


def parse_deal(data: object) -> dict[str, Any]:
    """The deal's fields, checked (InputError naming each bad field), names as given."""
    checked = SessionDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {k: v for k, v in checked.validated_data.items() if k in DEAL_KEYS}


# --- the API's output ----------------------------------------------------------------------


class MulatschakGameOut(Shape):
    number = serializers.IntegerField()
    final_scores = serializers.DictField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.CharField())


class MulatschakScoreboardOut(Shape):
    game_number = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField())
    next_dealer = serializers.CharField()
    next_sitting_out = serializers.CharField(
        allow_null=True, help_text="who sits out the next deal (sit_out_at, /rules/#sitting-out)")
    pending_multiplier = serializers.IntegerField(
        help_text="hearts aside: collapses and knocks carried over (/rules/#knocks-and-collapses)")
    pending_factors = serializers.ListField(child=serializers.CharField())
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    games = MulatschakGameOut(
        many=True, help_text="the finished games of one page (?games_page=, default 1: "
        "the most recent), oldest first")
    games_total = serializers.IntegerField(required=False,
                                           help_text="finished games in all pages")
    games_page = serializers.IntegerField(required=False, help_text="the page shown")
    games_pages = serializers.IntegerField(required=False, help_text="pages of games")
    deals = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(), required=False,
                                     help_text="with a stake only")


class ExchangeOut(AsStored):
    form = serializers.ChoiceField([str(f) for f in Form])
    cards = serializers.IntegerField(required=False)
    face_up = serializers.IntegerField(required=False)
    face_up_kept = serializers.IntegerField(required=False, allow_null=True)
    refused = serializers.BooleanField(required=False)


class MulatschakStoredDealOut(AsStored):
    kind = serializers.CharField()
    knocked = serializers.BooleanField()
    declarer = serializers.CharField(required=False)
    bid = serializers.IntegerField(required=False)
    trump = serializers.CharField(required=False)
    stayed_home = serializers.ListField(child=serializers.CharField(), required=False)
    tricks = serializers.DictField(child=serializers.IntegerField(), required=False)
    exchanged = serializers.DictField(child=serializers.IntegerField(), required=False,
                                      allow_null=True)
    muli_breaker = serializers.CharField(required=False, allow_null=True)
    exchanges = serializers.DictField(child=ExchangeOut(), required=False, allow_null=True,
                                      help_text="by form (/rules/#exchange); only where recorded")
    trump_delayed = serializers.BooleanField(required=False, help_text="only when true")


class MulatschakSessionDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField()
    deal = MulatschakStoredDealOut()
    dealer = serializers.CharField()
    game_number = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    factors = serializers.ListField(child=serializers.CharField())
    deltas = serializers.DictField(child=serializers.IntegerField())
    scores_after = serializers.DictField(child=serializers.IntegerField())
    reasons = serializers.DictField(child=serializers.CharField())
    declarer_made = serializers.BooleanField(allow_null=True)
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    sitting_out = serializers.CharField(
        allow_null=True, help_text="who sat this deal out (/rules/#sitting-out), or null")
    created_at = utc_datetime()
    updated_at = utc_datetime()


class MulatschakSettlementOut(Shape):
    games = serializers.IntegerField(required=False, help_text="games finished (with a stake)")


class BidStatsOut(Shape):
    declared = serializers.IntegerField()
    made = serializers.IntegerField()
    fallen = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True)


class MulatschakStatsOut(Shape):
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    deals_seated = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    deals_declared = serializers.IntegerField()
    deals_made = serializers.IntegerField()
    deals_fallen = serializers.IntegerField()
    made_rate = serializers.FloatField(allow_null=True)
    by_bid = serializers.DictField(child=BidStatsOut())
    muli_tried = serializers.IntegerField()
    muli_made = serializers.IntegerField()
    stayed_home = serializers.IntegerField()
    hearts_deals = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_deal = serializers.FloatField(allow_null=True)
    biggest_multiplier_survived = serializers.IntegerField(allow_null=True)
    biggest_multiplier_played = serializers.IntegerField(allow_null=True)


#: The API's shapes of a Mulatschak session (games.Game); its deal is the referee's.
DEAL_IN, BOARD_OUT, DEAL_OUT = SessionDealIn, MulatschakScoreboardOut, MulatschakSessionDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = MulatschakSettlementOut, MulatschakStatsOut


def deal_out(row: Deal, names: Names) -> dict[str, Any]:
    result = names.deal_names(row.result)
    return {
        "number": row.number,
        "version": row.version,
        "kind": row.kind,
        "deal": names.deal_names(row.data),
        "dealer": result.get("dealer"),
        "game_number": result.get("game_number"),
        "multiplier": result.get("multiplier"),
        "factors": result.get("factors", []),
        "deltas": result.get("deltas", {}),
        "scores_after": result.get("scores_after", {}),
        "reasons": result.get("reasons", {}),
        "declarer_made": result.get("declarer_made"),
        "game_over": result.get("game_over", False),
        "winners": result.get("winners", []),
        "sitting_out": result.get("sitting_out"),
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }

