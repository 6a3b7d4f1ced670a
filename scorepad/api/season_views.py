"""Seasons (docs/tournaments.md, "Seasons"): thin adapters, access checks in
scorepad.access, every change through scorepad.seasons.services. A group's owners and
editors make and change its seasons; its members read them and their standings.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import seasons
from scorepad.access import READ, WRITE, group_for, season_for
from scorepad.cache.answers import client_has
from scorepad.errors import InputError
from scorepad.models import Season
from scorepad.seasons import services as season_services
from scorepad.tournaments import formats

from . import season_serializers as ss
from .auth import AccountRequired
from .errors import invalid
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import idempotent
from .tournament_views import CATEGORY_PARAMETER, category_asked


def season_out(season: Season) -> dict[str, Any]:
    return ss.SeasonOut({
        "id": season.pk, "group": season.group_id, "name": season.name,
        "game": season.game, "start": season.start, "end": season.end,
        "events": season.events,
        "cup_points": formats.rank_points_out([str(p) for p in season.cup_points or []]),
        "best_of": season.best_of, "min_events": season.min_events,
    }).data


@extend_schema(methods=["GET"], responses={200: ss.SeasonOut(many=True), **ss.ERRORS},
               summary="The group's seasons, the latest first")
@extend_schema(methods=["POST"], parameters=[IDEMPOTENCY], request=ss.SeasonIn,
               responses={201: ss.SeasonOut, **ss.ERRORS},
               summary="Make a season: its game, its days, what counts and how")
@api_view(["GET", "POST"])
@permission_classes([AccountRequired])
@idempotent
def group_seasons(request: Request, group_id: int) -> Response:
    if request.method == "GET":
        group = group_for(request.user, group_id, READ)
        return Response([season_out(s) for s in group.seasons.order_by("-start", "-id")])
    group = group_for(request.user, group_id, WRITE)
    data = ss.SeasonIn(data=request.data)
    data.is_valid(raise_exception=True)
    try:
        made = season_services.season_create(group, request.user, data.validated_data)
    except InputError as e:
        raise invalid(e) from e
    return Response(season_out(made), status=201)


@extend_schema(methods=["GET"], responses={200: ss.SeasonOut, **ss.ERRORS},
               summary="One season")
@extend_schema(methods=["PATCH"], parameters=[IDEMPOTENCY], request=ss.SeasonPatchIn,
               responses={200: ss.SeasonOut, **ss.ERRORS},
               summary="Change a season's fields (those not given stay)")
@extend_schema(methods=["DELETE"], parameters=[IDEMPOTENCY], request=None,
               responses={204: None, **ss.ERRORS},
               summary="Delete the season alone (never an event)")
@api_view(["GET", "PATCH", "DELETE"])
@permission_classes([AccountRequired])
@idempotent
def season_detail(request: Request, season_id: int) -> Response:
    if request.method == "GET":
        return Response(season_out(season_for(request.user, season_id, READ)))
    found = season_for(request.user, season_id, WRITE)
    if request.method == "DELETE":
        season_services.season_delete(found)
        return Response(status=204)
    data = ss.SeasonPatchIn(data=request.data)
    data.is_valid(raise_exception=True)
    try:
        changed = season_services.season_update(found, data.validated_data)
    except InputError as e:
        raise invalid(e) from e
    return Response(season_out(changed))


def _standings_json(body: dict[str, Any]) -> bytes:
    shown = ss.StandingsOut(body).data
    return json.dumps(shown, cls=DjangoJSONEncoder).encode()


@extend_schema(parameters=[CATEGORY_PARAMETER],
               responses={200: ss.StandingsOut, 304: None, **ss.ERRORS},
               summary="The season's events and standings (supports ETag / If-None-Match)")
@api_view(["GET", "HEAD"])
@permission_classes([AccountRequired])
def season_standings(request: Request, season_id: int) -> HttpResponse:
    """Read from the events at every request: a correction of any deal moves them at
    once; the ETag is of what they show (``seasons.etag``)."""
    found = season_for(request.user, season_id, READ)
    category = category_asked(request) or ""
    body, etag = seasons.standings_and_etag(found, category)
    if client_has(request, etag):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(_standings_json(body), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response
