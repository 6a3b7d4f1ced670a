"""Looking back through the API: a player's statistics, and one's own across groups."""

from __future__ import annotations

from django.http import Http404
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import games, ratings, services, stats
from scorepad.access import READ, group_for
from scorepad.messages import input_error_message
from scorepad.models import Player

from . import referee_serializers as s
from . import scorepad_serializers as sp
from .auth import AccountRequired
from .errors import validation_response
from .scorepad_serializers import ERRORS_4XX


@extend_schema(
    responses={200: sp.PlayerStatsOut, **ERRORS_4XX},
    summary="A player's statistics over every session of their group they sat at",
    description=lazy(lambda: (
        "Derived from the stored deals (see docs/using.md, 'Looking back'). The top-level "
        "names sum the game families; " + ", ".join(f"`{g.STATS_KEY}`" for g in games.registered())
        + " hold each family's figures. A player linked to your own account also carries "
        "`across_groups`."), str)(),
)
@api_view(["GET", "HEAD"])
@permission_classes([AccountRequired])
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
@permission_classes([AccountRequired])
def my_stats(request: Request) -> Response:
    return Response(sp.PersonStatsOut(
        stats.person_stats(list(stats.linked_players(request.user)))).data)


@extend_schema(
    parameters=[
        OpenApiParameter("game", OpenApiTypes.STR, enum=games.names(),
                         description="the game family (default: the first the site "
                                     "offers)"),
        OpenApiParameter("since", OpenApiTypes.DATE,
                         description="the season's first day (YYYY-MM-DD): only games of "
                                     "sessions dated from then on count, rated from a "
                                     "fresh start; default: all time"),
    ],
    responses={200: sp.RatingsOut, **ERRORS_4XX},
    summary="The group's ratings in one game family over a season",
    description="A multiplayer rating per player (docs/rules.md, \"Ratings\"): the "
                f"{ratings.MODEL} model of the {ratings.LIBRARY} library, updated by the "
                "places of every finished game in the order they were played, recomputed "
                "whenever a correction changes a game. `rating` is the conservative "
                "estimate μ − 3σ (0 before any game); `games` the player's rated games; "
                f"`trend` the rating's change over their last {ratings.TREND_GAMES} "
                "games. Highest rating first. Members of the group only (others: 404).",
)
@api_view(["GET", "HEAD"])
@permission_classes([AccountRequired])
def group_ratings(request: Request, group_id: int) -> Response:
    group = group_for(request.user, group_id, READ)
    game = request.query_params.get("game", games.default())
    problems: dict[str, list[str]] = {}
    if game not in games.names():
        problems["game"] = [_("must be one of: %(choices)s")
                            % {"choices": ", ".join(games.names())}]
    since = None
    raw = request.query_params.get("since")
    if raw is not None:
        try:
            since = services.clean_session_date(raw)
        except services.InputError as e:
            problems["since"] = [input_error_message(e)]
    if problems:
        return validation_response(problems)
    found = ratings.group_ratings(group, game, since)
    return Response(sp.RatingsOut({
        "game": game, "model": ratings.MODEL_NAME, "since": since,
        "games": len(found.dates),
        "ratings": ratings.table(found, ratings.names_of(group)),
    }).data)
