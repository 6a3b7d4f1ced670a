"""A tournament table's code (``Authorization: Table <code>``, docs/tournaments.md, "Table
codes") checked from the shared cache, so that a table's phone polling its scoreboard
costs no query on a 304.

A code is good while its table's round is open. Closing the round raises the version of
every table's session in the same transaction (and the cached one after the commit,
``versions``), and the tournament cannot end while a round is open; so a code read from
the database together with its session's version stays good while the cached version is
still that one. Every deal moves the version too: the next request reads the code from
the database once more (one query a deal, instead of one a poll). Anything missing,
different or unreadable: None, and the caller asks the database.

The entry is filed under a hash of the code (the code itself is a secret and names no
cache key); it holds what the code opens (the table, its session, its number, the keeper
of its Idempotency-Keys) and the session's version. Only trusted when every process sees
the same cache (``backend.shared()``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from . import backend, versions


@dataclass(frozen=True)
class Table:
    """What a good code opens, and its session's version when that was read."""

    table_id: int
    session_id: int
    number: int
    keeper_id: int | None
    version: int


def code_key(code: str) -> str:
    return "tc:" + hashlib.blake2b(code.encode(), digest_size=16).hexdigest()


def cached(code: str, session_id: int) -> Table | None:
    """The open table ``code`` names, if it is ``session_id``'s and the session's cached
    version is the one read with it (one round trip); else None."""
    if not backend.shared():
        return None
    keys = [code_key(code), versions.version_key(session_id)]
    got = backend.get_many(keys)
    if not got or keys[0] not in got or keys[1] not in got:
        return None
    entry = got[keys[0]]
    if not isinstance(entry, tuple) or len(entry) != 5:
        return None
    table = Table(*entry)
    if table.session_id != session_id or int(got[keys[1]]) != table.version:
        return None
    return table


def remember(code: str, table: Table) -> None:
    """What the database said of ``code`` (its round open) with its session's version;
    the version is raised in the cache too (never lowered), so the next requests find
    both."""
    if not backend.shared():
        return
    backend.put(code_key(code), (table.table_id, table.session_id, table.number,
                                 table.keeper_id, table.version), versions.VERSION_SECONDS)
    versions.raise_to(table.session_id, table.version)
