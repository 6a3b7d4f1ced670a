"""What a request may take from the shared cache instead of the database, and how each
entry is kept true.

- **Seats and names per session** (``nm:<session id>``, read in ``loaded.Names.of``):
  the seats never change after the start; a player's name does
  (``services.player_rename`` forgets the entries of every session the player sits in,
  after its commit).
- **API tokens** (``tk:<digest of the token>``): the token's user, as read from the
  database, with the user's access generation (``fastpoll.user_key``) of that moment. An
  entry counts only while the generation is still the current one: a revoked or rotated
  token (its deletion bumps the generation), a password change, a deactivated account or
  a log-out everywhere take effect on the next request, as without the cache.

Only used when every process sees the same cache (``fastpoll.shared()``); else every
answer comes from the database as before.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.core.cache import caches

from . import fastpoll
from .loaded import names_key

log = logging.getLogger(__name__)

#: Seconds an entry lives without being used (they are correct forever; this only frees
#: memory of finished sessions and unused tokens).
SECONDS = 6 * 3600


def _cache() -> Any:
    return caches["default"]


def _get(key: str) -> Any:
    try:
        return fastpoll.get_many([key]).get(key)
    except Exception:  # the cache is a shortcut: read the database when it is down
        log.warning("could not read the cache", exc_info=True)
        return None


def _set(key: str, value: Any) -> None:
    try:
        _cache().set(key, value, SECONDS)
    except Exception:
        log.warning("could not write the cache", exc_info=True)


# --- seats and names ---------------------------------------------------------------------


def forget_names(session_ids: Any) -> None:
    """After the commit of a rename: the sessions read their names again."""
    def run() -> None:
        keys = [names_key(pk) for pk in session_ids()]
        try:
            _cache().delete_many(keys)
        except Exception:
            log.warning("could not forget names", exc_info=True)

    fastpoll.after_commit(run)


# --- API tokens --------------------------------------------------------------------------


def token_key(key: str) -> str:
    return "tk:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def token_user(key: str) -> tuple[Any, Any] | None:
    """(user, token) of a cached token whose user's access generation still holds."""
    if not fastpoll.shared():
        return None
    tk = token_key(key)
    owner = _owners.get(tk)  # a token belongs to one user forever: ask both at once
    keys = [tk] if owner is None else [tk, fastpoll.user_key(owner)]
    try:
        got = fastpoll.get_many(keys)
    except Exception:
        log.warning("could not read the cache", exc_info=True)
        return None
    entry = got.get(tk)
    if not isinstance(entry, tuple) or len(entry) != 3:
        return None
    generation, user, token = entry
    if owner != user.pk:
        if len(_owners) > OWNERS_MAX:
            _owners.clear()
        _owners[tk] = user.pk
        current = _get(fastpoll.user_key(user.pk))
    else:
        current = got.get(keys[1])
    if current is None or str(current) != generation:
        return None
    return user, token


#: Which user each token (by digest) belongs to, as this process has met them: never
#: changes, so it needs no invalidation; whether the token still counts is asked of the
#: shared cache every time.
_owners: dict[str, int] = {}
OWNERS_MAX = 20_000


def remember_token(key: str, user: Any, token: Any, read_again: Any) -> None:
    """Cache ``key``'s (user, token), read from the database. The user's generation is
    read first and the token then read again (``read_again()``: still valid?), so a
    revocation committed meanwhile can never be cached as valid."""
    if not fastpoll.shared():
        return
    generations = fastpoll.generations(fastpoll.user_key(user.pk))
    if generations is None or not read_again():
        return
    _set(token_key(key), (generations[0], user, token))
