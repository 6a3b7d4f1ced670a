"""Looking back through the API: a player's statistics, and one's own across groups."""

from __future__ import annotations

from django.http import Http404
from django.utils.functional import lazy
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import games, stats
from scorepad.access import READ, group_for
from scorepad.models import Player

from . import referee_serializers as s
from . import scorepad_serializers as sp
from .scorepad_serializers import ERRORS_4XX


@extend_schema(
    responses={200: sp.PlayerStatsOut, **ERRORS_4XX},
    summary="A player's statistics over every session of their group they sat at",
    description=lazy(lambda: (
        "Derived from the stored deals (see README, 'Looking back'). The top-level names "
        "sum the game families; " + ", ".join(f"`{g.STATS_KEY}`" for g in games.registered())
        + " hold each family's figures. A player linked to your own account also carries "
        "`across_groups`."), str)(),
)
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
def player_stats(request: Request, player_id: int) -> Response:
    player = Player.objects.select_related("group").filter(pk=player_id).first()
    if player is None:
        raise Http404
    group_for(request.user, player.group_id, READ)
    figures = stats.player_stats(str(player.pk), stats.player_records(player))
    body = {"player": {"id": player.pk, "name": player.name,
                       "group": player.group_id}} | figures
    # Only your own figures cross groups: nobody learns about groups they are not in.
    if player.user_id is not None and player.user_id == request.user.pk:
        body["across_groups"] = stats.person_stats(list(stats.linked_players(request.user)))
    return Response(sp.PlayerStatsOut(body).data)


@extend_schema(
    responses={200: sp.PersonStatsOut, 401: s.ErrorOut},
    summary="Your statistics across all your groups",
    description="Every player linked to your account (\"this is me\"), in the groups you "
                "are a member of: the figures of `/players/{id}/stats` over all their "
                "sessions together (rates from the summed counts, money per currency), "
                "and under `groups` each group's own figures. No linked player: zeros and "
                "an empty `groups`.",
)
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
def my_stats(request: Request) -> Response:
    return Response(sp.PersonStatsOut(
        stats.person_stats(list(stats.linked_players(request.user)))).data)
