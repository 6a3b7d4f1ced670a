"""The stateless referee API: the rules of every game, and what every game's endpoints
share (each game's own endpoints, deals, tricks, beats..., are its package's
``scorepad.games.<game>.api``, routed by scorepad.api.urls).

No login; the referee decides, these views only translate JSON to the referee and back.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from referee.violations import RuleError, Violation
from scorepad import games
from scorepad.fields import raise_rule_error
from scorepad.messages import Wording, violation_json

from . import referee_serializers as s
from .errors import validation_response

ERRORS = {400: s.ErrorOut, 422: s.ViolationsOut}


def stateless(view: Any) -> Any:
    """No authentication (so no CSRF) and no permission: anyone may ask the referee."""
    return authentication_classes([])(permission_classes([AllowAny])(view))


def validated(serializer_class: type[serializers.Serializer], request: Request) -> Any:  # type: ignore[type-arg]
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def violations_response(violations: tuple[Violation, ...], wording: Wording,
                        **extra: Any) -> Response:
    """422 with every violation, each in the words of the game that asked (its
    ``WORDING``)."""
    body = {"legal": False, "violations": [violation_json(v, wording) for v in violations],
            **extra}
    return Response(body, status=422)


def rule_error_response(error: RuleError) -> Response:
    try:
        raise_rule_error(error)
    except serializers.ValidationError as ve:
        return validation_response(ve.detail)
    raise AssertionError("raise_rule_error always raises")  # pragma: no cover


def game_apis() -> list[Any]:
    """The ``api`` module of every registered game that has one (its endpoints: ``URLS``;
    its rule sets: ``presets()``)."""
    out = []
    for game in games.registered():
        if find_spec(f"{game.__name__}.api") is not None:
            out.append(import_module(f"{game.__name__}.api"))
    return out


def rules_presets() -> list[dict[str, Any]]:
    return [preset for api in game_apis() for preset in api.presets()]


@extend_schema(responses={200: s.RulesOut}, summary="Every preset with every parameter")
@api_view(["GET", "HEAD"])
@stateless
def rules(request: Request) -> Response:
    return Response({"presets": rules_presets()})
