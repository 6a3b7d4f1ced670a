"""Mura's part of the stateless referee API: a deal checked (counts, or card by card) and
stakes settled (``URLS``, routed under /api/v1/ by scorepad.api.urls)."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from referee.money import Penalty, parse_stake, settle
from referee.mura import MURA_RULES, check_cards, check_counts, parse_trick_cards
from referee.violations import RuleError

from ...api.referee_serializers import ErrorOut, SettleOut
from ...api.referee_views import (
    ERRORS,
    rule_error_response,
    stateless,
    validated,
    violations_response,
)
from ...fields import (
    MAX_PLAYERS,
    CountsField,
    NameField,
    PerPlayerField,
    Shape,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
    money_schema,
)
from . import COUNTS_OR_CARDS, NAME, TITLE, WORDING, MuraTrickIn, counts_or_cards

# --- shapes -----------------------------------------------------------------------------

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


# --- endpoints --------------------------------------------------------------------------


def presets() -> list[dict[str, Any]]:
    """Mura's one rule set (``GET /rules``)."""
    return [{"game": NAME, "name": NAME, "title": TITLE, "params": MURA_RULES.as_params()}]


@extend_schema(
    request=MuraDealRequest,
    responses={200: MuraDealOut, **ERRORS},
    summary="Check one Mura deal (counts, or card by card) and say who is in mura",
)
@api_view(["POST"])
@stateless
def mura_deal(request: Request) -> Response:
    data = validated(MuraDealRequest, request)
    try:
        if "trick_cards" in data:
            tricks = parse_trick_cards(data["trick_cards"])
            result = check_cards(data["players"], tricks, dealer=data.get("dealer"))
        else:
            result = check_counts(data["players"], data["tricks"], data["figures"],
                                  dealer=data.get("dealer"))
    except RuleError as e:
        return rule_error_response(e)
    if not result.legal:
        return violations_response(result.violations, WORDING)
    body: dict[str, Any] = {
        "legal": True,
        "results": {name: r.as_dict() for name, r in result.results.items()},
    }
    if result.tricks:
        body["tricks"] = [
            {
                "number": t.number,
                "leader": t.leader,
                "winner": t.winner,
                "winning_card": t.winning_card.code if t.winning_card else None,
                "figures": t.figures,
            }
            for t in result.tricks
        ]
    return Response(body)


@extend_schema(
    request=SettleRequest,
    responses={200: SettleOut, 400: ErrorOut},
    summary="Settle Mura stakes: pair amounts, balances and a transfer plan",
)
@api_view(["POST"])
@stateless
def mura_settle(request: Request) -> Response:
    data = validated(SettleRequest, request)
    try:
        stake = parse_stake(data["stake"], data["currency"])
        settlement = settle(
            stake,
            data["currency"],
            {name: Penalty(p["mura"], p["zeros"]) for name, p in data["penalties"].items()},
            zeros_per_mura=MURA_RULES.zeros_per_mura,
        )
    except RuleError as e:
        return rule_error_response(e)
    return Response(settlement.as_dict())


URLS = [
    path("referee/mura/deal", mura_deal, name="mura_deal"),
    path("referee/mura/settle", mura_settle, name="mura_settle"),
]
