"""Sessions, their deals, scoreboards, history, watch links and money (docs/api.md,
"The scorepad API").

Thin adapters: access checks in scorepad.access, every change through scorepad.services
(watch links through scorepad.sharing), which take the request's data as it is and check
it themselves; every answer through the serializer of the session's game
(``scorepad_serializers.for_game``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import games, services, sharing
from scorepad.access import (
    READ,
    WRITE,
    group_for,
    pk_of,
    poll_row,
    session_for,
    visible_groups,
)
from scorepad.cache import grants
from scorepad.cache.answers import etag_for, polled
from scorepad.loaded import Loaded, Names
from scorepad.messages import conflict_message, violation_json
from scorepad.models import DealEvent, Session

from . import referee_serializers as s
from . import scorepad_serializers as sp
from .errors import invalid, validation_response
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import idempotent
from .scorepad_serializers import CONFLICT_409, ERRORS_4XX, VIOLATIONS_422


def session_out(loaded: Loaded) -> dict[str, Any]:
    """A session as the API shows it (GET /sessions/{id}/), its scoreboard included."""
    session, names = loaded.session, loaded.names
    return sp.for_game(games.of(session)).session({
        "id": session.pk,
        "group": session.group_id,
        "game": session.game,
        "preset": session.preset,
        "rules": session.rules,
        "seats": list(names.by_id.values()),
        "first_dealer": names.to_name(str(session.first_dealer_id)),
        "status": session.status,
        "name": session.name,
        "date": session.date,
        "note": session.note,
        "created_at": session.created_at,
        "closed_at": session.closed_at,
        "scoreboard": services.scoreboard(loaded),
    }).data


def _violations(loaded: Loaded, error: services.RulesBroken) -> Response:
    wording = games.of(loaded.session).WORDING
    body = {"legal": False, "number": error.number,
            "violations": [violation_json(loaded.names.violation(v), wording)
                           for v in error.violations]}
    return Response(sp.DealViolationsOut(body).data, status=422)


def _conflict(loaded: Loaded, game: games.Game, error: services.Conflict) -> Response:
    loaded.session.refresh_from_db()
    fresh = loaded.with_row(loaded.session)
    body = {"detail": conflict_message(error.reason, **error.params), "reason": error.reason,
            "scoreboard": services.scoreboard(fresh)}
    return Response(sp.for_game(game).conflict(body).data, status=409)


def _json(data: Any) -> bytes:
    return bytes(JSONRenderer().render(data))


# --- sessions ------------------------------------------------------------------------------


@extend_schema(
    methods=["GET"],
    parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=["open", "closed"])],
    responses={200: sp.SESSIONS, **ERRORS_4XX},
    summary="Sessions of your groups (the newest 200)",
)
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=sp.SessionIn, responses={201: sp.SESSION, **ERRORS_4XX},
    summary="Start a session: rules frozen, players seated clockwise")
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@idempotent
def sessions(request: Request) -> Response:
    if request.method == "GET":
        rows = Session.objects.filter(group__in=visible_groups(request.user))
        status = request.query_params.get("status")
        if status is not None:
            if status not in Session.Status.values:
                return validation_response({"status": [_("must be open or closed")]})
            rows = rows.filter(status=status)
        rows = rows.annotate(last_number=Max("deals__number")).prefetch_related(
            "seats__player")[:200]
        return Response([
            session_out(Loaded(session, Names({str(seat.player_id): seat.player.name
                                               for seat in session.seats.all()}),
                               last_number=session.last_number))
            for session in rows
        ])
    data = sp.SessionIn(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    group = group_for(request.user, v["group"], WRITE)
    preset, overrides = v.get("rules") or (None, None)  # none given: the game's default
    try:
        session = services.session_start(
            group=group, user=request.user, preset=preset, overrides=overrides,
            seats=v["seats"], dealer=v.get("dealer"), game=v["game"],
            stake=v.get("stake"), currency=v.get("currency"),
            name=v.get("name"), date=v.get("date"), note=v.get("note"),
        )
    except services.InputError as e:
        raise invalid(e) from e
    return Response(session_out(Loaded.of(session)), status=201)


@extend_schema(methods=["GET"], responses={200: sp.SESSION, **ERRORS_4XX},
               summary="One session")
@extend_schema(
    methods=["PATCH"],
    parameters=[IDEMPOTENCY], request=sp.SessionPatchIn,
    responses={200: sp.SESSION, **ERRORS_4XX},
    summary='Close or reopen a session ({"status": "closed"}); name it, date it, note it')
@api_view(["GET", "PATCH"])
@permission_classes([IsAuthenticated])
@idempotent
def session_detail(request: Request, session_id: int) -> Response:
    if request.method == "PATCH":
        session = session_for(request.user, session_id, WRITE)
        data = sp.SessionPatchIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        about = {k: v[k] for k in ("name", "date", "note") if k in v}
        try:  # the name, date and note are checked first: a refusal changes nothing
            if about:
                session = services.session_describe(session=session, **about)
        except services.InputError as e:
            raise invalid(e) from e
        if "status" in v:
            session = services.session_set_status(session=session, status=v["status"],
                                                  user=request.user)
        return Response(session_out(Loaded.of(session)))
    return Response(session_out(Loaded.of(session_for(request.user, session_id, READ))))


# --- deals ---------------------------------------------------------------------------------


def _guard(body: object, name: str) -> object:
    """The ``number`` or ``version`` the client sent with the deal (the service checks it)."""
    return body.get(name) if isinstance(body, dict) else None


@extend_schema(methods=["GET"], responses={200: sp.DEALS, **ERRORS_4XX},
               summary="Every deal of the session")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY],
    request=sp.DEAL_POST,
    responses={201: sp.DEAL_RECORDED, **ERRORS_4XX,
               409: CONFLICT_409, 422: VIOLATIONS_422},
    summary="Record the next deal (dealer and multiplier come from the session)",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@idempotent
def deals(request: Request, session_id: int) -> Response:
    if request.method == "GET":
        loaded = Loaded.of(session_for(request.user, session_id, READ))
        game = games.of(loaded.session)
        shape = sp.for_game(game).deal
        return Response([shape(game.deal_out(d, loaded.names)).data
                         for d in loaded.session.deals.order_by("number")])
    # The access check is made on the locked row itself (services.deal_record): the
    # token from the cache, the seats with the lock. The answer is made with the write,
    # and its scoreboard cached under the next GET's ETag with the new version.
    made: dict[str, Any] = {}

    def answer(row: Any, after: Loaded) -> dict[str, Any]:  # as the write left it
        game = games.of(row.session)
        body = {"deal": game.deal_out(row, after.names),
                "scoreboard": services.scoreboard(after)}
        made["out"] = out = sp.for_game(game).recorded(body).data
        return {"board:" + etag_for(row.session.pk, row.session.version):
                (_json(out["scoreboard"]), "application/json")}

    try:
        services.deal_record(session=pk_of(session_id), user=request.user,
                             data=request.data, number=_guard(request.data, "number"),
                             answer=answer)
    except services.RulesBroken as e:
        return _violations(Loaded.of(session_for(request.user, session_id, WRITE)), e)
    except services.Conflict as e:
        loaded = Loaded.of(session_for(request.user, session_id, WRITE))
        return _conflict(loaded, games.of(loaded.session), e)
    except services.InputError as e:
        raise invalid(e) from e
    except services.NotFound:
        raise Http404 from None
    return Response(made["out"], status=201)


@extend_schema(methods=["GET"], responses={200: sp.DEAL, **ERRORS_4XX}, summary="One deal")
@extend_schema(
    methods=["PUT"],
    parameters=[IDEMPOTENCY],
    request=sp.DEAL_PUT,
    responses={200: sp.DEAL_RECORDED, **ERRORS_4XX,
               409: CONFLICT_409, 422: VIOLATIONS_422},
    summary="Correct a deal; everything after it is recomputed",
)
@extend_schema(
    methods=["DELETE"],
    parameters=[IDEMPOTENCY],
    responses={200: sp.DEAL_DELETED, **ERRORS_4XX,
               409: CONFLICT_409, 422: VIOLATIONS_422},
    summary="Remove a deal; everything after it is recomputed (the history keeps it)",
)
@api_view(["GET", "PUT", "DELETE"])
@permission_classes([IsAuthenticated])
@idempotent
def deal_detail(request: Request, session_id: int, number: int) -> Response:
    need = READ if request.method == "GET" else WRITE
    loaded = Loaded.of(session_for(request.user, session_id, need))
    game = games.of(loaded.session)
    shapes = sp.for_game(game)
    row = loaded.session.deals.filter(number=number).first()
    if row is None:
        raise Http404
    if request.method == "GET":
        return Response(shapes.deal(game.deal_out(row, loaded.names)).data)
    try:
        if request.method == "PUT":
            row = services.deal_correct(session=loaded, user=request.user, number=number,
                                        data=request.data,
                                        version=_guard(request.data, "version"))
        else:
            services.deal_delete(session=loaded, user=request.user, number=number)
    except services.RulesBroken as e:
        return _violations(loaded, e)
    except services.Conflict as e:
        return _conflict(loaded, game, e)
    except services.InputError as e:
        raise invalid(e) from e
    except services.NotFound:
        raise Http404 from None
    loaded.session.refresh_from_db()
    board = services.scoreboard(loaded.with_row(loaded.session))
    if request.method == "DELETE":
        return Response(shapes.deleted({"scoreboard": board}).data)
    return Response(shapes.recorded({"deal": game.deal_out(row, loaded.names),
                                     "scoreboard": board}).data)


# --- reading: scoreboard, history, money ---------------------------------------------------------


def _board_json(session: Session, games_page: int = 1) -> bytes:
    loaded = Loaded.of(session)
    board = services.scoreboard(loaded, games_page=games_page)
    return _json(sp.for_game(games.of(session)).board(board).data)


def _board_parts(games_page: int) -> tuple[str, ...]:
    return () if games_page == 1 else (f"gp{games_page}",)


GAMES_PAGE = OpenApiParameter(
    "games_page", {"type": "integer", "minimum": 1, "maximum": services.GAMES_PAGE_MAX},
    description="Where the game lists finished games: which page of them the scoreboard lists "
    f"({services.GAMES_PER_PAGE} a page; 1, the default, is the most recent; "
    "games_total and games_pages say how many there are).")


@extend_schema(parameters=[GAMES_PAGE], responses={200: sp.BOARD, 304: None, **ERRORS_4XX},
               summary="The running scoreboard (supports ETag / If-None-Match)")
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
def scoreboard(request: Request, session_id: int) -> Any:
    """From the cache in the common case: the token, the member's role (while their
    access generations hold) and the session's version, and the rendered answer per
    version (answers.polled): a 304, and a 200 of a version somebody asked for
    before, cost no query."""
    pk = pk_of(session_id)
    try:
        page = services.games_page_of(request.query_params.get("games_page"))
    except services.InputError as e:
        raise invalid(e) from e
    ahead = getattr(request.successful_authenticator, "ahead", None)  # the token's check
    version, _role = grants.member(request.user, pk,
                                     lambda: poll_row(request.user, pk, READ), ahead)
    parts = _board_parts(page)

    def build() -> tuple[str, bytes, str]:
        session = Session.objects.filter(pk=pk).first()  # the role was checked above
        if session is None:
            raise Http404
        return (services.scoreboard_etag(session, *parts), _board_json(session, page),
                "application/json")

    return polled(request, etag_for(pk, version, *parts), build)


@extend_schema(responses={200: sp.EventOut(many=True), **ERRORS_4XX},
               summary="Every change to the session's deals: who, when, before, after")
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
def history(request: Request, session_id: int) -> Response:
    session = session_for(request.user, session_id, READ)
    names = Names.of(session)
    events = DealEvent.objects.filter(session=session).select_related("user")
    return Response(
        [
            sp.EventOut({
                "deal_number": e.deal_number,
                "action": e.action,
                "user": e.who,
                "imported": e.imported,
                "at": e.at,
                "before": names.deal_names(e.before) if e.before else None,
                "after": names.deal_names(e.after) if e.after else None,
            }).data
            for e in events
        ]
    )


@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY],
    request=None,
    responses={200: sp.WatchLinkOut, **ERRORS_4XX},
    summary="A read-only link to the live scoreboard (made if there is none)",
)
@extend_schema(
    methods=["DELETE"],
    parameters=[IDEMPOTENCY],
    responses={204: None, **ERRORS_4XX},
    summary="Revoke the watch link: it shows nothing any more",
)
@api_view(["POST", "DELETE"])
@permission_classes([IsAuthenticated])
@idempotent
def watch_link(request: Request, session_id: int) -> Response:
    session = session_for(request.user, session_id, WRITE)
    if request.method == "DELETE":
        sharing.watch_link_revoke(session=session)
        return Response(status=204)
    token = sharing.watch_link_create(session=session)
    url = request.build_absolute_uri(reverse("scorepad:watch", kwargs={"token": token}))
    response = Response(sp.WatchLinkOut({"token": token, "url": url}).data)
    response["Cache-Control"] = "no-store"
    return response


@extend_schema(responses={200: sp.BOARD, 304: None, 404: s.ErrorOut},
               summary="The scoreboard by watch token, no login")
@api_view(["GET", "HEAD"])
@authentication_classes([])
@permission_classes([AllowAny])
def watch_scoreboard(request: Request, token: str) -> Any:
    found = sharing.watch_version(token)
    if found is None:
        raise Http404

    def build() -> tuple[str, bytes, str]:
        try:
            session = sharing.session_by_watch_token(token)
        except Session.DoesNotExist:
            raise Http404 from None
        return (services.scoreboard_etag(session, "watch-api"), _board_json(session),
                "application/json")

    return polled(request, etag_for(*found, "watch-api"), build, secret_url=True)


@extend_schema(responses={200: sp.SETTLEMENT, **ERRORS_4XX},
               summary="Who pays whom: balances, transfers and (where the game has them) pair "
                       "amounts")
@api_view(["GET", "HEAD"])
@permission_classes([IsAuthenticated])
def settlement(request: Request, session_id: int) -> Response:
    loaded = Loaded.of(session_for(request.user, session_id, READ))
    body = services.settlement(loaded)
    return Response(sp.for_game(games.of(loaded.session)).settlement(body).data)
