"""Müller Matz's part of the stateless referee API: does a card beat, what may a hand do,
a second-life pile (``URLS``, routed under /api/v1/ by scorepad.api.urls)."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from referee.muller_matz import MULLER_MATZ_RULES, check_beat, check_hand, check_pile
from referee.violations import RuleError

from ...api.referee_serializers import ErrorOut, ViolationsOut
from ...api.referee_views import rule_error_response, stateless, validated, violations_response
from ...fields import (
    MAX_PLAYERS,
    FrenchCardField,
    NameField,
    Shape,
    StrictBooleanField,
    StrictIntegerField,
    UniqueNamesField,
)
from ...messages import input_error_message
from . import NAME, TITLE
from .shapes import MullerMatzRulesField
from .words import WORDING, beat_reason

# --- shapes -----------------------------------------------------------------------------

class BeatRequest(Shape):
    trump = serializers.ChoiceField(["clubs", "diamonds", "hearts", "spades"])
    life = StrictIntegerField(min_value=1, max_value=2)
    attack = FrenchCardField()
    defense = FrenchCardField()


class BeatOut(Shape):
    legal = serializers.BooleanField()
    reason = serializers.CharField()
    reason_code = serializers.CharField()


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


# --- endpoints --------------------------------------------------------------------------


def presets() -> list[dict[str, Any]]:
    """Müller Matz's one rule set (``GET /rules``)."""
    return [{"game": NAME, "name": NAME, "title": TITLE,
             "params": MULLER_MATZ_RULES.as_params()}]


@extend_schema(
    request=BeatRequest,
    responses={200: BeatOut, 400: ErrorOut},
    summary="Does the defending card beat the attacking card?",
)
@api_view(["POST"])
@stateless
def muller_matz_beat(request: Request) -> Response:
    data = validated(BeatRequest, request)
    try:
        result = check_beat(data["attack"], data["defense"], data["trump"], data["life"])
    except RuleError as e:
        return rule_error_response(e)
    return Response(
        {"legal": result.legal, "reason": beat_reason(result.reason), "reason_code": result.reason}
    )


@extend_schema(
    request=HandRequest,
    responses={200: HandOut, 400: ErrorOut},
    summary="What a hand may do: draw, swap the lowest trump, go to sleep",
    examples=[
        OpenApiExample(
            "Four cards after a pick-up",
            request_only=True,
            value={"trump": "hearts", "hand": ["hearts-2", "hearts-9", "hearts-king",
                                               "spades-9"],
                   "stock": 5, "turned_up": "hearts-queen"},
        )
    ],
)
@api_view(["POST"])
@stateless
def muller_matz_hand(request: Request) -> Response:
    data = validated(HandRequest, request)
    try:
        state = check_hand(data["hand"], data["trump"], data["stock"], data["turned_up"],
                           data.get("rules") or MULLER_MATZ_RULES)
    except RuleError as e:
        return rule_error_response(e)
    return Response(state.as_dict())


@extend_schema(
    request=PileRequest,
    responses={200: PileOut, 400: ErrorOut, 422: PileViolationsOut},
    summary="Check the plays of one second-life pile and say who wins it and who is next",
    examples=[
        OpenApiExample(
            "A complete pile of three",
            request_only=True,
            value={"trump": "hearts", "players": ["Hans", "Grete", "Sepp"],
                   "plays": [{"player": "Hans", "card": "spades-9"},
                             {"player": "Grete", "card": "spades-queen"},
                             {"player": "Sepp", "card": "hearts-3"}]},
        )
    ],
)
@api_view(["POST"])
@stateless
def muller_matz_pile(request: Request) -> Response:
    data = validated(PileRequest, request)
    plays = [
        {"player": p["player"], "card": p["card"], "pick_up": p["pick_up"]}
        for p in data["plays"]
    ]
    try:
        result = check_pile(data["trump"], data["players"], plays, data["hands"],
                            data.get("rules") or MULLER_MATZ_RULES)
    except RuleError as e:
        return rule_error_response(e)
    body = {
        "pile": [c.code for c in result.cards],
        "complete": result.complete,
        "winner": result.winner,
        "next": result.next,
    }
    if not result.legal:
        return violations_response(result.violations, WORDING, **body)
    return Response({"legal": True, **body})


URLS = [
    path("referee/muller-matz/beat", muller_matz_beat, name="muller_matz_beat"),
    path("referee/muller-matz/hand", muller_matz_hand, name="muller_matz_hand"),
    path("referee/muller-matz/pile", muller_matz_pile, name="muller_matz_pile"),
]
