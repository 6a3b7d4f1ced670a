"""What a tournament's public screen needs to answer its polls from the shared cache alone,
without a query (docs/tournaments.md, "The screen"): the screen's two parts are rendered
from keys made of the tournament's version and, for the live tables, the open round's
sessions' versions (``scorepad.tournaments.services.screen_ranking_key``,
``screen_live_key``). Three kinds of entries make those keys:

- **The tournament's version** (``tv:<screen token>``): every write that raises it raises
  the cached one after its commit (``publish``), never lowering it, as a session's
  version (``versions``); a poll that read it from the database raises it too.
- **What the token stands for** (``ts:<screen token>``): the tournament's id, and the open
  round's sessions as they were at one version of the tournament (a round drawn or closed
  raises it, so the sessions are trusted only while the cached version is that one).
- **Each session's version** (``sv:<session id>``, ``versions``): every deal, correction
  or undo raises one.

Beside the keys, **each table's part of the live screen** (``st:...``, ``table_key``) is
kept rendered by the versions it was read at (the tournament's, its session's) and the
language: a deal at one table renders that table again, the others are read back in one
round trip. Being named by exact versions, such an entry is never stale, in a shared
cache or in one process's.

Anything missing, out of date or unreadable: None, and the caller asks the database (one
query) as before. Only trusted when every process sees the same cache
(``backend.shared()``). A tournament deleted keeps answering its last screen until its
cached version expires (``versions.VERSION_SECONDS``), as a session's poll does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import backend, versions

log = logging.getLogger(__name__)

#: Seconds what a token stands for stays cached without use (kept true by the version).
TOKEN_SECONDS = 6 * 3600


def version_key(token: str) -> str:
    return f"tv:{token}"


def token_key(token: str) -> str:
    return f"ts:{token}"


@dataclass(frozen=True)
class Known:
    """A tournament as the cache knows it: its id and version, and the open round's
    sessions at that version (None: not known at that version)."""

    pk: int
    version: int
    sessions: tuple[int, ...] | None


def raise_version(token: str, version: int) -> None:
    """Make the screen's cached tournament version at least ``version``; a cache that
    refuses forgets it instead (the polls then ask the database)."""
    try:
        backend.raise_to(version_key(token), version, versions.VERSION_SECONDS)
    except backend.ERRORS:
        log.warning("could not cache the version of a tournament", exc_info=True)
        backend.delete_many([version_key(token)])


def publish(rows: Callable[[], Iterable[tuple[str, int]]]) -> None:
    """After the commit of a write that raised tournaments' versions: raise the cached
    ones to ``rows()`` ((screen token, version) pairs read then from the database)."""
    if not backend.shared():
        return

    def run() -> None:
        for token, version in rows():
            raise_version(token, version)

    backend.after_commit(run)


def known(token: str) -> Known | None:
    """The tournament behind ``token`` from the cache (one round trip), or None."""
    if not backend.shared():
        return None
    found = backend.get_many([version_key(token), token_key(token)])
    if not found or version_key(token) not in found or token_key(token) not in found:
        return None
    version, (pk, at, sessions) = int(found[version_key(token)]), found[token_key(token)]
    return Known(pk, version, tuple(sessions) if at == version else None)


def remember(token: str, pk: int, version: int, sessions: Iterable[int]) -> None:
    """What the database said of the screen's tournament at ``version``: its id and open
    round's sessions; and its version (raised, never lowered)."""
    if not backend.shared():
        return
    backend.put(token_key(token), (pk, version, list(sessions)), TOKEN_SECONDS)
    raise_version(token, version)


def live_sum(sessions: tuple[int, ...]) -> int | None:
    """The summed versions of ``sessions`` from the cache (one round trip), or None if
    any is missing."""
    if not sessions:
        return 0
    keys = [versions.version_key(pk) for pk in sessions]
    found: dict[str, Any] | None = backend.get_many(keys)
    if found is None or len(found) < len(keys):
        return None
    return sum(int(found[k]) for k in keys)


def raise_sessions(rows: Iterable[tuple[int, int]]) -> None:
    """Cache the versions the database gave ((session id, version)) of the sessions the
    cache has forgotten (never lowering one: ``versions.raise_to``), so that the next
    polls find them; one round trip when it has them all."""
    if not backend.shared():
        return
    given = dict(rows)
    found = backend.get_many([versions.version_key(pk) for pk in given]) or {}
    for session_id, version in given.items():
        if versions.version_key(session_id) not in found:
            versions.raise_to(session_id, version)


# --- each table's part of the live screen ---------------------------------------------------

#: Seconds a table's rendered part stays cached without use (the screen asks for it every
#: 5 s while its session's version stands; a deal makes a new one).
TABLE_SECONDS = 300


def table_key(tournament: tuple[int, int], session: tuple[int, int], *parts: str) -> str:
    """A table's rendered part, named by what it was rendered from: the tournament's id
    and version (a round closed, a result entered, rounds hidden, the round's limit) and
    its session's id and version (every deal, correction, undo or rename), and ``parts``
    (the language)."""
    return "-".join(["st", f"t{tournament[0]}v{tournament[1]}",
                     f"s{session[0]}v{session[1]}", *parts])


def rendered_tables(keys: list[str]) -> dict[str, str]:
    """The tables' parts the cache has of ``keys`` (one round trip); none when it cannot
    answer (they are rendered again)."""
    return backend.get_many(keys) or {}


def keep_tables(rendered: dict[str, str]) -> None:
    """Cache freshly rendered tables' parts; a cache that refuses only costs a render."""
    if rendered:
        backend.put_many(rendered, TABLE_SECONDS)
