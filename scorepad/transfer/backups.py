"""Backups: the whole instance (every account and every group) out and in again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from .. import rosters, services
from ..fields import hidden_character
from ..messages import input_error_message
from ..models import Group, Membership, Player
from .exporting import group_json
from .fileformat import (
    CONFLICT,
    MAX_MEMBERS,
    MAX_ROSTER,
    MAX_SESSIONS,
    MAX_USERS,
    _check_envelope,
    _Context,
    _envelope,
    _join,
    _must_dict,
    _must_list,
    _Problems,
    _text,
    _time,
    _when,
)
from .importing import _import_group_body, _run


def backup_export() -> dict[str, Any]:
    """Every account (with its password hash) and every group: a whole instance."""
    User = get_user_model()
    users = [
        {"username": u.get_username(), "email": u.email, "password": u.password,
         "first_name": u.first_name, "last_name": u.last_name, "is_active": u.is_active,
         "is_staff": u.is_staff, "is_superuser": u.is_superuser,
         "date_joined": _when(u.date_joined), "last_login": _when(u.last_login)}
        for u in User.objects.order_by("username")
    ]
    groups = [group_json(g, links=True) for g in Group.objects.order_by("created_at", "id")]
    return _envelope("backup") | {"users": users, "groups": groups}


# --- backups: the whole instance --------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    users: int
    users_kept: int
    groups: int
    sessions: int


def instance_is_empty() -> bool:
    return not (Group.objects.exists() or get_user_model().objects.exists())


def backup_restore(*, data: Any, merge: bool = False) -> Restored:
    """A backup file into this instance. Without ``merge`` the database must be empty;
    with it, every group is added as a new group and accounts that exist already (by
    username) are kept as they are."""

    def work(problems: _Problems) -> Restored:
        if _check_envelope(data, ["backup"], problems) is None:
            return Restored(0, 0, 0, 0)
        if not merge and not instance_is_empty():
            problems.add("", "not_empty",
                         _("The database already has groups or accounts."), CONFLICT)
            return Restored(0, 0, 0, 0)
        users, kept = _restore_users(data.get("users"), problems)
        groups = _must_list(data.get("groups"), "groups", problems, MAX_SESSIONS)
        if groups is None or problems:
            return Restored(0, 0, 0, 0)
        sessions = 0
        for i, item in enumerate(groups):
            path = _join("groups", i)
            body = _must_dict(item, path, problems)
            if body is None:
                continue
            name = _text(body.get("name"), _join(path, "name"), problems, most=80)
            if not name or not name.strip():
                continue
            hidden = hidden_character(name)  # as rosters.clean_name refuses
            if hidden is not None:
                e = services.InputError("name", "bad character", "bad_character", char=hidden)
                problems.add(_join(path, "name"), e.code, input_error_message(e))
                continue
            group = Group.objects.create(name=" ".join(name.split()))
            _restore_members(group, body.get("members", []), _join(path, "members"), users,
                             problems)
            _import_group_body(body, path, _Context(group, users=users), problems)
            _restore_links(group, body.get("links", []), _join(path, "links"), users,
                           problems)
            sessions += group.sessions.count()
        return Restored(len(users) - kept, kept, len(groups), sessions)

    out: Restored = _run(work)
    return out


def _restore_users(value: Any, problems: _Problems) -> tuple[dict[str, Any], int]:
    User = get_user_model()
    items = _must_list(value, "users", problems, MAX_USERS)
    out: dict[str, Any] = {}
    kept = 0
    for i, item in enumerate(items or []):
        where = _join("users", i)
        row = _must_dict(item, where, problems)
        if row is None:
            continue
        username = _text(row.get("username"), _join(where, "username"), problems, most=150)
        password = _text(row.get("password"), _join(where, "password"), problems, most=128)
        email = _text(row.get("email", ""), _join(where, "email"), problems, most=254)
        joined = _time(row.get("date_joined"), _join(where, "date_joined"), problems)
        last = _time(row.get("last_login"), _join(where, "last_login"), problems, null=True)
        if not username or password is None or username in out:
            if username in out:
                problems.add(_join(where, "username"), "duplicate", _("appears twice"))
            continue
        existing = User.objects.filter(username=username).first()
        if existing is not None:
            out[username] = existing
            kept += 1
            continue
        if problems:
            continue
        out[username] = User.objects.create(
            username=username, password=password, email=email or "",
            first_name=str(row.get("first_name") or "")[:150],
            last_name=str(row.get("last_name") or "")[:150],
            is_active=row.get("is_active") is not False,
            is_staff=row.get("is_staff") is True,
            is_superuser=row.get("is_superuser") is True,
            date_joined=joined, last_login=last,
        )
    return out, kept


def _restore_members(group: Group, value: Any, path: str, users: Mapping[str, Any],
                     problems: _Problems) -> None:
    items = _must_list(value, path, problems, MAX_MEMBERS)
    seen = set()
    for i, item in enumerate(items or []):
        where = _join(path, i)
        row = _must_dict(item, where, problems)
        if row is None:
            continue
        username = row.get("username")
        user = users.get(username) if isinstance(username, str) else None
        if user is None or username in seen:
            problems.add(_join(where, "username"), "unknown_user",
                         _("names no account of this backup, or one twice"))
            continue
        seen.add(username)
        if row.get("role") not in Membership.Role.values:
            problems.add(_join(where, "role"), "not_choice",
                         _("must be owner, editor or viewer"))
            continue
        Membership.objects.create(group=group, user=user, role=row["role"])


def _restore_links(group: Group, value: Any, path: str, users: Mapping[str, Any],
                   problems: _Problems) -> None:
    """Which roster player is which member (backups from before links have none)."""
    items = _must_list(value, path, problems, MAX_ROSTER)
    roster = {rosters.name_key(p.name): p for p in group.players.all()}
    members = set(group.memberships.values_list("user_id", flat=True))
    taken_players, taken_users = set(), set()
    for i, item in enumerate(items or []):
        where = _join(path, i)
        row = _must_dict(item, where, problems)
        if row is None:
            continue
        name, username = row.get("player"), row.get("username")
        player = roster.get(rosters.name_key(name)) if isinstance(name, str) else None
        user = users.get(username) if isinstance(username, str) else None
        if player is None or player.pk in taken_players:
            problems.add(_join(where, "player"), "unknown_player",
                         _("names nobody on the group's roster, or somebody twice"))
            continue
        if user is None or user.pk not in members or user.pk in taken_users:
            problems.add(_join(where, "username"), "unknown_user",
                         _("names no member of this group, or one twice"))
            continue
        taken_players.add(player.pk)
        taken_users.add(user.pk)
        Player.objects.filter(pk=player.pk).update(user=user)
