"""The stateless referee API: rules, and checking deals, auctions, tricks, Mura deals and
Müller Matz beats, hands and piles.

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
from referee.deal import (
    Deal,
    DealKind,
    Table,
    deal_from_dict,
    multiplier_factors,
    multiplier_of,
    score_deal,
)
from referee.money import Penalty, parse_stake, settle
from referee.muller_matz import MULLER_MATZ_RULES, check_beat, check_hand, check_pile
from referee.mura import MURA_RULES, check_cards, check_counts, parse_trick_cards
from referee.rules import PRESETS
from referee.trick import Play, check_trick
from referee.violations import RuleError, Violation
from scorepad.fields import raise_rule_error
from scorepad.messages import beat_reason, violation_json

from . import referee_serializers as s
from .errors import validation_response

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


def _rule_error_response(error: RuleError) -> Response:
    try:
        raise_rule_error(error)
    except serializers.ValidationError as ve:
        return validation_response(ve.detail)
    raise AssertionError("raise_rule_error always raises")  # pragma: no cover


def rules_presets() -> list[dict[str, Any]]:
    presets: list[dict[str, Any]] = [
        {"game": r.game, "name": r.name, "title": r.title, "params": r.as_params()}
        for r in PRESETS.values()
    ]
    presets.append(
        {"game": "mura", "name": "mura", "title": "Mura", "params": MURA_RULES.as_params()}
    )
    presets.append(
        {
            "game": "muller_matz",
            "name": "muller_matz",
            "title": "Müller Matz",
            "params": MULLER_MATZ_RULES.as_params(),
        }
    )
    return presets


@extend_schema(responses={200: s.RulesOut}, summary="Every preset with every parameter")
@api_view(["GET", "HEAD"])
@stateless
def rules(request: Request) -> Response:
    return Response({"presets": rules_presets()})


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
            data["knocks_before"],
        )
        deal = deal_from_dict(data["deal"])
    except RuleError as e:
        return _rule_error_response(e)
    result = score_deal(table, deal)
    violations = result.violations + _auction_violations(data, deal)
    if violations:
        return violations_response(violations)
    pending = multiplier_of(
        rules_, multiplier_factors(rules_, hearts=False, collapses=result.collapses_after,
                                   knocked=False, knocks_before=result.knocks_after)
    )
    body: dict[str, Any] = {
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
        "knocks_after": result.knocks_after,
        "pending_multiplier": pending,
        "next_dealer": result.next_dealer,
        "sitting_out": result.sitting_out,
    }
    if result.exchange_totals is not None:
        body["exchange_totals"] = result.exchange_totals.as_dict()
    return Response(body)


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
            "sitting_out": result.sitting_out,
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
        return _rule_error_response(e)
    card = result.winning_card.code if result.winning_card else None
    if not result.legal:
        return violations_response(result.violations, winner=result.winner, winning_card=card)
    return Response({"legal": True, "winner": result.winner, "winning_card": card})


# --- Mura -----------------------------------------------------------------------------


@extend_schema(
    request=s.MuraDealRequest,
    responses={200: s.MuraDealOut, **ERRORS},
    summary="Check one Mura deal (counts, or card by card) and say who is in mura",
)
@api_view(["POST"])
@stateless
def mura_deal(request: Request) -> Response:
    data = _validated(s.MuraDealRequest, request)
    try:
        if "trick_cards" in data:
            tricks = parse_trick_cards(data["trick_cards"])
            result = check_cards(data["players"], tricks, dealer=data.get("dealer"))
        else:
            result = check_counts(data["players"], data["tricks"], data["figures"],
                                  dealer=data.get("dealer"))
    except RuleError as e:
        return _rule_error_response(e)
    if not result.legal:
        return violations_response(result.violations)
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
    request=s.SettleRequest,
    responses={200: s.SettleOut, 400: s.ErrorOut},
    summary="Settle Mura stakes: pair amounts, balances and a transfer plan",
)
@api_view(["POST"])
@stateless
def mura_settle(request: Request) -> Response:
    data = _validated(s.SettleRequest, request)
    try:
        stake = parse_stake(data["stake"], data["currency"])
        settlement = settle(
            stake,
            data["currency"],
            {name: Penalty(p["mura"], p["zeros"]) for name, p in data["penalties"].items()},
            zeros_per_mura=MURA_RULES.zeros_per_mura,
        )
    except RuleError as e:
        return _rule_error_response(e)
    return Response(settlement.as_dict())


# --- Müller Matz ------------------------------------------------------------------------


@extend_schema(
    request=s.BeatRequest,
    responses={200: s.BeatOut, 400: s.ErrorOut},
    summary="Does the defending card beat the attacking card?",
)
@api_view(["POST"])
@stateless
def muller_matz_beat(request: Request) -> Response:
    data = _validated(s.BeatRequest, request)
    try:
        result = check_beat(data["attack"], data["defense"], data["trump"], data["life"])
    except RuleError as e:
        return _rule_error_response(e)
    return Response(
        {"legal": result.legal, "reason": beat_reason(result.reason), "reason_code": result.reason}
    )


@extend_schema(
    request=s.HandRequest,
    responses={200: s.HandOut, 400: s.ErrorOut},
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
    data = _validated(s.HandRequest, request)
    try:
        state = check_hand(data["hand"], data["trump"], data["stock"], data["turned_up"],
                           data.get("rules") or MULLER_MATZ_RULES)
    except RuleError as e:
        return _rule_error_response(e)
    return Response(state.as_dict())


@extend_schema(
    request=s.PileRequest,
    responses={200: s.PileOut, 400: s.ErrorOut, 422: s.PileViolationsOut},
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
    data = _validated(s.PileRequest, request)
    plays = [
        {"player": p["player"], "card": p["card"], "pick_up": p["pick_up"]}
        for p in data["plays"]
    ]
    try:
        result = check_pile(data["trump"], data["players"], plays, data["hands"],
                            data.get("rules") or MULLER_MATZ_RULES)
    except RuleError as e:
        return _rule_error_response(e)
    body = {
        "pile": [c.code for c in result.cards],
        "complete": result.complete,
        "winner": result.winner,
        "next": result.next,
    }
    if not result.legal:
        return violations_response(result.violations, **body)
    return Response({"legal": True, **body})
