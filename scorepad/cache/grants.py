"""Polls that touch no database in the common case.

A phone polls its scoreboard every 2 s. Django's login costs two queries (the session row
and the user row) and the version and role one more; with a shared cache a poll needs none:

- **The version in the cache** (``versions``): raised after every write's commit, never
  lowered; a miss reads the database.
- **A poll grant in the polled URL** (``?g=``): the page or fragment that embeds the
  polling was rendered after the full check (login, membership or watch token), and
  carries a signed, short-lived (``GRANT_SECONDS``) statement of it: session, group, user
  and role, or session and watch token. A poll with a valid grant needs neither
  ``request.session`` nor ``request.user``.
- **Revocation by access generations**: numbers per user (``ug:``: logout, password or
  account change, a deleted token), per group (``gg:``: any membership change) and per
  watch link (``wg:``: revoked), kept in the database (``AccessGeneration``) and copied
  into the cache, written into each grant. A change raises the number in its own
  transaction and drops the cache's copy before it commits (``bump``; if the cache will
  not, the change fails and nothing is committed). A grant whose generations differ from
  the current ones (the cache's copies, else the database's) is ignored: the view falls
  back to the full check (and a fresh grant comes with the next 200).

What holds (docs/deploy.md, "9. Scaling out"):

- with a shared cache (``SCHREIBER_CACHE_URL``, or one process): a poll right after a
  write sees the new version; a removed member, a revoked watch link, a logged-out user
  lose access on their next poll, whether or not the cache takes writes (a change that
  cannot drop the cache's copy of its generation is refused). Only if the cache cannot
  be written at a commit (Redis down) may a poll answer the previous version for up to
  ``VERSION_SECONDS``.
- with a cache per process (several workers, no shared cache) the version is read from the
  database on every poll, with the membership or watch token, and the account's active
  flag and password, in the same one query: removals, revoked links, deactivated accounts
  and password changes (``auth``: the grant names the login's password hash, as Django's
  session does) take effect on the next poll. A logout elsewhere (or "log out
  everywhere") leaves the password as it was: it takes effect when the grant expires,
  which without a shared cache is after ``UNSHARED_GRANT_SECONDS``.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db.models import OuterRef, Subquery

from . import backend, versions
from .backend import shared
from .versions import version_key

log = logging.getLogger(__name__)

SALT = "scorepad.fastpoll"
#: How long a grant replaces the login check (also the longest a revoked reader can read
#: when the cache cannot tell, see the module's docstring).
GRANT_SECONDS = 15 * 60
#: Without a shared cache a member's grant lives this long: the one thing its database
#: read cannot see is a logout elsewhere (the login session is not read).
UNSHARED_GRANT_SECONDS = 120
#: The query parameter that carries the grant.
PARAM = "g"
#: Stands for the grant in cached scoreboards (each answer puts in its own).
MARK = "__pollgrant__"

# --- access generations ---------------------------------------------------------------------


def user_key(user_id: object) -> str:
    return f"ug:{user_id}"


def group_key(group_id: object) -> str:
    return f"gg:{group_id}"


def watch_key(session_id: object) -> str:
    return f"wg:{session_id}"


#: How long the shared cache keeps its copy of an access generation before the database's
#: number is read again (one query). A backstop only: every change writes the cache itself
#: (``bump``); this bounds what a failure in the middle of that could leave behind.
GENERATION_SECONDS = GRANT_SECONDS


class CacheRefused(Exception):
    """The shared cache would not drop an access generation: the change that ends access
    must not be committed (its transaction rolls back, the request answers 503)."""


def bump(key: str) -> None:
    """A change that ends or narrows access; call it inside the change's transaction.

    The database's number for ``key`` goes up in that transaction; the cache's copy is
    dropped at once (a delete, which Redis takes even at its memory limit), and if the
    cache will not drop it, CacheRefused rolls the change back: nothing half done. After
    the commit the new number is written (or, if the cache takes no writes, dropped
    again: a request may have put the old number back meanwhile). Every entry and grant
    that names the old number stops counting: a cache without the number asks the
    database (``generations``)."""
    number = _db_bump(key)
    versions.forget(key)
    _drop(key)

    def run() -> None:
        versions.forget(key)
        try:
            _generation_raise(key, number)
            return
        except backend.ERRORS:
            log.warning("could not write the access generation %s", key, exc_info=True)
        backend.delete_many([key])

    backend.after_commit(run)


def _db_bump(key: str) -> int:
    """The database's number for ``key``, raised by one in the caller's transaction: one
    statement (an upsert, on SQLite and PostgreSQL alike)."""
    from django.db import connection

    from ..models import AccessGeneration

    table = connection.ops.quote_name(AccessGeneration._meta.db_table)
    key_column, number = (connection.ops.quote_name(c) for c in ("key", "number"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({key_column}, {number}) VALUES (%s, 1) "
            f"ON CONFLICT ({key_column}) DO UPDATE SET {number} = {table}.{number} + 1 "
            f"RETURNING {number}", [key])
        return int(cursor.fetchone()[0])


def _db_numbers(keys: list[str]) -> dict[str, int]:
    """The database's numbers for ``keys`` in one query (0 where there is no row)."""
    from ..models import AccessGeneration

    found = dict(AccessGeneration.objects.filter(key__in=keys).values_list("key", "number"))
    return {k: int(found.get(k, 0)) for k in keys}


def _drop(key: str) -> None:
    """Delete ``key`` from the cache, or raise CacheRefused. A cache that answers a
    delete without deleting (not even an error) is caught by reading the key again."""
    try:
        if backend.cache().delete(key):
            return
    except backend.ERRORS as e:
        raise CacheRefused(key) from e
    left = backend.get_many([key])
    if left is None or left.get(key) is not None:
        raise CacheRefused(key)


def _generation_raise(key: str, number: int) -> None:
    """Make the cache's copy of ``key`` at least ``number`` (never lower it: a request
    that read the number before a change cannot put it back over the change's)."""
    backend.raise_to(key, number, GENERATION_SECONDS)


def generations(*keys: str) -> list[str] | None:
    """The current generations: the cache's copies, the database's numbers where the
    cache has none (then copied into it where it takes them); None when the cache cannot
    be read."""
    got = backend.get_many(list(keys))
    if got is None:
        return None
    missing = [k for k in keys if k not in got]
    if missing:
        numbers = _db_numbers(missing)
        for key, number in numbers.items():
            try:
                _generation_raise(key, number)
            except backend.ERRORS:  # a full cache: the database's number counts all the same
                log.warning("could not cache the access generation %s", key, exc_info=True)
        got |= numbers
    return [str(got[k]) for k in keys]


def current(got: Mapping[str, Any], keys: list[str]) -> list[str] | None:
    """The generations ``keys`` as read into ``got``; those missing from the cache are
    the database's (``generations``). None when the cache cannot be read."""
    if all(got.get(k) is not None for k in keys):
        return [str(got[k]) for k in keys]
    return generations(*keys)


# --- grants ---------------------------------------------------------------------------------


def token_tag(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:12]


def auth_tag(request: Any) -> str:
    """A short digest of the login session's password hash (Django's HASH_SESSION_KEY):
    a grant that names it stops when the password changes, also without a shared cache."""
    from django.contrib.auth import HASH_SESSION_KEY

    session = getattr(request, "session", None)
    value = session.get(HASH_SESSION_KEY) if session is not None else None
    return _tag(str(value)) if value else ""


def _tag(auth_hash: str) -> str:
    return hashlib.sha256(auth_hash.encode()).hexdigest()[:16]


def user_grant(session_id: int, group_id: int, user_id: int, role: str,
               auth: str = "") -> str | None:
    """A grant for a member who has just passed the full check (None: cache unavailable);
    ``auth``: auth_tag of the request."""
    gens = generations(user_key(user_id), group_key(group_id))
    if gens is None:
        return None
    return _signed_user_grant(session_id, group_id, user_id, role, gens[0], gens[1], auth)


def _signed_user_grant(session_id: int, group_id: int, user_id: int, role: str,
                       user_generation: str, group_generation: str, auth: str) -> str:
    return signing.dumps(["u", session_id, group_id, user_id, role, user_generation,
                          group_generation, auth], salt=SALT)


def watch_grant(session_id: int, token: str) -> str | None:
    """A grant for a watch link just found valid in the database."""
    gens = generations(watch_key(session_id))
    if gens is None:
        return None
    return signing.dumps(["w", session_id, token_tag(token), *gens], salt=SALT)


def with_grant(url: str, grant: str | None) -> str:
    return f"{url}?{PARAM}={grant}" if grant else url


@dataclass(frozen=True)
class Pass:
    """A poll let through by its grant: the session's version, the role, the grant."""

    session_id: int
    version: int
    role: str
    grant: str
    recalled: bool = False  # from this process's short memory (good for a 304 only)


#: The grants whose signatures this process has checked: (signed at, statement).
_verified: backend.Recent[str, tuple[int, list[Any]]] = backend.Recent(20_000)


def _payload(request: Any, max_age: int = GRANT_SECONDS) -> tuple[str, list[Any]] | None:
    """The grant's statement if its signature holds and it is at most ``max_age`` seconds
    old. A process checks each grant's signature once (then only its age): phones poll
    the same URL."""
    grant = request.GET.get(PARAM) or ""
    if not grant or len(grant) > 400:
        return None
    known = _verified.get(grant)
    if known is not None:
        signed_at, data = known
        return (grant, data) if time.time() - signed_at <= max_age else None
    try:
        data = signing.loads(grant, salt=SALT, max_age=GRANT_SECONDS)
        signed_at = signing.b62_decode(grant.rsplit(":", 2)[1])
    except (signing.BadSignature, ValueError, IndexError):  # tampered or expired
        return None
    if not isinstance(data, list) or not data:
        return None
    _verified.put(grant, (signed_at, data))
    return (grant, data) if time.time() - signed_at <= max_age else None


def _member_row(session_id: int, user_id: int, auth: str) -> tuple[int, str | None] | None:
    """(version, role) in one query: the poll of a per-process cache, or a version miss.
    The role is None, as for a non-member, when the account is no longer active or its
    password is not the one the grant's login was made with (``auth``)."""
    from django.contrib.auth import get_user_model

    from ..models import Membership, Session

    users = get_user_model().objects.filter(pk=user_id)
    role = Membership.objects.filter(group_id=OuterRef("group_id"), user_id=user_id
                                     ).values("role")[:1]
    row = (Session.objects.filter(pk=session_id)
           .annotate(role=Subquery(role), active=Subquery(users.values("is_active")[:1]),
                     password=Subquery(users.values("password")[:1]))
           .values_list("version", "role", "active", "password").first())
    if row is None:
        return None
    version, member_role, active, password = row
    if not active or not auth or _tag(_auth_hash(password or "")) != auth:
        member_role = None
    return int(version), member_role


def _auth_hash(password: str) -> str:
    """What Django keeps in a login session for this password hash (AbstractBaseUser)."""
    from django.contrib.auth import get_user_model

    return str(get_user_model()(password=password).get_session_auth_hash())


def _cached(keys: list[str], fresh: bool) -> tuple[dict[str, Any], bool] | None:
    """(values, recalled from this process's memory?) or None when the cache fails."""
    local = backend.on_redis()
    if local and not fresh:
        recalled = versions.recalled(keys)
        if recalled is not None:
            return recalled, True
    got = backend.get_many(keys)
    if got is None:
        return None
    if local and len(got) == len(keys):
        versions.remember(got)
    return got, False


def check_user(request: Any, session_id: int, fresh: bool = False) -> Pass | None:
    """The member's poll of ``session_id`` by its grant, or None: do the full check."""
    found = _payload(request, GRANT_SECONDS if shared() else UNSHARED_GRANT_SECONDS)
    if found is None:
        return None
    grant, data = found
    try:
        kind, sid, gid, uid, role, user_gen, group_gen, auth = data
    except ValueError:
        return None
    if kind != "u" or sid != session_id:
        return None
    if not shared():
        row = _member_row(sid, uid, auth)
        if row is None or row[1] is None:
            return None
        return Pass(sid, row[0], row[1], grant)
    keys = [user_key(uid), group_key(gid), version_key(sid)]
    found = _cached(keys, fresh)
    if found is None:
        return None
    got, recalled = found
    gens = current(got, keys[:2])
    if gens != [user_gen, group_gen]:
        return None
    version = got.get(keys[2])
    if version is None:
        row = _member_row(sid, uid, auth)
        if row is None or row[1] is None:
            return None
        version = row[0]
        versions.raise_to(sid, version)
    return Pass(sid, int(version), str(role), grant, recalled)


def check_watch(request: Any, token: str, fresh: bool = False) -> Pass | None:
    """The poll of a watch link by its grant, or None: do the full check."""
    from ..models import Session

    found = _payload(request)
    if found is None:
        return None
    grant, data = found
    try:
        kind, sid, tag, watch_gen = data
    except ValueError:
        return None
    if kind != "w" or not isinstance(sid, int) or tag != token_tag(token):
        return None
    version, recalled = None, False
    if shared():
        keys = [watch_key(sid), version_key(sid)]
        found = _cached(keys, fresh)
        if found is None:
            return None
        got, recalled = found
        if current(got, keys[:1]) != [watch_gen]:
            return None
        version = got.get(keys[1])
    if version is None:
        row = Session.objects.filter(pk=sid, watch_token=token).values_list("version").first()
        if row is None:
            return None
        version = int(row[0])
        if shared():
            versions.raise_to(sid, version)
    return Pass(sid, int(version), "", grant, recalled)


# --- a member by login or token (the API's scoreboard) -------------------------------------


def _member_key(user_id: int, session_id: int) -> str:
    return f"ar:{user_id}:{session_id}"


#: The group of each session this process has met (it never changes).
_groups: backend.Recent[int, int] = backend.Recent(20_000)


@dataclass(frozen=True)
class Member:
    """A member's session as the cache knows it: its version, the member's role, the
    group, and the access generations the role was read under (those of now)."""

    version: int
    role: str
    group_id: int
    user_generation: str
    group_generation: str

    def grant(self, session_id: int, user_id: int, auth: str = "") -> str:
        """user_grant, from the generations read already."""
        return _signed_user_grant(session_id, self.group_id, user_id, self.role,
                                  self.user_generation, self.group_generation, auth)


def check_member(user: Any, session_id: int, ahead: Mapping[str, Any] | None = None
                 ) -> tuple[int, str] | None:
    """(version, role) of a logged-in member's session from the cache (``member_of``);
    None: ask the database (``remember_member`` afterwards)."""
    found = member_of(user, session_id, ahead)
    return None if found is None else (found.version, found.role)


def member_keys(user_id: int, session_id: int) -> list[str]:
    """What ``member_of`` reads: the member's entry, the user's generation, the session's
    version and, once this process knows the session's group, the group's generation."""
    keys = [_member_key(user_id, session_id), user_key(user_id), version_key(session_id)]
    known = _groups.get(session_id)  # a session's group never changes: one round trip
    if known is not None:
        keys.append(group_key(known))
    return keys


def _ahead(ahead: Mapping[str, Any] | None, keys: list[str]) -> dict[str, Any] | None:
    """The entries ``keys`` as the request read them ahead (``{key: value or None}``, at
    the moment of its token check, so just as current as a second round trip now), if it
    read them all."""
    if ahead is None or any(k not in ahead for k in keys):
        return None
    return {k: ahead[k] for k in keys if ahead[k] is not None}


def member_of(user: Any, session_id: int, ahead: Mapping[str, Any] | None = None
              ) -> Member | None:
    """A logged-in member's session from the cache, while the user's and the group's
    access generations are those the role was read under; None: ask the database.
    ``ahead``: entries the request read ahead (the API token's check,
    ``logins.token_user``), used if they cover these."""
    if not shared() or not getattr(user, "is_authenticated", False):
        return None
    keys = member_keys(user.pk, session_id)
    known = _groups.get(session_id)
    got = _ahead(ahead, keys)
    if got is None:
        got = backend.get_many(keys)
        if got is None:
            return None
    entry = got.get(keys[0])
    if not isinstance(entry, tuple) or len(entry) != 4 or got.get(keys[2]) is None:
        return None
    role, group_id, user_gen, group_gen = entry
    if current(got, keys[1:2]) != [user_gen]:  # (the database's, if the cache lost it)
        return None
    of_group = got
    if known != group_id:
        _groups.put(session_id, group_id)
        of_group = {}  # read now (current)
    if current(of_group, [group_key(group_id)]) != [group_gen]:
        return None
    return Member(int(got[keys[2]]), str(role), int(group_id), str(user_gen), str(group_gen))


def member_generations(user: Any, session_id: int) -> Any:
    """Read before the database's answer (``remember_member``): the generations then."""
    if not shared() or not getattr(user, "is_authenticated", False):
        return None
    group_id = backend.get(versions.group_of_key(session_id))
    if group_id is None:
        return None
    found = generations(user_key(user.pk), group_key(group_id))
    return None if found is None else (group_id, *found)


def remember_member(user: Any, session_id: int, version: int, role: str, group_id: int,
                    before: Any) -> None:
    """Cache the role the database just gave, under the generations read ``before`` it
    (a removal committed meanwhile has changed them: the entry never counts)."""
    if not shared():
        return
    if backend.put(versions.group_of_key(session_id), group_id, None) and \
            before is not None and before[0] == group_id:
        backend.put(_member_key(user.pk, session_id),
                    (role, group_id, before[1], before[2]), GRANT_SECONDS)
    versions.raise_to(session_id, version)


def member(user: Any, session_id: int, read: Callable[[], tuple[int, str, int]],
           ahead: Mapping[str, Any] | None = None) -> tuple[int, str]:
    """(version, role) of a member's session: from the cache (``check_member``; with the
    entries read ``ahead``), else ``read()`` → (version, role, group id) from the
    database (it raises 404/403), then cached under the generations read before it. The
    first time a process meets the session it does not know its group yet: it reads once
    more, under the generations."""
    if getattr(user, "table_session_id", None) is not None:  # a table's phone: no account
        known = getattr(user, "session_version", None)
        if known is not None and user.table_session_id == session_id:
            return int(known), str(user.role)  # read with its code (api.auth)
        version, role, _group = read()
        return version, role
    found = check_member(user, session_id, ahead)
    if found is not None:
        return found
    before = member_generations(user, session_id)
    version, role, group_id = read()
    if before is None and shared() and getattr(user, "is_authenticated", False):
        gens = generations(user_key(user.pk), group_key(group_id))
        if gens is not None:
            version, role, group_id = read()
            before = (group_id, *gens)
    remember_member(user, session_id, version, role, group_id, before)
    return version, role


def fill(body: bytes, grant: str | None) -> bytes:
    """A cached scoreboard with this answer's grant in its polled URL."""
    if grant:
        return body.replace(MARK.encode(), grant.encode())
    return body.replace(f"?{PARAM}={MARK}".encode(), b"")


# --- who changed what ---------------------------------------------------------------------


def connect() -> None:
    """Access generations follow memberships, logouts and API tokens (apps.ready; the
    accounts: ``logins.connect``)."""
    from django.contrib.auth.signals import user_logged_out
    from django.db.models.signals import post_delete, post_save

    from ..models import Membership

    def membership_changed(sender: Any, instance: Any, created: bool = False,
                           **kwargs: Any) -> None:
        if not created:  # a new member ends nobody's access
            bump(group_key(instance.group_id))

    def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        if user is not None:
            bump(user_key(user.pk))

    post_save.connect(membership_changed, sender=Membership, weak=False,
                      dispatch_uid="fastpoll-membership-save")
    post_delete.connect(membership_changed, sender=Membership, weak=False,
                        dispatch_uid="fastpoll-membership-delete")
    user_logged_out.connect(logged_out, weak=False, dispatch_uid="fastpoll-logout")

    from rest_framework.authtoken.models import Token

    def token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
        bump(user_key(instance.user_id))  # a cached token (scorepad.cache.logins) stops at once

    post_delete.connect(token_deleted, sender=Token, weak=False,
                        dispatch_uid="fastpoll-token-delete")
