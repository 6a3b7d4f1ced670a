"""Who may see and change what: the one place every view and endpoint asks.

Non-members get 404 (a group's existence is not leaked); members with too small a role
get 403 on writes. Roles: viewers read, editors record and correct deals, owners also
manage the group and its members.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404

from .ids import parse_id
from .models import Group, Membership, Player, Session

READ = "read"
WRITE = "write"
MANAGE = "manage"

_ALLOWED = {
    READ: {Membership.Role.VIEWER, Membership.Role.EDITOR, Membership.Role.OWNER},
    WRITE: {Membership.Role.EDITOR, Membership.Role.OWNER},
    MANAGE: {Membership.Role.OWNER},
}


#: Roles that record and correct deals.
WRITERS = frozenset(_ALLOWED[WRITE])


def _role(user: Any, group_id: int) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Membership.objects.filter(group_id=group_id, user=user)
        .values_list("role", flat=True)
        .first()
    )


def check_role(role: str | None, need: str) -> None:
    """404 for a non-member (None), 403 for a role too small for ``need``."""
    if role is None:
        raise Http404
    if role not in _ALLOWED[need]:
        raise PermissionDenied


def pk_of(value: object) -> int:
    """A URL's or form's id, or 404 (scorepad/ids.py)."""
    number = parse_id(value)
    if number is None:
        raise Http404
    return number


def group_for(user: Any, group_id: object, need: str = READ) -> Group:
    """The group if the user may ``need`` it; 404 for non-members, 403 for a small role."""
    group = Group.objects.filter(pk=pk_of(group_id)).first()
    if group is None:
        raise Http404
    check_role(_role(user, group.pk), need)
    return group


def session_for(user: Any, session_id: object, need: str = READ, *,
                without_state: bool = False) -> Session:
    """The session if the user may ``need`` its group (same answers as group_for).

    One query: the user's role comes along as a subquery of the session's row.
    ``without_state``: the running state (read on first use) stays in the database, for
    a page that is usually answered from the cache."""
    sessions = Session.objects.select_related("group").filter(pk=pk_of(session_id))
    if without_state:
        sessions = sessions.defer("state")
    if getattr(user, "is_authenticated", False):
        role = Membership.objects.filter(group_id=OuterRef("group_id"), user_id=user.pk)
        sessions = sessions.annotate(asker_role=Subquery(role.values("role")[:1]))
    session = sessions.first()
    if session is None:
        raise Http404
    check_role(getattr(session, "asker_role", None), need)
    return session


def poll_for(user: Any, session_id: object, need: str = READ) -> tuple[int, str]:
    """What a polling scoreboard needs before it knows whether anything changed: the
    session's version and the user's role, in one small query (the session row with its
    state is loaded only when the answer is not a 304). Same 404/403 as session_for."""
    version, role, _group = poll_row(user, session_id, need)
    return version, role


def poll_row(user: Any, session_id: object, need: str = READ) -> tuple[int, str, int]:
    """poll_for with the session's group id: (version, role, group id), one query."""
    pk = pk_of(session_id)
    role = Membership.objects.filter(
        group_id=OuterRef("group_id"), user_id=getattr(user, "pk", None)
    ).values("role")[:1]
    row = (
        Session.objects.filter(pk=pk).annotate(role=Subquery(role))
        .values_list("version", "role", "group_id").first()
    )
    if row is None or not getattr(user, "is_authenticated", False):
        raise Http404
    check_role(row[1], need)
    return int(row[0]), str(row[1]), int(row[2])


def role_in(user: Any, group: Group) -> str | None:
    return _role(user, group.pk)


def visible_groups(user: Any) -> Any:
    if not getattr(user, "is_authenticated", False):
        return Group.objects.none()
    return Group.objects.filter(memberships__user=user).order_by("name", "pk")


def check_link(user: Any, player: Player, target: Any | None) -> None:
    """May ``user`` link ``player`` to the account ``target`` (None: unlink it)?

    Editors and owners may link any player of their group to any member, or unlink any.
    A viewer may say only "this is me" of a player nobody is linked to, and undo only
    their own link. Non-members get 404, everything else refused 403.
    """
    role = _role(user, player.group_id)
    check_role(role, READ)
    if role in _ALLOWED[WRITE]:
        return
    own = player.user_id is not None and player.user_id == user.pk
    if target is None and own:
        return
    if target is not None and target.pk == user.pk and player.user_id in (None, user.pk):
        return
    raise PermissionDenied
