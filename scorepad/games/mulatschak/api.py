"""Mulatschak's part of the stateless referee API: a deal checked and scored, an auction,
a trick (``URLS``, routed under /api/v1/ by scorepad.api.urls). No login; the referee
decides, these views only translate JSON to the referee and back."""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
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
from referee.rules import MAX_SCORE, PRESETS
from referee.trick import Play, check_trick
from referee.violations import RuleError, Violation

from ...api.referee_serializers import ErrorOut, ViolationsOut
from ...api.referee_views import (
    ERRORS,
    rule_error_response,
    stateless,
    validated,
    violations_response,
)
from ...fields import (
    MAX_PLAYERS,
    CardField,
    NameField,
    PerPlayerField,
    Shape,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
)
from ...messages import input_error_message
from .shapes import CallIn, DealIn, MulatschakRulesField
from .words import WORDING

# --- shapes -----------------------------------------------------------------------------

#: Scores before a deal: anything a deal may leave (docs/rules.md, "Scores have a limit").
SCORE_LIMIT = MAX_SCORE


def _score() -> StrictIntegerField:
    return StrictIntegerField(min_value=-SCORE_LIMIT, max_value=SCORE_LIMIT)


class ScoresField(PerPlayerField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=_score(), **kwargs)


class RefereeDealIn(DealIn):
    """A deal for the referee: the session's deal, the exchange forms included
    (docs/rules.md, "Exchange")."""


class TableIn(Shape):
    rules = MulatschakRulesField()
    players = UniqueNamesField(min_length=1)
    dealer = NameField()
    scores_before = ScoresField(
        required=False,
        help_text="optional: everybody starts at start_score; if given, every seated player",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A ``scores_before`` that is given names every seated player: a player left out
        would otherwise start silently at ``start_score``."""
        scores = attrs.setdefault("scores_before", {})
        if "scores_before" in self.initial_data:
            missing = [p for p in attrs["players"] if p not in scores]
            if missing:
                error = RuleError("scores_before", f"names no score for {', '.join(missing)}",
                                  "scores_missing", players=", ".join(missing))
                raise serializers.ValidationError(
                    {"scores_before": [input_error_message(error)]})
        return attrs


class DealRequest(TableIn):
    collapses_before = StrictIntegerField(min_value=0, max_value=60, default=0)
    knocks_before = StrictIntegerField(
        min_value=0, max_value=60, default=0,
        help_text="the knocked deals among collapses_before (/rules/#knocks-and-collapses); "
        "0..collapses_before",
    )
    previous_stayed_home = UniqueNamesField(required=False, default=list)
    deal = RefereeDealIn()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs["knocks_before"] > attrs["collapses_before"]:
            error = RuleError("knocks_before", "must not exceed collapses_before",
                              "knocks_over_collapses", max=attrs["collapses_before"])
            raise serializers.ValidationError({"knocks_before": [input_error_message(error)]})
        return attrs


class AuctionRequest(TableIn):
    calls = serializers.ListField(child=CallIn(), max_length=60)


class PlayIn(Shape):
    player = NameField()
    card = CardField()
    hand = serializers.ListField(child=CardField(), required=False, allow_null=True,
                                 default=None, max_length=40)


class TrickRequest(Shape):
    rules = MulatschakRulesField()
    trump = StrictCharField(max_length=20)
    plays = serializers.ListField(child=PlayIn(), min_length=1, max_length=MAX_PLAYERS)


class ExchangeTotalsOut(Shape):
    drawn = serializers.IntegerField(help_text="cards drawn from the talon by all exchanges")
    talon = serializers.IntegerField(help_text="pack size − 5 × active players")


class DealOut(Shape):
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
    knocks_after = serializers.IntegerField(
        help_text="knocks carried to the next deal (/rules/#knocks-and-collapses)")
    pending_multiplier = serializers.IntegerField()
    next_dealer = serializers.CharField()
    sitting_out = serializers.CharField(allow_null=True,
                                        help_text="who sits out (/rules/#sitting-out)")
    exchange_totals = ExchangeTotalsOut(required=False)


class AuctionOut(Shape):
    legal = serializers.BooleanField()
    declarer = serializers.CharField(allow_null=True)
    bid = serializers.IntegerField(allow_null=True)
    all_passed = serializers.BooleanField()
    sitting_out = serializers.CharField(allow_null=True)


class TrickOut(Shape):
    legal = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    winning_card = serializers.CharField(allow_null=True)


class TrickViolationsOut(ViolationsOut):
    winner = serializers.CharField(allow_null=True, required=False)
    winning_card = serializers.CharField(allow_null=True, required=False)


# --- endpoints --------------------------------------------------------------------------


def presets() -> list[dict[str, Any]]:
    """Every preset with every parameter (``GET /rules``)."""
    return [{"game": r.game, "name": r.name, "title": r.title, "params": r.as_params()}
            for r in PRESETS.values()]


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
    request=DealRequest,
    responses={200: DealOut, **ERRORS},
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
    data = validated(DealRequest, request)
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
        return rule_error_response(e)
    result = score_deal(table, deal)
    violations = result.violations + _auction_violations(data, deal)
    if violations:
        return violations_response(violations, WORDING)
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
    request=AuctionRequest,
    responses={200: AuctionOut, **ERRORS},
    summary="Check a bidding sequence and name the declarer",
)
@api_view(["POST"])
@stateless
def mulatschak_auction(request: Request) -> Response:
    data = validated(AuctionRequest, request)
    result = run_auction(
        data["rules"],
        data["players"],
        data["dealer"],
        [(c["player"], c["call"]) for c in data["calls"]],
        data["scores_before"],
    )
    if not result.legal:
        return violations_response(result.violations, WORDING)
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
    request=TrickRequest,
    responses={200: TrickOut, 400: ErrorOut, 422: TrickViolationsOut},
    summary="Check the plays of one trick and name its winner",
)
@api_view(["POST"])
@stateless
def mulatschak_trick(request: Request) -> Response:
    data = validated(TrickRequest, request)
    plays = [
        Play(p["player"], p["card"], None if p["hand"] is None else tuple(p["hand"]))
        for p in data["plays"]
    ]
    try:
        result = check_trick(data["rules"], data["trump"], plays)
    except RuleError as e:
        return rule_error_response(e)
    card = result.winning_card.code if result.winning_card else None
    if not result.legal:
        return violations_response(result.violations, WORDING, winner=result.winner,
                                   winning_card=card)
    return Response({"legal": True, "winner": result.winner, "winning_card": card})


URLS = [
    path("referee/mulatschak/deal", mulatschak_deal, name="mulatschak_deal"),
    path("referee/mulatschak/auction", mulatschak_auction, name="mulatschak_auction"),
    path("referee/mulatschak/trick", mulatschak_trick, name="mulatschak_trick"),
]
