"""Groups: the list, a group's page (roster, members, invitations, importing files),
joining one by an invitation link, and personal invitations: an owner invites an account
by its username, and the account joins only when it accepts (on its home page)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import rosters, services, sharing
from ..access import MANAGE, READ, WRITE, group_for, role_in, visible_groups
from ..forms import GroupForm, PlayerForm
from ..guests import account_required
from ..ids import parse_id
from ..messages import input_error_message
from ..models import Invitation, Invite, Membership
from ..transfer import fileformat, importing
from .common import no_store

#: What an account's username can be (Django's rule for usernames).
USERNAME = re.compile(UnicodeUsernameValidator.regex)


@account_required
@require_http_methods(["GET", "HEAD", "POST"])
def groups(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = rosters.group_create(user=request.user, name=form.cleaned_data["name"])
        except services.InputError as e:
            form.add_error("name", input_error_message(e))
        else:
            return redirect("scorepad:group", group_id=group.pk)
    return render(request, "scorepad/groups.html",
                  {"groups": visible_groups(request.user), "form": form})


@account_required
@require_http_methods(["GET", "HEAD", "POST"])
def group(request: HttpRequest, group_id: int) -> HttpResponse:
    need = WRITE if request.method == "POST" else READ
    the_group = group_for(request.user, group_id, need)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_id = request.POST.get("player")
            if player_id:
                number = parse_id(player_id)  # a tampered field finds no player, as a stranger's
                player = None if number is None else the_group.players.filter(pk=number).first()
                if player is None:
                    raise Http404
                rosters.player_rename(player=player, name=form.cleaned_data["name"])
            else:
                rosters.player_add(group=the_group, name=form.cleaned_data["name"])
        except services.InputError as e:
            form.add_error("name", input_error_message(e))
        else:
            return redirect("scorepad:group", group_id=the_group.pk)
    return _render_group(request, the_group, form)


def _render_group(request: HttpRequest, the_group: Any, form: PlayerForm,
                  import_problems: list[dict[str, str]] | None = None) -> HttpResponse:
    role = role_in(request.user, the_group)
    owner = role == Membership.Role.OWNER
    return render(
        request,
        "scorepad/group.html",
        {
            "import_problems": import_problems,
            "group": the_group,
            "players": the_group.players.order_by("name"),
            "members": the_group.memberships.select_related("user").order_by("user__username"),
            "role": role,
            "form": form,
            "can_write": role in (Membership.Role.OWNER, Membership.Role.EDITOR),
            "can_manage": owner,
            "invites": [
                {"invite": i, "url": request.build_absolute_uri(
                    reverse("scorepad:join", kwargs={"token": i.token}))}
                for i in sharing.open_invites(the_group)
            ] if owner else [],
            "roles": Membership.Role.choices,
            "invitations": sharing.invitations_to(the_group) if owner else (),
        },
    )


@account_required
@require_POST
def group_import(request: HttpRequest, group_id: int) -> HttpResponse:
    """An uploaded export file (a session, or a whole group) into this group."""
    the_group = group_for(request.user, group_id, WRITE)
    upload = request.FILES.get("file")
    problems: list[dict[str, str]] = []
    if upload is None:
        problems = [{"path": "", "message": _("Choose an export file to import.")}]
    else:
        try:
            if upload.size is not None and upload.size > fileformat.MAX_BYTES:
                raise fileformat.too_large()
            data = fileformat.read_file(upload.read(fileformat.MAX_BYTES + 1))
            if fileformat.sniff_kind(data) == "group":
                count = len(importing.group_import(group=the_group, data=data))
            else:
                importing.session_import(group=the_group, data=data)
                count = 1
        except fileformat.ImportRejected as e:
            problems = [p.as_dict() for p in e.problems]
        else:
            messages.success(request, ngettext("Imported %(count)s session.",
                                               "Imported %(count)s sessions.", count)
                             % {"count": count})
            return redirect("scorepad:group", group_id=the_group.pk)
    return _render_group(request, the_group, PlayerForm(), problems)


@account_required
@require_POST
def invite_new(request: HttpRequest, group_id: int) -> HttpResponse:
    the_group = group_for(request.user, group_id, MANAGE)
    try:
        if request.POST.get("revoke"):
            invite_id = parse_id(request.POST["revoke"])
            if invite_id is None:
                raise Http404
            sharing.invite_revoke(group=the_group, invite_id=invite_id)
        else:
            sharing.invite_create(group=the_group, user=request.user,
                                   role=request.POST.get("role", ""),
                                   days=_count(request.POST.get("days"), sharing.INVITE_DAYS),
                                   uses=_count(request.POST.get("uses"), 1))
    except (services.InputError, ValueError) as e:
        message = input_error_message(e) if isinstance(e, services.InputError) else str(e)
        label = INVITE_FIELDS.get(getattr(e, "field", ""))
        messages.error(request, f"{label}: {message}" if label else message)
    return redirect("scorepad:group", group_id=the_group.pk)


@account_required
@require_POST
def member_add(request: HttpRequest, group_id: int) -> HttpResponse:
    """The owner's "invite an account" form: an account that is not a member is invited
    (it joins when it accepts); a member's role changes."""
    the_group = group_for(request.user, group_id, MANAGE)
    username = request.POST.get("username", "").strip()
    # only what an account's username can be is looked up (a NUL, which PostgreSQL refuses
    # in a text query, found by tests/scorepad/test_form_garbage.py, finds nobody)
    account = (get_user_model().objects.filter(username=username).first()
               if len(username) <= 150 and USERNAME.fullmatch(username) else None)
    if account is None:
        messages.error(request, _("No account has this username."))
        return redirect("scorepad:group", group_id=the_group.pk)
    try:
        added = sharing.member_add(group=the_group, user=account,
                                    role=request.POST.get("role", ""), by=request.user)
    except services.InputError as e:
        messages.error(request, input_error_message(e))
    else:
        names = {"u": account.get_username(), "role": added.get_role_display()}
        if isinstance(added, Invitation):
            messages.success(request, _("%(u)s is invited as %(role)s and joins when they "
                                        "accept.") % names)
        else:
            messages.success(request, _("%(u)s is now %(role)s.") % names)
    return redirect("scorepad:group", group_id=the_group.pk)


@account_required
@require_POST
def invitation_revoke(request: HttpRequest, group_id: int, invitation_id: int) -> HttpResponse:
    the_group = group_for(request.user, group_id, MANAGE)
    try:
        sharing.invitation_revoke(group=the_group, invitation_id=invitation_id,
                                   by=request.user)
    except services.NotFound:
        raise Http404 from None
    return redirect("scorepad:group", group_id=the_group.pk)


@account_required
@require_POST
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """The invited account joins (its home page lists its invitations)."""
    try:
        membership = sharing.invitation_accept(user=request.user,
                                                invitation_id=invitation_id)
    except services.NotFound:
        raise Http404 from None
    messages.success(request, _("Welcome to %(g)s.") % {"g": membership.group.name})
    return redirect("scorepad:group", group_id=membership.group_id)


@account_required
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    try:
        sharing.invitation_decline(user=request.user, invitation_id=invitation_id)
    except services.NotFound:
        raise Http404 from None
    messages.success(request, _("Invitation declined."))
    return redirect("scorepad:home")


#: The invitation form's fields, as its labels name them.
INVITE_FIELDS = {"role": gettext_lazy("Role"), "uses": gettext_lazy("for how many people"),
                 "days": gettext_lazy("days")}


def _count(value: str | None, default: int) -> int:
    """A count typed into a form (blank: the default); 0 for anything but a plain number,
    which the service then refuses with its rule."""
    if value is None or not value.strip():
        return default
    return parse_id(value.strip()) or 0


@account_required
@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invite = sharing.invite_by_token(token)
    except Invite.DoesNotExist:
        return _join_gone(request)
    if not sharing.invite_usable_by(invite, request.user):
        return _join_gone(request)
    if request.method == "POST":
        try:
            sharing.invite_accept(invite=invite, user=request.user)
        except services.InviteGone:
            return _join_gone(request)
        messages.success(request, _("Welcome to %(g)s.") % {"g": invite.group.name})
        return redirect("scorepad:group", group_id=invite.group_id)
    return no_store(render(request, "scorepad/join.html", {"invite": invite}))


def _join_gone(request: HttpRequest) -> HttpResponse:
    """404 for an unknown, expired, revoked or used-up link, or one made before the user
    was removed from the group: the same answer for all, so a link tells nothing."""
    return no_store(render(request, "scorepad/join.html", {"invite": None}, status=404))
