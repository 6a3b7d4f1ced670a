"""Who may see and change what: the one place every view and endpoint asks.

Non-members get 404 (a group's existence is not leaked); members with too small a role
get 403 on writes. Roles: viewers read, editors record and correct deals, owners also
manage the group and its members.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .models import Group, Membership, Session

READ = "read"
WRITE = "write"
MANAGE = "manage"

_ALLOWED = {
    READ: {Membership.Role.VIEWER, Membership.Role.EDITOR, Membership.Role.OWNER},
    WRITE: {Membership.Role.EDITOR, Membership.Role.OWNER},
    MANAGE: {Membership.Role.OWNER},
}


def _role(user: Any, group_id: int) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Membership.objects.filter(group_id=group_id, user=user)
        .values_list("role", flat=True)
        .first()
    )


def _check(role: str | None, need: str) -> None:
    if role is None:
        raise Http404
    if role not in _ALLOWED[need]:
        raise PermissionDenied


def _pk(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise Http404 from None


def group_for(user: Any, group_id: object, need: str = READ) -> Group:
    """The group if the user may ``need`` it; 404 for non-members, 403 for a small role."""
    group = Group.objects.filter(pk=_pk(group_id)).first()
    if group is None:
        raise Http404
    _check(_role(user, group.pk), need)
    return group


def session_for(user: Any, session_id: object, need: str = READ) -> Session:
    """The session if the user may ``need`` its group (same answers as group_for)."""
    session = Session.objects.select_related("group").filter(pk=_pk(session_id)).first()
    if session is None:
        raise Http404
    _check(_role(user, session.group_id), need)
    return session


def role_in(user: Any, group: Group) -> str | None:
    return _role(user, group.pk)


def visible_groups(user: Any) -> Any:
    if not getattr(user, "is_authenticated", False):
        return Group.objects.none()
    return Group.objects.filter(memberships__user=user).order_by("name", "pk")
