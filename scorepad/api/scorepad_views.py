"""The scorepad API (API.md): accounts, groups, rosters, sessions, deals, scoreboard.

Thin adapters: access checks in scorepad.access, every change through scorepad.services.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import accounts, services, stats
from scorepad.access import (
    MANAGE,
    READ,
    WRITE,
    check_link,
    group_for,
    poll_for,
    session_for,
    visible_groups,
)
from scorepad.conditional import etag_for, polled
from scorepad.ids import ID_MAX
from scorepad.messages import conflict_message, input_error_message, violation_json
from scorepad.models import Deal, DealEvent, Membership, Player, Session

from . import idempotency
from . import serializers as s
from .errors import validation_response
from .fields import NameField, RulesSpecField, StrictCharField, StrictIntegerField
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import MAX_KEY, idempotent

ERRORS_4XX = {
    400: s.ErrorOut,
    401: s.ErrorOut,
    403: s.ErrorOut,
    404: s.ErrorOut,
}


class GameOut(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    final_scores = serializers.DictField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.CharField())


class ScoreboardOut(serializers.Serializer):  # type: ignore[type-arg]
    game_number = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField())
    next_dealer = serializers.CharField()
    pending_multiplier = serializers.IntegerField()
    pending_factors = serializers.ListField(child=serializers.CharField())
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    games = GameOut(many=True)
    deals = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()


def _input_error(error: services.InputError) -> Response:
    message = input_error_message(error)
    return validation_response({error.field: [message]})


def _violations(session: Session, error: services.RulesBroken) -> Response:
    names = services.Names.of(session)
    return Response(
        {
            "legal": False,
            "number": error.number,
            "violations": [violation_json(names.violation(v)) for v in error.violations],
        },
        status=422,
    )


def _conflict(session: Session, error: services.Conflict) -> Response:
    session.refresh_from_db()
    return Response(
        {
            "detail": conflict_message(error.reason, **error.params),
            "reason": error.reason,
            "scoreboard": services.scoreboard(session),
        },
        status=409,
    )


# --- accounts ---------------------------------------------------------------------------


class RegisterIn(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False)


class UserOut(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenIn(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False)


class TokenOut(serializers.Serializer):  # type: ignore[type-arg]
    token = serializers.CharField()


def _register_key(request: Request, username: str) -> tuple[str, str] | None:
    """(stored key, fingerprint) of a registration's ``Idempotency-Key``. Nobody is logged
    in yet, so the key is filed under the account it creates, hashed and prefixed; the
    fingerprint holds the username only: the password is checked against the account's
    own hash on a replay, never stored a second time."""
    import hashlib

    key = request.headers.get("Idempotency-Key")
    if not key:
        return None
    stored = "register:" + hashlib.sha256(key.encode()).hexdigest()
    return stored, services.fingerprint("register", username.lower())


def _register_replay(found: tuple[str, str] | None, password: str) -> Response | None:
    """The first answer again for a repeat of the same registration with the same key;
    a 400 when the key was used for another registration; None for a new key."""
    if found is None:
        return None
    from scorepad.models import IdempotencyKey

    record = IdempotencyKey.objects.filter(key=found[0]).select_related("user").first()
    if record is None:
        return None
    if record.fingerprint != found[1] or not record.user.check_password(password):
        return idempotency.reused()
    response = Response(record.response, status=record.status)
    response["Idempotent-Replayed"] = "true"
    return response


def too_many_registrations(wait: int) -> Response:
    """429 with Retry-After: this address made its accounts for the hour."""
    response = Response({"detail": accounts.registrations_message(wait)}, status=429)
    response["Retry-After"] = str(wait)
    return response


@extend_schema(request=RegisterIn,
               responses={201: UserOut, 400: s.ErrorOut,
                          429: OpenApiResponse(s.ErrorOut, description="too many new "
                                               "accounts from this address this hour "
                                               "(Retry-After)")},
               parameters=[IDEMPOTENCY], summary="Create an account")
@api_view(["POST"])
@authentication_classes([])  # open: a stale token header must not make it 401
@permission_classes([AllowAny])
def register(request: Request) -> Response:
    from scorepad.models import IdempotencyKey

    key = request.headers.get("Idempotency-Key")
    if key is not None and len(key) > MAX_KEY:
        return idempotency.too_long()
    data = RegisterIn(data=request.data)
    data.is_valid(raise_exception=True)
    username, password = data.validated_data["username"], data.validated_data["password"]
    found = _register_key(request, username)
    replay = _register_replay(found, password)
    if replay is not None:
        return replay
    wait = accounts.registration_wait(request._request)
    if wait is not None:
        return too_many_registrations(wait)
    User = get_user_model()
    username_field = User._meta.get_field("username")
    try:
        username_field.run_validators(username)
    except DjangoValidationError as e:
        return validation_response({"username": list(e.messages)})
    if User.objects.filter(username__iexact=username).exists():
        return validation_response({"username": [_("This username is taken.")]})
    candidate = User(username=username)
    try:
        password_validation.validate_password(password, candidate)
    except DjangoValidationError as e:
        return validation_response({"password": list(e.messages)})
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            body = {"id": user.pk, "username": user.get_username()}
            if found is not None:
                IdempotencyKey.objects.create(user=user, key=found[0], fingerprint=found[1],
                                              status=201, response=body)
            accounts.registration_made(request._request)
    except IntegrityError:  # a twin of this request won the race: its answer, if it is one
        replay = _register_replay(found, password)
        return replay or validation_response({"username": [_("This username is taken.")]})
    return Response(body, status=201)


@extend_schema(request=TokenIn,
               responses={200: TokenOut, 400: s.ErrorOut,
                          429: OpenApiResponse(s.ErrorOut, description="too many wrong "
                                               "passwords for this username and address")},
               summary="Get the API token for an account")
@api_view(["POST"])
@authentication_classes([])  # open: a stale token header must not make it 401
@permission_classes([AllowAny])
def token(request: Request) -> Response:
    from django.contrib.auth import authenticate

    data = TokenIn(data=request.data)
    data.is_valid(raise_exception=True)
    user = authenticate(
        request._request,
        username=data.validated_data["username"],
        password=data.validated_data["password"],
    )
    if user is None:
        return validation_response({"": [_("Wrong username or password.")]})
    key, _created = Token.objects.get_or_create(user=user)
    return Response({"token": key.key})


# --- groups, rosters, members ----------------------------------------------------------------


class GroupIn(serializers.Serializer):  # type: ignore[type-arg]
    name = StrictCharField(max_length=80)


class GroupOut(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField()


class PlayerIn(serializers.Serializer):  # type: ignore[type-arg]
    name = NameField()


class PlayerPatchIn(serializers.Serializer):  # type: ignore[type-arg]
    name = NameField(required=False, help_text="a new name (editors and owners)")
    user = StrictCharField(
        required=False, allow_null=True, max_length=150,
        help_text="the account behind the player: \"me\" (yourself), a member's username "
                  "(editors and owners), or null to unlink. Viewers may link only "
                  "themselves to an unlinked player and unlink only themselves.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError(_("give a new name, a user, or both"))
        return attrs


class PlayerOut(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    user = serializers.CharField(allow_null=True,
                                 help_text="the linked account's username, if any")


def _player_json(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name,
            "user": None if player.user is None else player.user.get_username()}


class MemberIn(serializers.Serializer):  # type: ignore[type-arg]
    username = StrictCharField(max_length=150)
    role = serializers.ChoiceField(Membership.Role.values, required=False)


class MemberOut(serializers.Serializer):  # type: ignore[type-arg]
    username = serializers.CharField()
    role = serializers.CharField()


def _group_json(group: Any, role: str) -> dict[str, Any]:
    return {"id": group.pk, "name": group.name, "role": role}


@extend_schema(methods=["GET"], responses={200: GroupOut(many=True), **ERRORS_4XX},
               summary="Your groups")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=GroupIn, responses={201: GroupOut, **ERRORS_4XX},
               summary="Create a group (you own it)")
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@idempotent
def groups(request: Request) -> Response:
    if request.method == "POST":
        data = GroupIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            group = services.group_create(user=request.user, name=data.validated_data["name"])
        except services.InputError as e:
            return _input_error(e)
        return Response(_group_json(group, Membership.Role.OWNER), status=201)
    memberships = Membership.objects.filter(user=request.user).select_related("group")
    return Response(
        [_group_json(m.group, m.role) for m in memberships.order_by("group__name", "group_id")]
    )


@extend_schema(methods=["GET"], responses={200: PlayerOut(many=True), **ERRORS_4XX},
               summary="The group's roster")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=PlayerIn, responses={201: PlayerOut, **ERRORS_4XX},
               summary="Add a player to the roster")
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@idempotent
def players(request: Request, group_id: int) -> Response:
    if request.method == "POST":
        group = group_for(request.user, group_id, WRITE)
        data = PlayerIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            player = services.player_add(group=group, name=data.validated_data["name"])
        except services.InputError as e:
            return _input_error(e)
        return Response(_player_json(player), status=201)
    group = group_for(request.user, group_id, READ)
    return Response([_player_json(p)
                     for p in group.players.select_related("user").order_by("name")])


@extend_schema(
    methods=["PATCH"],
    parameters=[IDEMPOTENCY], request=PlayerPatchIn, responses={200: PlayerOut, **ERRORS_4XX},
    summary="Rename a player (history keeps pointing at them), or link them to an account",
    description="`{\"user\": \"me\"}` says \"this player is me\", `{\"user\": null}` "
                "undoes it. An account is at most one player of a group (400 naming "
                "`user` otherwise); only members can be linked.")
@api_view(["PATCH"])
@permission_classes([IsAuthenticated])
@idempotent
def player_detail(request: Request, group_id: int, player_id: int) -> Response:
    group = group_for(request.user, group_id, READ)
    player = group.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise Http404
    data = PlayerPatchIn(data=request.data)
    data.is_valid(raise_exception=True)
    changes = data.validated_data
    if "name" in changes:
        group_for(request.user, group_id, WRITE)
    target = None
    if "user" in changes:
        target = _account(request, changes["user"])
        if target is False:
            return validation_response({"user": [_("No account has this username.")]})
        check_link(request.user, player, target)
    try:
        with transaction.atomic():
            if "name" in changes:
                player = services.player_rename(player=player, name=changes["name"])
            if "user" in changes:
                player = services.player_link(player=player, user=target)
    except services.InputError as e:
        return _input_error(e)
    return Response(_player_json(player))


def _account(request: Request, value: str | None) -> Any:
    """The account a ``user`` field names: None for null, False for nobody known."""
    if value is None:
        return None
    if value == "me":
        return request.user
    return get_user_model().objects.filter(username=value).first() or False


@extend_schema(methods=["GET"], responses={200: MemberOut(many=True), **ERRORS_4XX},
               summary="Who may see the group, with their roles")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=MemberIn, responses={201: MemberOut, **ERRORS_4XX},
               summary="Add a member or change a role (owners only)")
@extend_schema(
    methods=["DELETE"],
    parameters=[IDEMPOTENCY], request=MemberIn, responses={204: None, **ERRORS_4XX},
               summary="Remove a member (owners only)")
@api_view(["GET", "POST", "DELETE"])
@permission_classes([IsAuthenticated])
@idempotent
def members(request: Request, group_id: int) -> Response:
    if request.method == "GET":
        group = group_for(request.user, group_id, READ)
        rows = group.memberships.select_related("user").order_by("user__username")
        return Response([{"username": m.user.get_username(), "role": m.role} for m in rows])
    group = group_for(request.user, group_id, MANAGE)
    data = MemberIn(data=request.data)
    data.is_valid(raise_exception=True)
    User = get_user_model()
    user = User.objects.filter(username=data.validated_data["username"]).first()
    if user is None:
        return validation_response({"username": [_("No account has this username.")]})
    try:
        if request.method == "POST":
            role = data.validated_data.get("role", Membership.Role.VIEWER)
            services.member_set(group=group, user=user, role=role, by=request.user)
            return Response({"username": user.get_username(), "role": role}, status=201)
        services.member_remove(group=group, user=user, by=request.user)
    except services.InputError as e:
        return _input_error(e)
    return Response(status=204)


# --- sessions ------------------------------------------------------------------------------


class SessionIn(serializers.Serializer):  # type: ignore[type-arg]
    group = StrictIntegerField(min_value=1, max_value=ID_MAX)
    game = serializers.ChoiceField(Session.Game.values, default=Session.Game.MULATSCHAK)
    rules = RulesSpecField(required=False, default="salzburg")
    seats = serializers.ListField(child=NameField(), min_length=1, max_length=12)
    dealer = NameField(required=False, allow_null=True)
    stake = StrictCharField(required=False, allow_null=True, max_length=40)
    currency = StrictCharField(required=False, allow_null=True, max_length=3)


class SessionPatchIn(serializers.Serializer):  # type: ignore[type-arg]
    status = serializers.ChoiceField(Session.Status.values)


class SessionOut(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    group = serializers.IntegerField()
    game = serializers.CharField()
    preset = serializers.CharField()
    rules = serializers.DictField()
    seats = serializers.ListField(child=serializers.CharField())
    first_dealer = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    scoreboard = ScoreboardOut()


def session_json(session: Session, names: services.Names | None = None) -> dict[str, Any]:
    names = names or services.Names.of(session)
    return {
        "id": session.pk,
        "group": session.group_id,
        "game": session.game,
        "preset": session.preset,
        "rules": session.rules,
        "seats": list(names.by_id.values()),
        "first_dealer": names.to_name(str(session.first_dealer_id)),
        "status": session.status,
        "created_at": session.created_at,
        "closed_at": session.closed_at,
        "scoreboard": services.scoreboard(session, names),
    }


@extend_schema(
    methods=["GET"],
    parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=["open", "closed"])],
    responses={200: SessionOut(many=True), **ERRORS_4XX},
    summary="Sessions of your groups (the newest 200)",
)
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=SessionIn, responses={201: SessionOut, **ERRORS_4XX},
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
        out = []
        for session in rows:
            names = services.Names(
                {str(seat.player_id): seat.player.name for seat in session.seats.all()}
            )
            out.append(session_json(session, names))
        return Response(out)
    data = SessionIn(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    group = group_for(request.user, v["group"], WRITE)
    preset, overrides = v["rules"] if isinstance(v["rules"], tuple) else (v["rules"], {})
    if v["game"] != Session.Game.MULATSCHAK and "rules" not in request.data:
        preset = v["game"]
    try:
        session = services.session_start(
            group=group, user=request.user, preset=preset, overrides=overrides,
            seats=v["seats"], dealer=v.get("dealer"), game=v["game"],
            stake=v.get("stake"), currency=v.get("currency"),
        )
    except services.InputError as e:
        return _input_error(e)
    return Response(session_json(session), status=201)


@extend_schema(methods=["GET"], responses={200: SessionOut, **ERRORS_4XX},
               summary="One session")
@extend_schema(
    methods=["PATCH"],
    parameters=[IDEMPOTENCY], request=SessionPatchIn,
               responses={200: SessionOut, **ERRORS_4XX},
               summary='Close or reopen a session: {"status": "closed"}')
@api_view(["GET", "PATCH"])
@permission_classes([IsAuthenticated])
@idempotent
def session_detail(request: Request, session_id: int) -> Response:
    if request.method == "PATCH":
        session = session_for(request.user, session_id, WRITE)
        data = SessionPatchIn(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_set_status(
            session=session, status=data.validated_data["status"]
        )
        return Response(session_json(session))
    return Response(session_json(session_for(request.user, session_id, READ)))


# --- deals ---------------------------------------------------------------------------------


class SessionDealIn(s.DealIn):
    number = StrictIntegerField(required=False, min_value=1, max_value=1_000_000)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs.get("auction"):
            raise serializers.ValidationError(
                {"auction": [_("is not kept by the scorepad; check it with the referee.")]}
            )
        return attrs


class MuraSessionDealIn(serializers.Serializer):  # type: ignore[type-arg]
    """A Mura deal: tricks and figures per player, or instead ``trick_cards``."""

    tricks = s.CountsField(minimum=-99, required=False)
    figures = s.CountsField(minimum=-99, required=False)
    trick_cards = serializers.ListField(child=s.MuraTrickIn(), required=False, max_length=16)
    number = StrictIntegerField(required=False, min_value=1, max_value=1_000_000)
    version = StrictIntegerField(required=False, min_value=1)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return s.MuraDealRequest.validate(self, attrs)  # type: ignore[arg-type]


class MatzSessionDealIn(serializers.Serializer):  # type: ignore[type-arg]
    """A Müller Matz game: the whole finishing order, or only the loser."""

    finish_order = serializers.ListField(child=NameField(), required=False, max_length=12)
    loser = NameField(required=False)
    number = StrictIntegerField(required=False, min_value=1, max_value=1_000_000)
    version = StrictIntegerField(required=False, min_value=1)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("finish_order" in attrs) == ("loser" in attrs):
            raise serializers.ValidationError(
                {"loser": [_("give the finishing order or the loser, one of them")]}
            )
        return attrs


class MulatschakSessionDealIn(SessionDealIn):
    version = StrictIntegerField(required=False, min_value=1)


DEAL_INPUT: dict[str, Any] = {
    Session.Game.MULATSCHAK: MulatschakSessionDealIn,
    Session.Game.MURA: MuraSessionDealIn,
    Session.Game.MULLER_MATZ: MatzSessionDealIn,
}
DEAL_REQUEST = PolymorphicProxySerializer(
    component_name="SessionDeal",
    serializers=[SessionDealIn, MuraSessionDealIn, MatzSessionDealIn],
    resource_type_field_name=None,
)
DEAL_PUT_REQUEST = PolymorphicProxySerializer(
    component_name="SessionDealCorrection",
    serializers=[MulatschakSessionDealIn, MuraSessionDealIn, MatzSessionDealIn],
    resource_type_field_name=None,
)


class SessionDealOut(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField()
    deal = serializers.DictField()
    dealer = serializers.CharField()
    game_number = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    factors = serializers.ListField(child=serializers.CharField())
    deltas = serializers.DictField(child=serializers.IntegerField())
    scores_after = serializers.DictField(child=serializers.IntegerField())
    reasons = serializers.DictField(child=serializers.CharField())
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())


class DealRecordedOut(serializers.Serializer):  # type: ignore[type-arg]
    deal = SessionDealOut()
    scoreboard = ScoreboardOut()


class DeletedOut(serializers.Serializer):  # type: ignore[type-arg]
    scoreboard = ScoreboardOut()


class ConflictOut(serializers.Serializer):  # type: ignore[type-arg]
    detail = serializers.CharField()
    reason = serializers.CharField()
    scoreboard = ScoreboardOut()


def deal_json(row: Deal, names: services.Names) -> dict[str, Any]:
    result = names.deal_names(row.result)
    if row.session.game != Session.Game.MULATSCHAK:
        return {"number": row.number, "version": row.version, "kind": row.kind,
                "deal": names.deal_names(row.data), "result": result,
                "created_at": row.created_at, "updated_at": row.updated_at}
    return {
        "number": row.number,
        "version": row.version,
        "kind": row.kind,
        "deal": names.deal_names(row.data),
        "dealer": result.get("dealer"),
        "game_number": result.get("game_number"),
        "multiplier": result.get("multiplier"),
        "factors": result.get("factors", []),
        "deltas": result.get("deltas", {}),
        "scores_after": result.get("scores_after", {}),
        "reasons": result.get("reasons", {}),
        "declarer_made": result.get("declarer_made"),
        "game_over": result.get("game_over", False),
        "winners": result.get("winners", []),
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


DEAL_KEYS = {
    Session.Game.MULATSCHAK: ("kind", "knocked", "declarer", "bid", "trump", "stayed_home",
                              "tricks", "exchanged", "muli_breaker"),
    Session.Game.MURA: ("tricks", "figures", "trick_cards"),
    Session.Game.MULLER_MATZ: ("finish_order", "loser"),
}


def _deal_data(session: Session, validated: dict[str, Any],
               names: services.Names) -> dict[str, Any]:
    keys = DEAL_KEYS[session.game]
    return names.deal_ids({k: validated[k] for k in keys if k in validated})


VIOLATIONS_422 = OpenApiResponse(s.ViolationsOut, description="the deal breaks a rule")
CONFLICT_409 = OpenApiResponse(ConflictOut, description="somebody else changed it first")


@extend_schema(methods=["GET"], responses={200: SessionDealOut(many=True), **ERRORS_4XX},
               summary="Every deal of the session")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY],
    request=DEAL_REQUEST,
    responses={201: DealRecordedOut, **ERRORS_4XX, 409: CONFLICT_409, 422: VIOLATIONS_422},
    summary="Record the next deal (dealer and multiplier come from the session)",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@idempotent
def deals(request: Request, session_id: int) -> Response:
    if request.method == "GET":
        session = session_for(request.user, session_id, READ)
        names = services.Names.of(session)
        return Response([deal_json(d, names) for d in session.deals.order_by("number")])
    session = session_for(request.user, session_id, WRITE)
    data = DEAL_INPUT[session.game](data=request.data)
    data.is_valid(raise_exception=True)
    names = services.Names.of(session)
    try:
        row = services.deal_record(
            session=session,
            user=request.user,
            data=_deal_data(session, data.validated_data, names),
            number=data.validated_data.get("number"),
        )
    except services.RulesBroken as e:
        return _violations(session, e)
    except services.Conflict as e:
        return _conflict(session, e)
    except services.InputError as e:
        return _input_error(e)
    session = row.session  # as the write left it (locked, saved): no need to read it again
    return Response(
        {"deal": deal_json(row, names), "scoreboard": services.scoreboard(session, names)},
        status=201,
    )


@extend_schema(methods=["GET"], responses={200: SessionDealOut, **ERRORS_4XX}, summary="One deal")
@extend_schema(
    methods=["PUT"],
    parameters=[IDEMPOTENCY],
    request=DEAL_PUT_REQUEST,
    responses={200: DealRecordedOut, **ERRORS_4XX, 409: CONFLICT_409, 422: VIOLATIONS_422},
    summary="Correct a deal; everything after it is recomputed",
)
@extend_schema(
    methods=["DELETE"],
    parameters=[IDEMPOTENCY],
    responses={200: DeletedOut, **ERRORS_4XX, 409: CONFLICT_409, 422: VIOLATIONS_422},
    summary="Remove a deal; everything after it is recomputed (the history keeps it)",
)
@api_view(["GET", "PUT", "DELETE"])
@permission_classes([IsAuthenticated])
@idempotent
def deal_detail(request: Request, session_id: int, number: int) -> Response:
    need = READ if request.method == "GET" else WRITE
    session = session_for(request.user, session_id, need)
    names = services.Names.of(session)
    row = session.deals.filter(number=number).first()
    if row is None:
        raise Http404
    if request.method == "GET":
        return Response(deal_json(row, names))
    try:
        if request.method == "PUT":
            data = DEAL_INPUT[session.game](data=request.data)
            data.is_valid(raise_exception=True)
            row = services.deal_correct(
                session=session,
                user=request.user,
                number=number,
                data=_deal_data(session, data.validated_data, names),
                version=data.validated_data.get("version"),
            )
        else:
            services.deal_delete(session=session, user=request.user, number=number)
    except services.RulesBroken as e:
        return _violations(session, e)
    except services.Conflict as e:
        return _conflict(session, e)
    except services.InputError as e:
        return _input_error(e)
    except Deal.DoesNotExist:
        raise Http404 from None
    session.refresh_from_db()
    board = services.scoreboard(session, names)
    if request.method == "DELETE":
        return Response({"scoreboard": board})
    return Response({"deal": deal_json(row, names), "scoreboard": board})


@extend_schema(responses={200: ScoreboardOut, 304: None, **ERRORS_4XX},
               summary="The running scoreboard (supports ETag / If-None-Match)")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def scoreboard(request: Request, session_id: int) -> Any:
    version, _role = poll_for(request.user, session_id, READ)

    def build() -> tuple[str, bytes, str]:
        session = session_for(request.user, session_id, READ)
        return (services.scoreboard_etag(session), _json(services.scoreboard(session)),
                "application/json")

    return polled(request, etag_for(int(session_id), version), build)


def _json(data: Any) -> bytes:
    return bytes(JSONRenderer().render(data))


class EventOut(serializers.Serializer):  # type: ignore[type-arg]
    deal_number = serializers.IntegerField()
    action = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    imported = serializers.BooleanField()
    at = serializers.DateTimeField()
    before = serializers.DictField(allow_null=True)
    after = serializers.DictField(allow_null=True)


@extend_schema(responses={200: EventOut(many=True), **ERRORS_4XX},
               summary="Every change to the session's deals: who, when, before, after")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def history(request: Request, session_id: int) -> Response:
    session = session_for(request.user, session_id, READ)
    names = services.Names.of(session)
    events = DealEvent.objects.filter(session=session).select_related("user")
    return Response(
        [
            {
                "deal_number": e.deal_number,
                "action": e.action,
                "user": e.who,
                "imported": e.imported,
                "at": e.at,
                "before": names.deal_names(e.before) if e.before else None,
                "after": names.deal_names(e.after) if e.after else None,
            }
            for e in events
        ]
    )


class WatchLinkOut(serializers.Serializer):  # type: ignore[type-arg]
    token = serializers.CharField()
    url = serializers.CharField()


@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY],
    request=None,
    responses={200: WatchLinkOut, **ERRORS_4XX},
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
        services.watch_link_revoke(session=session)
        return Response(status=204)
    token = services.watch_link_create(session=session)
    url = request.build_absolute_uri(reverse("scorepad:watch", kwargs={"token": token}))
    response = Response({"token": token, "url": url})
    response["Cache-Control"] = "no-store"
    return response


@extend_schema(responses={200: ScoreboardOut, 304: None, 404: s.ErrorOut},
               summary="The scoreboard by watch token, no login")
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def watch_scoreboard(request: Request, token: str) -> Any:
    found = services.watch_version(token)
    if found is None:
        raise Http404

    def build() -> tuple[str, bytes, str]:
        try:
            session = services.session_by_watch_token(token)
        except Session.DoesNotExist:
            raise Http404 from None
        return (services.scoreboard_etag(session, "watch-api"),
                _json(services.scoreboard(session)), "application/json")

    return polled(request, etag_for(*found, "watch-api"), build, secret_url=True)


class SessionSettlementOut(serializers.Serializer):  # type: ignore[type-arg]
    game = serializers.CharField()
    stake = serializers.CharField(allow_null=True)
    currency = serializers.CharField(allow_null=True)
    balances = serializers.DictField(child=serializers.CharField())
    pairs = s.TransferOut(many=True)
    transfers = s.TransferOut(many=True)
    penalties = serializers.DictField(required=False)


@extend_schema(responses={200: SessionSettlementOut, **ERRORS_4XX},
               summary="Who pays whom: balances, transfers and (Mura) pair amounts")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def settlement(request: Request, session_id: int) -> Response:
    session = session_for(request.user, session_id, READ)
    return Response(services.settlement(session))


class BidStatsOut(serializers.Serializer):  # type: ignore[type-arg]
    declared = serializers.IntegerField()
    made = serializers.IntegerField()
    fallen = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True)


class MulatschakStatsOut(serializers.Serializer):  # type: ignore[type-arg]
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    deals_seated = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    deals_declared = serializers.IntegerField()
    deals_made = serializers.IntegerField()
    deals_fallen = serializers.IntegerField()
    made_rate = serializers.FloatField(allow_null=True)
    by_bid = serializers.DictField(child=BidStatsOut())
    muli_tried = serializers.IntegerField()
    muli_made = serializers.IntegerField()
    stayed_home = serializers.IntegerField()
    hearts_deals = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_deal = serializers.FloatField(allow_null=True)
    biggest_multiplier_survived = serializers.IntegerField(allow_null=True)
    biggest_multiplier_played = serializers.IntegerField(allow_null=True)


class MuraStatsOut(serializers.Serializer):  # type: ignore[type-arg]
    sessions = serializers.IntegerField()
    deals = serializers.IntegerField()
    mura = serializers.IntegerField()
    zeros = serializers.IntegerField()
    mura_per_deal = serializers.FloatField(allow_null=True)
    zeros_per_deal = serializers.FloatField(allow_null=True)


class MatzStatsOut(serializers.Serializer):  # type: ignore[type-arg]
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    mm_losses = serializers.IntegerField()
    loss_rate = serializers.FloatField(allow_null=True)


class FiguresOut(serializers.Serializer):  # type: ignore[type-arg]
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    deals_declared = serializers.IntegerField()
    deals_made = serializers.IntegerField()
    muli_tried = serializers.IntegerField()
    muli_made = serializers.IntegerField()
    stayed_home = serializers.IntegerField()
    mura = serializers.IntegerField()
    zeros = serializers.IntegerField()
    mm_losses = serializers.IntegerField()
    mulatschak = MulatschakStatsOut()
    mura_stats = MuraStatsOut()
    muller_matz = MatzStatsOut()
    money = serializers.DictField(child=serializers.CharField(),
                                  help_text="Net balance per currency, as decimal strings")


class IdNameOut(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()


class GroupFiguresOut(FiguresOut):
    group = IdNameOut()
    player = IdNameOut()


class PersonStatsOut(FiguresOut):
    groups = GroupFiguresOut(many=True, help_text="The same figures of each linked player, "
                                                  "in their group")


class PlayerStatsOut(FiguresOut):
    player = serializers.DictField()
    across_groups = PersonStatsOut(
        required=False,
        help_text="Only when the player is linked to your own account: your figures over "
                  "every group you are a member of (as GET /api/v1/me/stats).")


@extend_schema(
    responses={200: PlayerStatsOut, **ERRORS_4XX},
    summary="A player's statistics over every session of their group they sat at",
    description="Derived from the stored deals (see README, 'Looking back'). The top-level "
                "names sum the game families; `mulatschak`, `mura_stats` and `muller_matz` "
                "hold each family's figures. A player linked to your own account also "
                "carries `across_groups`.",
)
@api_view(["GET"])
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
    return Response(body)


@extend_schema(
    responses={200: PersonStatsOut, 401: s.ErrorOut},
    summary="Your statistics across all your groups",
    description="Every player linked to your account (\"this is me\"), in the groups you "
                "are a member of: the figures of `/players/{id}/stats` over all their "
                "sessions together (rates from the summed counts, money per currency), "
                "and under `groups` each group's own figures. No linked player: zeros and "
                "an empty `groups`.",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def my_stats(request: Request) -> Response:
    return Response(stats.person_stats(list(stats.linked_players(request.user))))
