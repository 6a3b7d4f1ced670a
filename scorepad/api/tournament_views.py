"""Tournaments (docs/tournaments.md): thin adapters, access checks in scorepad.access,
every change through scorepad.tournaments.services. A group's owners and editors direct a
tournament; its members read it; the screen is public (a page, scorepad.views.tournaments).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import rosters, services
from scorepad.access import (
    READ,
    WRITE,
    WRITERS,
    group_for,
    session_for,
    tournament_for,
    visible_groups,
)
from scorepad.cache.answers import polled
from scorepad.errors import Conflict, NotFound
from scorepad.fields import MAX_CATEGORY, NAME_PATTERN
from scorepad.messages import conflict_message
from scorepad.models import Membership, Tournament, TournamentRound
from scorepad.tournaments import formats
from scorepad.tournaments import services as tour
from scorepad.tournaments import tables as table_rules
from scorepad.tournaments.ranking import two_places

from . import tournament_serializers as ts
from .auth import AccountRequired
from .errors import invalid
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import idempotent


def screen_url(request: Request, tournament: Tournament) -> str:
    return request.build_absolute_uri(
        reverse("scorepad:tournament_screen", kwargs={"token": tournament.screen_token}))


def round_out(tournament: Tournament, the_round: TournamentRound, director: bool
              ) -> dict[str, Any]:
    tables = []
    for live in tour.live_tables(tournament, the_round):
        open_round = the_round.status == TournamentRound.Status.OPEN
        tables.append({
            "table": live.table.number, "session": live.table.session_id,
            "seats": live.seats, "dealer": live.dealer,
            "table_code": live.table.code if director and open_round else None,
            "deals": live.deals, "finished": live.finished,
            "scores": {name: two_places(v) for name, v in live.scores.items()},
            "confirmed_by": live.confirmed_by,
        })
    return {"number": the_round.number, "status": the_round.status,
            "forced": the_round.forced, "final": the_round.final, "tables": tables}


def _prize_out(stored: dict[str, Any]) -> dict[str, Any]:
    if "percent" not in stored:
        return stored
    return {**stored, "percent": formats.rank_points_out([stored["percent"]])[0]}


def tournament_out(request: Request, tournament: Tournament, role: str | None
                   ) -> dict[str, Any]:
    director = role in WRITERS
    return ts.TournamentOut({
        "id": tournament.pk, "group": tournament.group_id, "name": tournament.name,
        "game": tournament.game, "preset": tournament.preset, "rules": tournament.rules,
        "rounds_total": tournament.rounds, "round_ends": tournament.round_ends,
        "deals_per_round": tournament.deals_per_round, "table_size": tournament.table_size,
        "scoring": tournament.scoring, "draw": tournament.draw,
        "stake": None if tournament.stake is None else str(tournament.stake.normalize()),
        "currency": tournament.currency or None, "status": tournament.status,
        "screen_url": screen_url(request, tournament),
        "screen_hides_rounds": tournament.screen_hides_rounds,
        "rank_points": formats.rank_points_out(tournament.rank_points or []),
        "tiebreaks": tournament.tiebreaks, "final_tables": tournament.final_tables,
        "confirm_results": tournament.confirm_results, "date": tournament.date,
        "entry_fee": (None if tournament.entry_fee is None
                      else f"{tournament.entry_fee.quantize(ENTRY_CENT):f}"),
        "prizes": [_prize_out(p) for p in tournament.prizes or []],
        "players": tour.players_of(tournament),
        "rounds": [round_out(tournament, r, director)
                   for r in tournament.round_set.order_by("number")],
    }).data


ENTRY_CENT = Decimal("0.01")


def _formats_given(v: dict[str, Any]) -> dict[str, Any]:
    """The format fields a request gave (scoring and currency are passed on their own)."""
    return {f: v[f] for f in tour.FORMAT_FIELDS if f in v and f not in ("scoring", "currency")}


def _conflict(error: Conflict, **extra: Any) -> Response:
    body = {"detail": conflict_message(error.reason, **error.params), "reason": error.reason,
            **extra}
    return Response(ts.TournamentConflictOut(body).data, status=409)


# --- tournaments ---------------------------------------------------------------------------


@extend_schema(methods=["GET"], responses={200: ts.TournamentOut(many=True), **ts.ERRORS},
               summary="Tournaments of your groups (the newest 100)")
@extend_schema(methods=["POST"], parameters=[IDEMPOTENCY], request=ts.TournamentIn,
               responses={201: ts.TournamentOut, **ts.ERRORS},
               summary="Make a tournament: rules frozen, rounds, table size, scoring, draw")
@api_view(["GET", "POST"])
@permission_classes([AccountRequired])
@idempotent
def tournaments(request: Request) -> Response:
    if request.method == "GET":
        role = Membership.objects.filter(group_id=OuterRef("group_id"), user_id=request.user.pk)
        rows = (Tournament.objects.filter(group__in=visible_groups(request.user))
                .annotate(asker_role=Subquery(role.values("role")[:1]))[:100])
        return Response([tournament_out(request, t, t.asker_role) for t in rows])
    data = ts.TournamentIn(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    group = group_for(request.user, v["group"], WRITE)
    preset, overrides = v["rules"] if isinstance(v.get("rules"), tuple) else (None, None)
    try:
        made = tour.tournament_create(
            group=group, user=request.user, name=v["name"], game=v["game"], preset=preset,
            overrides=overrides, rounds=v["rounds"], round_ends=v["round_ends"],
            deals_per_round=v.get("deals_per_round"), table_size=v["table_size"],
            scoring=v["scoring"], draw=v["draw"], stake=v.get("stake"),
            currency=v.get("currency"), **_formats_given(v))
    except services.InputError as e:
        raise invalid(e) from e
    return Response(tournament_out(request, made, Membership.Role.OWNER), status=201)


@extend_schema(methods=["GET"], responses={200: ts.TournamentOut, **ts.ERRORS},
               summary="One tournament: its players and its rounds with their tables")
@extend_schema(methods=["PATCH"], parameters=[IDEMPOTENCY], request=ts.TournamentPatchIn,
               responses={200: ts.TournamentOut, **ts.ERRORS, **ts.CONFLICT},
               summary='End it ({"status": "finished"}), hide the last rounds from the '
                       'screen, rename it, or change its formats (while registering)')
@api_view(["GET", "PATCH"])
@permission_classes([AccountRequired])
@idempotent
def tournament_detail(request: Request, tournament_id: int) -> Response:
    if request.method == "GET":
        found = tournament_for(request.user, tournament_id, READ)
        return Response(tournament_out(request, found, found.asker_role))
    found = tournament_for(request.user, tournament_id, WRITE)
    data = ts.TournamentPatchIn(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    choices = _formats_given(v)
    for field in ("scoring", "currency"):
        if field in v:
            choices[field] = v[field]
    try:
        changed = tour.tournament_change(tournament=found, status=v.get("status"),
                                         screen_hides_rounds=v.get("screen_hides_rounds"),
                                         name=v.get("name"), **choices)
    except services.InputError as e:
        raise invalid(e) from e
    except Conflict as e:
        return _conflict(e)
    return Response(tournament_out(request, changed, found.asker_role))


@extend_schema(methods=["GET"], responses={200: ts.EntrantOut(many=True), **ts.ERRORS},
               summary="The registered players, by start number (withdrawn ones too)")
@extend_schema(methods=["POST"], parameters=[IDEMPOTENCY], request=ts.EntrantIn,
               responses={201: ts.EntrantOut, **ts.ERRORS, **ts.CONFLICT},
               summary="Register a player (the next start number; optionally the roster "
                       "player's category); open until the last round is drawn")
@extend_schema(methods=["PATCH"], parameters=[IDEMPOTENCY], request=ts.EntrantPatchIn,
               responses={200: ts.EntrantOut, **ts.ERRORS},
               summary="Change a registered player: paid, or the roster player's category")
@extend_schema(methods=["DELETE"], parameters=[IDEMPOTENCY], request=ts.EntrantIn,
               responses={200: ts.EntrantOut, **ts.ERRORS},
               summary="Withdraw a player: their results stay, they are not drawn again")
@api_view(["GET", "POST", "PATCH", "DELETE"])
@permission_classes([AccountRequired])
@idempotent
def players(request: Request, tournament_id: int) -> Response:
    if request.method == "GET":
        return Response(tour.players_of(tournament_for(request.user, tournament_id, READ)))
    found = tournament_for(request.user, tournament_id, WRITE)
    shape = ts.EntrantPatchIn if request.method == "PATCH" else ts.EntrantIn
    data = shape(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    name = v["name"]
    changes = {k: v[k] for k in ("category", "paid") if k in v}
    try:
        if request.method == "POST":
            entrant = tour.entrant_register(tournament=found, name=name, **changes)
        elif request.method == "PATCH":
            entrant = tour.entrant_change(tournament=found, name=name, **changes)
        else:
            entrant = tour.entrant_withdraw(tournament=found, name=name)
    except services.InputError as e:
        raise invalid(e) from e
    except Conflict as e:
        return _conflict(e)
    body = ts.EntrantOut(tour.entrant_json(entrant, tour.needs_lot(found))).data
    return Response(body, status=201 if request.method == "POST" else 200)


@extend_schema(methods=["POST"], parameters=[IDEMPOTENCY], request=None,
               responses={201: ts.RoundOut, **ts.ERRORS, **ts.CONFLICT},
               summary="Draw the next round: every registered, not withdrawn player at a "
                       "table")
@api_view(["POST"])
@permission_classes([AccountRequired])
@idempotent
def rounds(request: Request, tournament_id: int) -> Response:
    found = tournament_for(request.user, tournament_id, WRITE)
    try:
        drawn = tour.round_draw(tournament=found, user=request.user)
    except Conflict as e:
        return _conflict(e)
    found.refresh_from_db()
    return Response(ts.RoundOut(round_out(found, drawn, True)).data, status=201)


@extend_schema(methods=["POST"], parameters=[IDEMPOTENCY], request=ts.CloseIn,
               responses={200: ts.RoundOut, **ts.ERRORS, **ts.CONFLICT},
               summary='End a round: every table finished, or {"force": true}')
@api_view(["POST"])
@permission_classes([AccountRequired])
@idempotent
def round_close(request: Request, tournament_id: int, number: int) -> Response:
    found = tournament_for(request.user, tournament_id, WRITE)
    try:
        sent = request.data
    except exceptions.UnsupportedMediaType:  # no JSON body (an empty form): not forced
        sent = {}
    data = ts.CloseIn(data=sent if sent else {})
    data.is_valid(raise_exception=True)
    try:
        closed = tour.round_close(tournament=found, number=number,
                                  force=data.validated_data["force"])
    except tour.TablesUnfinished as e:
        extra = {"unconfirmed": e.unconfirmed} if found.confirm_results else {}
        return _conflict(e, tables=e.tables, **extra)
    except Conflict as e:
        return _conflict(e, tables=[])
    except NotFound:
        raise Http404 from None
    found.refresh_from_db()
    return Response(ts.RoundOut(round_out(found, closed, True)).data)


CATEGORY_PARAMETER = OpenApiParameter(
    "category", {"type": "string", "maxLength": MAX_CATEGORY, "pattern": NAME_PATTERN},
    description="only this category's players, each with their place in it (capitals "
                "aside)", required=False)


@extend_schema(parameters=[CATEGORY_PARAMETER],
               responses={200: ts.RankingOut, 304: None, **ts.ERRORS},
               summary="The ranking of the closed rounds (supports ETag / If-None-Match)")
@api_view(["GET", "HEAD"])
@permission_classes([AccountRequired])
def ranking(request: Request, tournament_id: int) -> Any:
    """From the tables' kept results, never from their deals; the answer rendered once per
    version of the tournament (scorepad.cache.answers)."""
    found = tournament_for(request.user, tournament_id, READ)
    category = category_asked(request)

    def etag(version: int) -> str:
        return tour.ranking_etag(found.pk, version, category)

    def build() -> tuple[str, bytes, str]:
        fresh = Tournament.objects.get(pk=found.pk)
        body = ts.RankingOut(tour.ranking_json(fresh, category=category)).data
        return etag(fresh.version), json.dumps(body).encode(), "application/json"

    return polled(request, etag(found.version), build)


def category_asked(request: Request) -> str | None:
    """The ``category`` asked for (None: all), or 400 naming it."""
    given = request.query_params.get("category")
    if given in (None, ""):
        return None
    try:
        return rosters.clean_category(given)
    except services.InputError as e:
        raise invalid(e) from e


@extend_schema(responses={200: ts.PrizesOut, **ts.ERRORS},
               summary="The pot and the prize list, each prize with what it pays and "
                       "(once the tournament is finished) who wins it")
@api_view(["GET", "HEAD"])
@permission_classes([AccountRequired])
def prizes(request: Request, tournament_id: int) -> Response:
    found = tournament_for(request.user, tournament_id, READ)
    return Response(ts.PrizesOut(tour.prizes_json(found)).data)


def _confirmation(table: Any) -> dict[str, Any]:
    by, at = table_rules.confirmation(table)
    return ts.ConfirmOut({"confirmed_by": by, "at": at}).data


@extend_schema(methods=["GET"], responses={200: ts.ConfirmOut, **ts.ERRORS},
               summary="Who confirmed the table's result, and when (both null: nobody yet)")
@extend_schema(methods=["POST"], parameters=[IDEMPOTENCY], request=ts.ConfirmIn,
               responses={200: ts.ConfirmOut, **ts.ERRORS, **ts.CONFLICT},
               summary="A seated player confirms the finished table's result (the "
                       "table's code, or a director)")
@api_view(["GET", "HEAD", "POST"])
@permission_classes([IsAuthenticated])  # a table's code too, as its session's endpoints
@idempotent
def confirm(request: Request, session_id: int) -> Response:
    """A tournament table's result, confirmed by a player seated there (docs/tournaments.md,
    "Confirming a table's result"); any other session answers 404."""
    if request.method != "POST":
        session = session_for(request.user, session_id, READ)
        table = tour.table_of_session(session.pk)
        if table is None:
            raise Http404
        return Response(_confirmation(table))
    session = session_for(request.user, session_id, WRITE)
    data = ts.ConfirmIn(data=request.data)
    data.is_valid(raise_exception=True)
    try:
        table = tour.table_confirm(session_id=session.pk,
                                   player=data.validated_data["player"])
    except services.InputError as e:
        raise invalid(e) from e
    except NotFound:
        raise Http404 from None
    except Conflict as e:
        return _conflict(e)
    return Response(_confirmation(table))
