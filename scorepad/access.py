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
from .models import Group, Membership, Player, Season, Session, Tournament

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


class TableUser:
    """A tournament table's phone, by its code (``Authorization: Table <code>``): it reads
    and writes that table's session alone, as an editor would, and nothing else; no
    account stands behind it (docs/tournaments.md, "Table codes")."""

    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False
    pk = None
    id = None
    role = Membership.Role.EDITOR
    #: The session's version as the code's check read it (the API's table code), else None.
    session_version: int | None = None

    def __init__(self, table_id: int, session_id: int, number: int, keeper_id: int | None
                 ) -> None:
        self.table_id, self.table_session_id = table_id, session_id
        self.number = number
        #: The account that made the tournament: a table's Idempotency-Keys are kept
        #: under it, each named by the table (scorepad.api.idempotency).
        self.keeper_id = keeper_id

    def get_username(self) -> str:
        return f"table {self.number}"

    def __str__(self) -> str:
        return self.get_username()


def table_role(user: Any, session_id: int) -> str | None:
    """A table's phone is an editor of its own session, of no other."""
    return TableUser.role if user.table_session_id == session_id else None


def is_table(user: Any) -> bool:
    return isinstance(user, TableUser)


def _role(user: Any, group_id: int) -> str | None:
    if not getattr(user, "is_authenticated", False) or is_table(user):
        return None  # a table's phone is nobody in its group (table_role: its session)
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
    # a tournament's table comes along (its page says when it has finished): no query more
    sessions = (Session.objects.select_related("group", "tournament_table__round__tournament")
                .filter(pk=pk_of(session_id)))
    if without_state:
        sessions = sessions.defer("state")
    if is_table(user):
        check_role(table_role(user, pk_of(session_id)), need)
        found = sessions.first()
        if found is None:
            raise Http404
        found.asker_role = TableUser.role
        return found
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
    if is_table(user):
        check_role(table_role(user, pk), need)
        found = Session.objects.filter(pk=pk).values_list("version", "group_id").first()
        if found is None:
            raise Http404
        return int(found[0]), TableUser.role, int(found[1])
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


def tournament_for(user: Any, tournament_id: object, need: str = READ) -> Tournament:
    """The tournament if the user may ``need`` its group (same answers as group_for); a
    table's phone sees none."""
    if is_table(user):
        raise Http404
    role = Membership.objects.filter(group_id=OuterRef("group_id"),
                                     user_id=getattr(user, "pk", None))
    found = (Tournament.objects.select_related("group").filter(pk=pk_of(tournament_id))
             .annotate(asker_role=Subquery(role.values("role")[:1])).first())
    if found is None or not getattr(user, "is_authenticated", False):
        raise Http404
    check_role(found.asker_role, need)
    return found


def season_for(user: Any, season_id: object, need: str = READ) -> Season:
    """The season if the user may ``need`` its group (same answers as group_for), with
    its group and the asker's role (``asker_role``) in one query; a table's phone sees
    none."""
    if is_table(user):
        raise Http404
    role = Membership.objects.filter(group_id=OuterRef("group_id"),
                                     user_id=getattr(user, "pk", None))
    found = (Season.objects.select_related("group").filter(pk=pk_of(season_id))
             .annotate(asker_role=Subquery(role.values("role")[:1])).first())
    if found is None or not getattr(user, "is_authenticated", False):
        raise Http404
    check_role(found.asker_role, need)
    return found
