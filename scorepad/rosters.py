"""Use cases of a group and its roster: the group, its players, which account stands behind
which player, and who is a member with which role.

The HTML views, the API and the importer call these functions and nothing else to change a
group, its players or its members (``scorepad.services`` seats a new session's players
through ``roster_players``). A player's or group's name is stored as ``clean_name`` makes
it and matched caselessly (``name_key``). Every use case checks what it is given and refuses
with a domain error (``scorepad.errors``); what a refusal looks like (a 400, a 422, a form
error) is decided at the edge. A group keeps at least one owner, and membership changes of
one group take turns (``lock_group``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .cache import screens, versions
from .errors import InputError
from .fields import MAX_CATEGORY, MAX_NAME, hidden_character
from .models import Group, Invitation, Membership, Player, Removal, Session, Tournament


def clean_text(value: object, field: str, most: int) -> str:
    """Words as stored (a name, a category, a prize): NFKC, blanks folded, nothing
    invisible, 1 to ``most`` characters."""
    if not isinstance(value, str):
        raise InputError(field, "must be text", "not_string")
    normal = unicodedata.normalize("NFKC", value)
    code = hidden_character(normal)
    if code is not None:
        raise InputError(field, f"must not contain invisible or control characters "
                         f"({code})", "bad_character", char=code)
    cleaned = " ".join(normal.split())
    if not cleaned:
        raise InputError(field, "must not be empty", "empty")
    if len(cleaned) > most:
        raise InputError(field, f"must be at most {most} characters", "too_long", max=most)
    return cleaned


def clean_name(name: object, field: str) -> str:
    """A player's or group's name as stored: NFKC, blanks folded, nothing invisible."""
    try:
        return clean_text(name, field, MAX_NAME)
    except InputError as e:
        if e.code in ("not_string", "empty"):
            raise InputError(field, "must be a name", "not_name") from None
        raise


def name_key(name: str) -> str:
    """What two names must share to be the same name (Unicode caseless matching:
    "Straße" is "STRASSE", "Ａnna" is "anna")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _name_taken(group: Group, name: str, but: int | None = None) -> bool:
    key = name_key(name)
    return any(name_key(other) == key for other in
               group.players.exclude(pk=but).values_list("name", flat=True))


@transaction.atomic
def group_create(*, user: Any, name: str) -> Group:
    group = Group.objects.create(name=clean_name(name, "name"))
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    return group


def player_add(*, group: Group, name: str) -> Player:
    cleaned = clean_name(name, "name")
    if _name_taken(group, cleaned):
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned)
    try:
        with transaction.atomic():
            return Player.objects.create(group=group, name=cleaned)
    except IntegrityError as e:  # a concurrent add of the same name
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned) from e


def player_rename(*, player: Player, name: str) -> Player:
    cleaned = clean_name(name, "name")
    if _name_taken(player.group, cleaned, but=player.pk):
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(name=cleaned)
            # Scoreboards show names: their ETags must change too.
            Session.objects.filter(seats__player=player).update(version=F("version") + 1)
            versions.publish_versions(lambda: Session.objects.filter(
                seats__player=player).values_list("pk", "version").distinct())
            versions.forget_names(lambda: Session.objects.filter(
                seats__player=player).values_list("pk", flat=True))
            # and so do the rankings of the tournaments they play (docs/tournaments.md)
            Tournament.objects.filter(entrants__player=player).update(
                version=F("version") + 1)
    except IntegrityError as e:
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned) from e
    player.name = cleaned
    return player


def player_link(*, player: Player, user: Any | None) -> Player:
    """Link the roster player to a member's account ("this is me"), or unlink it (None).

    An account stands behind at most one player of a group (the database says so too);
    who may link whom is asked first (``access.check_link``).
    """
    if user is not None:
        if not Membership.objects.filter(group_id=player.group_id, user=user).exists():
            raise InputError("user", "is not a member of this group", "not_member")
        other = (Player.objects.filter(group_id=player.group_id, user=user)
                 .exclude(pk=player.pk).first())
        if other is not None:
            raise _already_linked(user, other.name)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(user=user)
    except IntegrityError as e:  # a concurrent link of the same account
        raise _already_linked(user, "?") from e
    player.user = user
    return player


def clean_category(value: object, field: str = "category") -> str:
    """A player's category (docs/tournaments.md, "Categories"): 1–20 characters, blanks
    folded, nothing invisible; None for none (kept as "")."""
    return "" if value is None else clean_text(value, field, MAX_CATEGORY)


def category_key(category: str) -> str:
    """What two categories must share to be one ("Damen" is "DAMEN")."""
    return name_key(category)


def player_categorize(*, player: Player, category: object) -> Player:
    """Give the player a category (None: none); the rankings of the tournaments they play
    move (their ETags too)."""
    cleaned = clean_category(category)
    if cleaned != player.category:
        Player.objects.filter(pk=player.pk).update(category=cleaned)
        Tournament.objects.filter(entrants__player=player).update(version=F("version") + 1)
        screens.publish(lambda: Tournament.objects.filter(entrants__player=player)
                        .values_list("screen_token", "version"))
        player.category = cleaned
    return player


#: Leaves a field of ``player_change`` as it is.
UNCHANGED: Any = object()


@transaction.atomic
def player_change(*, player: Player, name: Any = UNCHANGED, user: Any = UNCHANGED,
                  category: Any = UNCHANGED) -> Player:
    """Rename the player, link them to an account (None: unlink) and/or give them a
    category (None: none), all or nothing."""
    if category is not UNCHANGED:
        clean_category(category)  # refused before anything is written
    if name is not UNCHANGED:
        player = player_rename(player=player, name=name)
    if user is not UNCHANGED:
        player = player_link(player=player, user=user)
    if category is not UNCHANGED:
        player = player_categorize(player=player, category=category)
    return player


def _already_linked(user: Any, name: str) -> InputError:
    username = user.get_username()
    return InputError("user", f"{username} is already {name} in this group",
                      "already_linked", username=username, name=name)


def roster_players(group: Group, names: Sequence[str], field: str) -> list[Player]:
    """The roster's players for these names, adding the new ones (case-insensitive match)."""
    cleaned = [clean_name(n, f"{field}.{i}") for i, n in enumerate(names)]
    if len({name_key(n) for n in cleaned}) != len(cleaned):
        raise InputError(field, "a name is seated twice", "seated_twice")
    existing = {name_key(p.name): p for p in group.players.all()}
    out = []
    for name in cleaned:
        player = existing.get(name_key(name))
        out.append(player if player is not None else player_add(group=group, name=name))
    return out


def member_set(*, group: Group, user: Any, role: str, by: Any = None) -> Membership:
    """Change a member's role, or make a member of an account that consented (an accepted
    invitation; the API and the pages go through ``member_add``, which invites anybody
    not yet a member). A group keeps at least one owner. ``by``: the owner asking,
    checked again under the group's lock (PermissionDenied if no longer)."""
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    rank = {Membership.Role.VIEWER: 0, Membership.Role.EDITOR: 1, Membership.Role.OWNER: 2}
    with transaction.atomic():
        lock_group(group.pk, by)
        current = Membership.objects.select_for_update().filter(group=group, user=user).first()
        if current is not None and current.role == Membership.Role.OWNER and role != "owner":
            _keep_an_owner(group, user)
        if current is not None and rank[role] < rank[current.role]:
            _removed(group, user)
        membership, _ = Membership.objects.update_or_create(
            group=group, user=user, defaults={"role": role}
        )
        return membership


def member_remove(*, group: Group, user: Any, by: Any = None) -> None:
    """Remove a member (same rules and ``by`` as member_set); older invitations no longer
    let them in."""
    with transaction.atomic():
        lock_group(group.pk, by)
        current = Membership.objects.select_for_update().filter(group=group, user=user).first()
        if current is None:
            raise InputError("username", "is not a member of this group", "not_member")
        if current.role == Membership.Role.OWNER:
            _keep_an_owner(group, user)
        current.delete()
        _removed(group, user)
        # Whoever leaves a group takes their name with them: no statistics follow.
        Player.objects.filter(group=group, user=user).update(user=None)


def lock_group(group_id: int, owner: Any = None) -> None:
    """Membership changes of one group take turns (the group's row lock on PostgreSQL;
    SQLite's IMMEDIATE transactions take turns anyway): two owners removing or demoting
    each other at once cannot both see the other one still there. ``owner``, if given,
    must still be an owner once the lock is held (the access check ran before it)."""
    Group.objects.select_for_update().filter(pk=group_id).values_list("pk").first()
    if owner is not None and not Membership.objects.filter(
            group_id=group_id, user=owner, role=Membership.Role.OWNER).exists():
        raise PermissionDenied


def _removed(group: Group, user: Any) -> None:
    """Remember when the member lost access, so that older invitation links stay closed to
    them; a personal invitation still pending is revoked."""
    now = timezone.now()
    Removal.objects.update_or_create(group=group, user=user, defaults={"at": now})
    Invitation.objects.filter(group=group, user=user, status=Invitation.Status.PENDING
                              ).update(status=Invitation.Status.REVOKED, answered_at=now)


def _keep_an_owner(group: Group, leaving: Any) -> None:
    others = Membership.objects.filter(group=group, role=Membership.Role.OWNER).exclude(
        user=leaving
    )
    if not others.exists():
        raise InputError("role", "a group needs at least one owner", "last_owner")
