"""Use cases of sharing: a session's watch link (whoever has it may look, nobody may write),
a group's invitation links (whoever opens one joins with its role), and the personal
invitations an owner sends to an account (nobody becomes a member without consenting).

The HTML views, the API and the importer call these functions and nothing else to make or
revoke links and to answer invitations (``new_token`` also makes the tournaments' codes).
An unknown, revoked, expired or used-up token lets nobody in. Every use case refuses with a
domain error (``scorepad.errors``); what a refusal looks like is decided at the edge. A
member's role, and that a group keeps an owner, are ``scorepad.rosters``'s (``member_set``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .cache import grants, versions
from .errors import InputError, InviteGone, NotFound
from .ids import is_token
from .models import Group, Invitation, Invite, Membership, Removal, Session
from .rosters import lock_group, member_set
from .services import acting_account

# --- sharing: watch links and invites ---------------------------------------------------

#: 32 bytes from ``secrets``: 256 bits, far beyond guessing (128 bits would already be).
TOKEN_BYTES = 32
INVITE_DAYS = 7


def new_token() -> str:
    import secrets

    return secrets.token_urlsafe(TOKEN_BYTES)


def watch_link_create(*, session: Session) -> str:
    """The session's watch token, made now if it has none. A new link is a new version
    of the session (its page shows the link: pages are reused per version)."""
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if not locked.watch_token:
            locked.watch_token = new_token()
            Session.objects.filter(pk=locked.pk).update(watch_token=locked.watch_token,
                                                        version=F("version") + 1)
            locked.version += 1
            versions.publish_version(locked.pk, locked.version)
    session.watch_token, session.version = locked.watch_token, locked.version
    return str(locked.watch_token)


def watch_link_revoke(*, session: Session) -> None:
    """The watch link stops working at once; a new version of the session (its page no
    longer shows the link)."""
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.watch_token:
            Session.objects.filter(pk=locked.pk).update(watch_token=None,
                                                        version=F("version") + 1)
            locked.version += 1
            versions.publish_version(locked.pk, locked.version)
        grants.bump(grants.watch_key(session.pk))
    session.watch_token, session.version = None, locked.version


def session_by_watch_token(token: str) -> Session:
    """The session a watch link shows; Session.DoesNotExist for unknown or revoked ones."""
    if not is_token(token):
        raise Session.DoesNotExist
    return Session.objects.select_related("group").get(watch_token=token)


def watch_version(token: str) -> tuple[int, int] | None:
    """(session id, version) of a watch link's session in one small query; None for
    unknown or revoked tokens (a polled watch board needs no more before its 304)."""
    if not is_token(token):
        return None
    row = Session.objects.filter(watch_token=token).values_list("pk", "version").first()
    return None if row is None else (int(row[0]), int(row[1]))


INVITE_MAX_DAYS = 30
INVITE_MAX_USES = 100


def invite_create(*, group: Group, user: Any, role: str, days: int = INVITE_DAYS,
                  uses: int = 1) -> Invite:
    """A new invitation link for ``uses`` people, open for ``days`` days."""
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    for field, value, most in (("days", days, INVITE_MAX_DAYS), ("uses", uses, INVITE_MAX_USES)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
            raise InputError(field, f"must be a whole number from 1 to {most}", "not_between",
                             min=1, max=most)
    return Invite.objects.create(
        group=group, token=new_token(), role=role, created_by=acting_account(user),
        expires_at=timezone.now() + timedelta(days=days), max_uses=uses,
    )


def _open(invites: Any) -> Any:
    return invites.filter(revoked_at__isnull=True, expires_at__gt=timezone.now(),
                          uses__lt=F("max_uses"))


def open_invites(group: Group) -> Any:
    """The group's invitations that can still let somebody in."""
    return _open(group.invites.all())


def invite_revoke(*, group: Group, invite_id: int) -> None:
    open_invites(group).filter(pk=invite_id).update(revoked_at=timezone.now())


def invite_by_token(token: str) -> Invite:
    """An open invite; Invite.DoesNotExist for unknown, expired, revoked or used-up tokens."""
    if not is_token(token):
        raise Invite.DoesNotExist
    return _open(Invite.objects.select_related("group")).get(token=token)


def invite_usable_by(invite: Invite, user: Any) -> bool:
    """False if ``user`` was removed from the group (or demoted) after the invite was
    made: an old link does not undo a removal."""
    return not Removal.objects.filter(group_id=invite.group_id, user=user,
                                      at__gte=invite.created_at).exists()


def invite_accept(*, invite: Invite, user: Any) -> Membership:
    """Join with the invite's role, using up one of its uses; a member keeps a higher role
    they already have (and uses nothing up). InviteGone when the invite is used up,
    expired or revoked by now, or older than the user's removal from the group."""
    rank = {Membership.Role.VIEWER: 0, Membership.Role.EDITOR: 1, Membership.Role.OWNER: 2}
    with transaction.atomic():
        lock_group(invite.group_id)
        current = Membership.objects.filter(group_id=invite.group_id, user=user).first()
        if current is not None and rank[current.role] >= rank[invite.role]:
            return current
        if not invite_usable_by(invite, user):
            raise InviteGone("removed after the invite was made")
        taken = _open(Invite.objects.filter(pk=invite.pk)).update(uses=F("uses") + 1)
        if not taken:  # the last use went to somebody else meanwhile, or it was revoked
            raise InviteGone("used up, expired or revoked")
        membership, _ = Membership.objects.update_or_create(
            group_id=invite.group_id, user=user, defaults={"role": invite.role}
        )
        return membership


# --- personal invitations: nobody becomes a member without consenting ------------------------

INVITATION_DAYS = 7
_RANK = {Membership.Role.VIEWER: 0, Membership.Role.EDITOR: 1, Membership.Role.OWNER: 2}


def member_add(*, group: Group, user: Any, role: str, by: Any = None
               ) -> Membership | Invitation:
    """What an owner's "add this account" does: a member's role changes (member_set); any
    other account is invited and joins only when it accepts (``invitation_accept``).
    Inviting an account with a pending invitation renews that one (its role, who sent it,
    another INVITATION_DAYS days): one pending invitation per account and group."""
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    with transaction.atomic():
        lock_group(group.pk, by)
        if Membership.objects.filter(group=group, user=user).exists():
            return member_set(group=group, user=user, role=role, by=by)
        now = timezone.now()
        invitation, _created = Invitation.objects.update_or_create(
            group=group, user=user, status=Invitation.Status.PENDING,
            defaults={"role": role, "invited_by": acting_account(by), "sent_at": now,
                      "expires_at": now + timedelta(days=INVITATION_DAYS)})
        return invitation


def _pending(invitations: Any) -> Any:
    return invitations.filter(status=Invitation.Status.PENDING,
                              expires_at__gt=timezone.now())


def invitations_of(user: Any) -> Any:
    """The account's pending invitations, the newest first."""
    return _pending(Invitation.objects.filter(user=user)).select_related(
        "group", "invited_by").order_by("-sent_at", "-pk")


def invitations_to(group: Group) -> Any:
    """The group's pending invitations, by username."""
    return _pending(group.invitations.all()).select_related(
        "user", "invited_by").order_by("user__username")


def invitation_accept(*, user: Any, invitation_id: int) -> Membership:
    """``user`` joins with the invitation's role (a member keeps a higher role they have
    meanwhile). Only the invited account, and only once: NotFound for anybody else's
    invitation and for one accepted, declined, revoked or expired (also when two accepts
    race: one of them joins)."""
    with transaction.atomic():
        invitation = _pending(Invitation.objects.filter(pk=invitation_id, user=user)).first()
        if invitation is None:
            raise NotFound("no such invitation")
        lock_group(invitation.group_id)
        taken = _pending(Invitation.objects.filter(pk=invitation.pk)).update(
            status=Invitation.Status.ACCEPTED, answered_at=timezone.now())
        if not taken:
            raise NotFound("no such invitation")
        current = Membership.objects.filter(group_id=invitation.group_id, user=user).first()
        if current is not None and _RANK[current.role] >= _RANK[invitation.role]:
            return current
        membership, _created = Membership.objects.update_or_create(
            group_id=invitation.group_id, user=user, defaults={"role": invitation.role})
        return membership


def invitation_decline(*, user: Any, invitation_id: int) -> None:
    """``user`` says no; NotFound as for ``invitation_accept``."""
    if not _pending(Invitation.objects.filter(pk=invitation_id, user=user)).update(
            status=Invitation.Status.DECLINED, answered_at=timezone.now()):
        raise NotFound("no such invitation")


def invitation_revoke(*, group: Group, invitation_id: int, by: Any = None) -> None:
    """An owner takes a pending invitation back (``by`` as for member_set); NotFound when
    the group has no such pending invitation."""
    with transaction.atomic():
        lock_group(group.pk, by)
        if not _pending(Invitation.objects.filter(pk=invitation_id, group=group)).update(
                status=Invitation.Status.REVOKED, answered_at=timezone.now()):
            raise NotFound("no such invitation")
