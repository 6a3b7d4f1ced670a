"""The stateless referee API: rules, and checking deals, auctions and tricks.

No login; the referee decides, these views only translate JSON to the referee and back.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from referee.auction import run_auction
from referee.deal import Deal, DealKind, Table, multiplier_factors, multiplier_of, score_deal
from referee.rules import PRESETS
from referee.trick import Play, check_trick
from referee.violations import RuleError, Violation
from scorepad.messages import violation_json

from . import serializers as s
from .errors import validation_response
from .fields import raise_rule_error

ERRORS = {400: s.ErrorOut, 422: s.ViolationsOut}


def stateless(view: Any) -> Any:
    """No authentication (so no CSRF) and no permission: anyone may ask the referee."""
    return authentication_classes([])(permission_classes([AllowAny])(view))


def _validated(serializer_class: type[serializers.Serializer], request: Request) -> Any:  # type: ignore[type-arg]
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def violations_response(violations: tuple[Violation, ...], **extra: Any) -> Response:
    body = {"legal": False, "violations": [violation_json(v) for v in violations], **extra}
    return Response(body, status=422)


def rules_presets() -> list[dict[str, Any]]:
    presets: list[dict[str, Any]] = [
        {"game": r.game, "name": r.name, "title": r.title, "params": r.as_params()}
        for r in PRESETS.values()
    ]
    return presets


@extend_schema(responses={200: s.RulesOut}, summary="Every preset with every parameter")
@api_view(["GET"])
@stateless
def rules(request: Request) -> Response:
    return Response({"presets": rules_presets()})


def deal_from(data: dict[str, Any]) -> Deal:
    kind = DealKind(data["kind"])
    if kind is not DealKind.PLAYED:
        return Deal(kind, knocked=data["knocked"])
    return Deal.played(
        declarer=data["declarer"],
        bid=data["bid"],
        trump=data["trump"],
        tricks=data["tricks"],
        stayed_home=data["stayed_home"],
        knocked=data["knocked"],
        exchanged=data["exchanged"],
        muli_breaker=data["muli_breaker"],
    )


def _auction_violations(data: dict[str, Any], deal: Deal) -> tuple[Violation, ...]:
    calls = data["deal"].get("auction")
    if calls is None:
        return ()
    result = run_auction(
        data["rules"], data["players"], data["dealer"],
        [(c["player"], c["call"]) for c in calls], data["scores_before"],
    )
    if not result.legal:
        return result.violations
    if deal.kind is DealKind.PLAYED:
        agrees = (result.declarer, result.bid) == (deal.declarer, deal.bid)
    else:
        agrees = result.all_passed or deal.kind is DealKind.COLLAPSED
    if agrees:
        return ()
    return (
        Violation.of(
            "auction_mismatch",
            result.declarer,
            declarer=result.declarer or "",
            bid=result.bid or 0,
        ),
    )


@extend_schema(
    request=s.DealRequest,
    responses={200: s.DealOut, **ERRORS},
    summary="Check and score one Mulatschak deal",
    examples=[
        OpenApiExample(
            "A plain deal",
            request_only=True,
            value={
                "rules": "salzburg",
                "players": ["Anna", "Bert", "Cilli", "Dominik"],
                "dealer": "Dominik",
                "deal": {
                    "kind": "played",
                    "declarer": "Bert",
                    "bid": 3,
                    "trump": "leaves",
                    "stayed_home": ["Cilli"],
                    "tricks": {"Anna": 1, "Bert": 3, "Dominik": 1},
                },
            },
        )
    ],
)
@api_view(["POST"])
@stateless
def mulatschak_deal(request: Request) -> Response:
    data = _validated(s.DealRequest, request)
    rules_ = data["rules"]
    try:
        table = Table.of(
            rules_,
            data["players"],
            data["dealer"],
            data["scores_before"],
            data["collapses_before"],
            data["previous_stayed_home"],
        )
    except RuleError as e:
        try:
            raise_rule_error(e)
        except serializers.ValidationError as ve:
            return validation_response(ve.detail)
    deal = deal_from(data["deal"])
    result = score_deal(table, deal)
    violations = result.violations + _auction_violations(data, deal)
    if violations:
        return violations_response(violations)
    pending = multiplier_of(
        rules_, multiplier_factors(rules_, hearts=False, collapses=result.collapses_after,
                                   knocked=False)
    )
    return Response(
        {
            "legal": True,
            "multiplier": result.multiplier,
            "factors": [str(f) for f in result.factors],
            "deltas": dict(result.deltas),
            "scores_after": dict(result.scores_after),
            "reasons": {p: str(r) for p, r in result.reasons.items()},
            "declarer_made": result.declarer_made,
            "game_over": result.game_over,
            "winners": list(result.winners),
            "collapses_after": result.collapses_after,
            "pending_multiplier": pending,
            "next_dealer": result.next_dealer,
        }
    )


@extend_schema(
    request=s.AuctionRequest,
    responses={200: s.AuctionOut, **ERRORS},
    summary="Check a bidding sequence and name the declarer",
)
@api_view(["POST"])
@stateless
def mulatschak_auction(request: Request) -> Response:
    data = _validated(s.AuctionRequest, request)
    result = run_auction(
        data["rules"],
        data["players"],
        data["dealer"],
        [(c["player"], c["call"]) for c in data["calls"]],
        data["scores_before"],
    )
    if not result.legal:
        return violations_response(result.violations)
    return Response(
        {
            "legal": True,
            "declarer": result.declarer,
            "bid": result.bid,
            "all_passed": result.all_passed,
        }
    )


@extend_schema(
    request=s.TrickRequest,
    responses={200: s.TrickOut, 400: s.ErrorOut, 422: s.TrickViolationsOut},
    summary="Check the plays of one trick and name its winner",
)
@api_view(["POST"])
@stateless
def mulatschak_trick(request: Request) -> Response:
    data = _validated(s.TrickRequest, request)
    plays = [
        Play(p["player"], p["card"], None if p["hand"] is None else tuple(p["hand"]))
        for p in data["plays"]
    ]
    try:
        result = check_trick(data["rules"], data["trump"], plays)
    except RuleError as e:
        try:
            raise_rule_error(e)
        except serializers.ValidationError as ve:
            return validation_response(ve.detail)
    card = result.winning_card.code if result.winning_card else None
    if not result.legal:
        return violations_response(result.violations, winner=result.winner, winning_card=card)
    return Response({"legal": True, "winner": result.winner, "winning_card": card})
