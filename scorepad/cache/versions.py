"""What the shared cache knows of each session: its version, its group and its seats.

- **The version** (``sv:<session id>``): every write that bumps a session's version
  raises the cached one *after its commit* (a poll never sees a version whose data is not
  committed). The cache only ever moves up (``backend.raise_to``), so a late writer or a
  poll filling a miss with what it read from the database can never put an older version
  back. A miss reads the database. Each process also remembers what it read for
  ``LOCAL_SECONDS`` (``remember``, ``recalled``): the next polls' 304s need no round trip.
- **The group** (``sg:<session id>``): it never changes.
- **Seats and names** (``nm:<session id>``, read in ``loaded.Names.of``): the seats never
  change after the start; a player's name does (``rosters.player_rename`` forgets the
  entries of every session the player sits in, after its commit: ``forget_names``).

Only trusted when every process sees the same cache (``backend.shared()``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from . import backend

log = logging.getLogger(__name__)

#: A cached version is re-read from the database at least this often (a safety net: it is
#: raised after every commit anyway).
VERSION_SECONDS = 60


def version_key(session_id: int) -> str:
    return f"sv:{session_id}"


# --- what this process read lately ----------------------------------------------------------

#: Each process remembers what it read from a shared cache for this long, to answer the
#: next polls' 304s without a round trip. Less than the 2 s poll interval: a change made
#: in another process shows at the latest one interval later; an answer with a body
#: always reads the shared cache first (a phone never gets an older scoreboard back).
LOCAL_SECONDS = 1.0
LOCAL_MAX = 20_000
_local: backend.Recent[str, tuple[float, Any]] = backend.Recent(LOCAL_MAX)


def remember(values: dict[str, Any]) -> None:
    until = time.monotonic() + LOCAL_SECONDS
    for key, value in values.items():
        _local.put(key, (until, value))


def recalled(keys: list[str]) -> dict[str, Any] | None:
    """All of ``keys`` from this process's memory, or None if any is missing or old."""
    now, out = time.monotonic(), {}
    for key in keys:
        found = _local.get(key)
        if found is None or found[0] < now:
            return None
        out[key] = found[1]
    return out


def forget(key: str) -> None:
    _local.pop(key)


# --- versions ---------------------------------------------------------------------------


def raise_to(session_id: int, version: int, entries: Mapping[str, Any] | None = None,
             seconds: int = 0) -> None:
    """Make the cached version at least ``version`` (never lower it); and cache
    ``entries`` for ``seconds``, in the same round trip on Redis. A cache that refuses
    leaves polls to the database."""
    key = version_key(session_id)
    try:
        backend.raise_to(key, version, VERSION_SECONDS, entries, seconds)
    except backend.ERRORS:
        log.warning("could not cache the version of session %s", session_id, exc_info=True)
        # A version left behind would answer 304 to the old ETag until it expires: drop
        # it instead (Redis deletes at its memory limit, where it refuses writes).
        forget(key)
        backend.delete_many([key])
        return
    if backend.on_redis():
        forget(key)


def publish_version(session_id: int, version: int, entries: Mapping[str, Any] | None = None,
                    seconds: int = 0) -> None:
    """A write made ``version`` of the session: tell the polls once it is committed.
    ``entries``: cache entries that belong to that version (a rendered answer), written
    with it for ``seconds``."""
    backend.after_commit(lambda: raise_to(session_id, version, entries, seconds))


def publish_versions(rows: Callable[[], Any]) -> None:
    """After commit, raise the cached versions to ``rows()`` ((id, version) pairs read
    then from the database): for writes that bump several sessions at once."""
    def run() -> None:
        for session_id, version in rows():
            raise_to(session_id, version)

    backend.after_commit(run)


# --- the group ----------------------------------------------------------------------------


def group_of_key(session_id: int) -> str:
    return f"sg:{session_id}"  # a session's group never changes


def know_group(session_id: int, group_id: int) -> None:
    """After commit, the cache knows the new session's group (it never changes): the
    first look at it can already be remembered (``grants.member_generations``)."""
    if backend.shared():
        backend.after_commit(lambda: backend.put(group_of_key(session_id), group_id, None))


# --- seats and names ------------------------------------------------------------------------


def names_key(session_id: int) -> str:
    return f"nm:{session_id}"


#: Seconds a session's names stay cached without use (they are kept true: a rename
#: forgets them, ``forget_names``).
NAMES_SECONDS = 6 * 3600


def names(session_id: int, read: Callable[[], Mapping[str, str]]) -> dict[str, str]:
    """The session's seated players (id → name, seat order) from the shared cache, else
    ``read()`` (one query) once; only when every process sees that cache."""
    if not backend.shared():
        return dict(read())
    found = backend.get(names_key(session_id))
    if isinstance(found, dict):
        return found
    got = dict(read())
    backend.put(names_key(session_id), got, NAMES_SECONDS)
    return got


def forget_names(session_ids: Callable[[], Any]) -> None:
    """After the commit of a rename: the sessions read their names again."""
    backend.after_commit(
        lambda: backend.delete_many([names_key(pk) for pk in session_ids()]))
