"""High Card's part of the stateless referee API (``URLS``, routed under /api/v1/ while the
toy is registered): are these the winners of a deal at this table?"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad.api.referee_serializers import ErrorOut, ViolationsOut
from scorepad.api.referee_views import stateless, validated, violations_response
from scorepad.fields import NameField, Shape, UniqueNamesField

from . import NAME, TITLE, WORDING, check


class HighCardCheckRequest(Shape):
    players = UniqueNamesField(min_length=2)
    winners = serializers.ListField(child=NameField(), min_length=1)


class HighCardCheckOut(Shape):
    legal = serializers.BooleanField()


def presets() -> list[dict[str, Any]]:
    """High Card's one rule set (``GET /rules``)."""
    return [{"game": NAME, "name": NAME, "title": TITLE, "params": {}}]


@extend_schema(request=HighCardCheckRequest,
               responses={200: HighCardCheckOut, 400: ErrorOut, 422: ViolationsOut},
               summary="Check the winners of one High Card deal")
@api_view(["POST"])
@stateless
def high_card_deal(request: Request) -> Response:
    data = validated(HighCardCheckRequest, request)
    broken = check(data["players"], data["winners"])
    if broken:
        return violations_response(tuple(broken), WORDING)
    return Response({"legal": True})


URLS = [path("referee/high_card/deal", high_card_deal, name="high_card_deal")]
