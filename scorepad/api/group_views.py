"""Groups, their rosters, members and invitations: thin adapters, access checks in
scorepad.access, every change through scorepad.rosters (groups, players, members) and
scorepad.sharing (invitations). Nobody becomes a member without consenting: adding an
account that is not a member invites it (202), and it joins when it accepts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import rosters, services, sharing
from scorepad.access import MANAGE, READ, WRITE, check_link, group_for, visible_groups
from scorepad.fields import USERNAME_SCHEMA
from scorepad.models import Invitation, Membership, Player

from . import scorepad_serializers as sp
from .auth import AccountRequired
from .errors import invalid, validation_response
from .idempotency import HEADER as IDEMPOTENCY
from .idempotency import idempotent
from .scorepad_serializers import ERRORS_4XX


def _player_out(player: Player) -> dict[str, Any]:
    return sp.PlayerOut({"id": player.pk, "name": player.name,
                         "user": None if player.user is None
                         else player.user.get_username(),
                         "category": player.category or None}).data


def _group_out(group: Any, role: str) -> dict[str, Any]:
    return sp.GroupOut({"id": group.pk, "name": group.name, "role": role}).data


@extend_schema(methods=["GET"], responses={200: sp.GroupOut(many=True), **ERRORS_4XX},
               summary="Your groups")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=sp.GroupIn, responses={201: sp.GroupOut, **ERRORS_4XX},
    summary="Create a group (you own it)")
@api_view(["GET", "POST"])
@permission_classes([AccountRequired])
@idempotent
def groups(request: Request) -> Response:
    if request.method == "POST":
        data = sp.GroupIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            group = rosters.group_create(user=request.user, name=data.validated_data["name"])
        except services.InputError as e:
            raise invalid(e) from e
        return Response(_group_out(group, Membership.Role.OWNER), status=201)
    memberships = Membership.objects.filter(user=request.user).select_related("group")
    return Response(
        [_group_out(m.group, m.role) for m in memberships.order_by("group__name", "group_id")]
    )


@extend_schema(methods=["GET"], responses={200: sp.PlayerOut(many=True), **ERRORS_4XX},
               summary="The group's roster")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=sp.PlayerIn, responses={201: sp.PlayerOut, **ERRORS_4XX},
    summary="Add a player to the roster")
@api_view(["GET", "POST"])
@permission_classes([AccountRequired])
@idempotent
def players(request: Request, group_id: int) -> Response:
    if request.method == "POST":
        group = group_for(request.user, group_id, WRITE)
        data = sp.PlayerIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            player = rosters.player_add(group=group, name=data.validated_data["name"])
        except services.InputError as e:
            raise invalid(e) from e
        return Response(_player_out(player), status=201)
    group = group_for(request.user, group_id, READ)
    return Response([_player_out(p)
                     for p in group.players.select_related("user").order_by("name")])


PLAYER_PATCH = extend_schema(
    methods=["PATCH"],
    parameters=[IDEMPOTENCY], request=sp.PlayerPatchIn,
    responses={200: sp.PlayerOut, **ERRORS_4XX},
    summary="Rename a player (history keeps pointing at them), link them to an account, "
            "or give them a category",
    description="`{\"user\": \"me\"}` says \"this player is me\", `{\"user\": null}` "
                "undoes it. An account is at most one player of a group (400 naming "
                "`user` otherwise); only members can be linked. `category` (1–20 "
                "characters, null for none; editors and owners): a ranking of its own in "
                "tournaments (docs/tournaments.md, \"Categories\").")


@PLAYER_PATCH
@api_view(["PATCH"])
@permission_classes([AccountRequired])
@idempotent
def player_detail(request: Request, group_id: int, player_id: int) -> Response:
    group = group_for(request.user, group_id, READ)
    player = group.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise Http404
    return _player_patch(request, player)


@extend_schema(methods=["GET"], responses={200: sp.PlayerOut, **ERRORS_4XX},
               summary="A player of one of your groups' rosters")
@PLAYER_PATCH
@api_view(["GET", "PATCH"])
@permission_classes([AccountRequired])
@idempotent
def roster_player(request: Request, player_id: int) -> Response:
    """A roster player by its id alone (its group's members only: 404 for others)."""
    player = (Player.objects.select_related("user")
              .filter(pk=player_id, group__in=visible_groups(request.user)).first())
    if player is None:
        raise Http404
    if request.method == "GET":
        return Response(_player_out(player))
    return _player_patch(request, player)


def _player_patch(request: Request, player: Player) -> Response:
    data = sp.PlayerPatchIn(data=request.data)
    data.is_valid(raise_exception=True)
    changes = data.validated_data
    if "name" in changes or "category" in changes:
        group_for(request.user, player.group_id, WRITE)
    target = None
    if "user" in changes:
        target = _account(request, changes["user"])
        if target is False:
            return validation_response({"user": [_("No account has this username.")]})
        check_link(request.user, player, target)
    try:
        player = rosters.player_change(
            player=player, name=changes.get("name", rosters.UNCHANGED),
            user=target if "user" in changes else rosters.UNCHANGED,
            category=changes.get("category", rosters.UNCHANGED))
    except services.InputError as e:
        raise invalid(e) from e
    return Response(_player_out(player))


def _account(request: Request, value: str | None) -> Any:
    """The account a ``user`` field names: None for null, False for nobody known."""
    if value is None:
        return None
    if value == "me":
        return request.user
    return get_user_model().objects.filter(username=value).first() or False


@extend_schema(methods=["GET"], responses={200: sp.MemberOut(many=True), **ERRORS_4XX},
               summary="Who may see the group, with their roles")
@extend_schema(
    methods=["POST"],
    parameters=[IDEMPOTENCY], request=sp.MemberIn,
    responses={200: OpenApiResponse(sp.MemberOut, description="a member's role changed"),
               202: OpenApiResponse(sp.InvitationSentOut,
                                    description="the account is invited; it joins only "
                                                "when it accepts"),
               **ERRORS_4XX},
    summary="Invite an account, or change a member's role (owners only)",
    description="Nobody becomes a member without consenting: an account that is not a "
                "member is invited (202, pending for 7 days; inviting it again renews the "
                "invitation) and joins when it accepts (`POST /api/v1/invitations/{id}/"
                "accept`). For a member the role changes at once (200). `username`: at "
                "most 150 characters; `role`: owner, editor or viewer (default viewer).")
@extend_schema(
    methods=["DELETE"],
    parameters=[IDEMPOTENCY, OpenApiParameter(
        "username", USERNAME_SCHEMA, required=True,
        description="the member to remove (a JSON body {\"username\"} is taken too)")],
    request=None, responses={204: None, **ERRORS_4XX},
    summary="Remove a member (owners only)")
@api_view(["GET", "POST", "DELETE"])
@permission_classes([AccountRequired])
@idempotent
def members(request: Request, group_id: int) -> Response:
    if request.method == "GET":
        group = group_for(request.user, group_id, READ)
        rows = group.memberships.select_related("user").order_by("user__username")
        return Response([sp.MemberOut({"username": m.user.get_username(), "role": m.role}).data
                         for m in rows])
    group = group_for(request.user, group_id, MANAGE)
    asked = request.data
    if request.method == "DELETE" and "username" in request.query_params:
        asked = {"username": request.query_params["username"]}
    data = sp.MemberIn(data=asked)
    data.is_valid(raise_exception=True)
    user = get_user_model().objects.filter(username=data.validated_data["username"]).first()
    if user is None:
        return validation_response({"username": [_("No account has this username.")]})
    try:
        if request.method == "POST":
            role = data.validated_data.get("role", Membership.Role.VIEWER)
            added = sharing.member_add(group=group, user=user, role=role, by=request.user)
            if isinstance(added, Invitation):
                return Response(sp.InvitationSentOut({"invitation": invitation_out(added)}
                                                     ).data, status=202)
            return Response(sp.MemberOut({"username": user.get_username(), "role": added.role}
                                         ).data)
        rosters.member_remove(group=group, user=user, by=request.user)
    except services.InputError as e:
        raise invalid(e) from e
    return Response(status=204)


def invitation_out(invitation: Invitation) -> dict[str, Any]:
    """An invitation as the API shows it (to its owner and to the invited account)."""
    return sp.InvitationOut({
        "id": invitation.pk,
        "group": {"id": invitation.group.pk, "name": invitation.group.name},
        "username": invitation.user.get_username(),
        "role": invitation.role,
        "invited_by": None if invitation.invited_by is None
        else invitation.invited_by.get_username(),
        "expires": invitation.expires_at,
    }).data


@extend_schema(responses={200: sp.InvitationOut(many=True), **ERRORS_4XX},
               summary="The group's pending invitations (owners only)")
@api_view(["GET"])
@permission_classes([AccountRequired])
def group_invitations(request: Request, group_id: int) -> Response:
    group = group_for(request.user, group_id, MANAGE)
    return Response([invitation_out(i) for i in sharing.invitations_to(group)])


@extend_schema(parameters=[IDEMPOTENCY], request=None, responses={204: None, **ERRORS_4XX},
               summary="Revoke a pending invitation (owners only)",
               description="404 when the group has no such pending invitation (accepted, "
                           "declined, expired or revoked already).")
@api_view(["DELETE"])
@permission_classes([AccountRequired])
@idempotent
def group_invitation(request: Request, group_id: int, invitation_id: int) -> Response:
    group = group_for(request.user, group_id, MANAGE)
    try:
        sharing.invitation_revoke(group=group, invitation_id=invitation_id, by=request.user)
    except services.NotFound:
        raise Http404 from None
    return Response(status=204)


@extend_schema(responses={200: sp.InvitationOut(many=True), **ERRORS_4XX},
               summary="Your pending invitations")
@api_view(["GET"])
@permission_classes([AccountRequired])
def invitations(request: Request) -> Response:
    return Response([invitation_out(i) for i in sharing.invitations_of(request.user)])


@extend_schema(parameters=[IDEMPOTENCY], request=None,
               responses={200: sp.MembershipOut, **ERRORS_4XX},
               summary="Accept an invitation: you join the group with its role",
               description="Only the invited account; 404 for an invitation accepted, "
                           "declined, revoked or expired already, and for anybody else's. "
                           "A member keeps a higher role they have meanwhile.")
@api_view(["POST"])
@permission_classes([AccountRequired])
@idempotent
def invitation_accept(request: Request, invitation_id: int) -> Response:
    try:
        membership = sharing.invitation_accept(user=request.user,
                                                invitation_id=invitation_id)
    except services.NotFound:
        raise Http404 from None
    return Response(sp.MembershipOut({
        "group": {"id": membership.group.pk, "name": membership.group.name},
        "username": request.user.get_username(), "role": membership.role}).data)


@extend_schema(parameters=[IDEMPOTENCY], request=None, responses={204: None, **ERRORS_4XX},
               summary="Decline an invitation",
               description="Only the invited account; 404 as for accepting.")
@api_view(["POST"])
@permission_classes([AccountRequired])
@idempotent
def invitation_decline(request: Request, invitation_id: int) -> Response:
    try:
        sharing.invitation_decline(user=request.user, invitation_id=invitation_id)
    except services.NotFound:
        raise Http404 from None
    return Response(status=204)
