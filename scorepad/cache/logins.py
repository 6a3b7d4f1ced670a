"""Who is asking, from the shared cache instead of the database, and how each entry is
kept true.

- **API tokens** (``tk:<digest of the token>``): the token's user, as read from the
  database, with the user's access generation (``grants.user_key``) of that moment. An
  entry counts only while the generation is still the current one (the cache's copy, or
  the database's number when the cache has none): a revoked or rotated token (its
  deletion bumps the generation), a password change, a deactivated account or a log-out
  everywhere take effect on the next request, as without the cache, also when the cache
  takes no writes (``grants.bump``).
- **Logged-in users** (``us:<user id>``, ``account_key``): the account a login session
  names, as read from the database, under the user's access generation of that moment
  (every change to the account bumps it; a change of ``last_login`` alone forgets the
  entry). Django's own check of the session against the password hash runs on it as on a
  user read from the database. The login sessions themselves are Django's ``cached_db``
  sessions (settings, ``login_sessions``).

Only used when every process sees the same cache (``backend.shared()``); else every
answer comes from the database as before.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import backend, grants

#: Seconds an entry lives without being used (they are correct forever; this only frees
#: memory of unused accounts and tokens).
SECONDS = 6 * 3600


# --- logged-in users --------------------------------------------------------------------


def account_key(user_id: object) -> str:
    """The cached account (its access generation is ``grants.user_key``)."""
    return f"us:{user_id}"


def session_user(request: Any) -> Any:
    """``request.user`` for a login session (AuthenticationMiddleware's ``get_user``): the
    account from the shared cache while its access generation holds, else Django's own
    answer (from the database), then cached. Whatever Django would refuse (no login, an
    unknown backend, a session made with another password) is left to Django."""
    from django.conf import settings
    from django.contrib import auth
    from django.utils.crypto import constant_time_compare

    if not backend.shared():
        return auth.get_user(request)
    session = request.session
    user_id = session.get(auth.SESSION_KEY)
    if user_id is None or session.get(auth.BACKEND_SESSION_KEY) not in \
            settings.AUTHENTICATION_BACKENDS:
        return auth.get_user(request)
    key, generation = account_key(user_id), grants.user_key(user_id)
    got = backend.get_many([key, generation])
    if got is None:
        return auth.get_user(request)
    entry = got.get(key)
    if isinstance(entry, tuple) and len(entry) == 2 \
            and grants.current(got, [generation]) == [entry[0]]:
        user = entry[1]
        session_hash = session.get(auth.HASH_SESSION_KEY)
        if session_hash and constant_time_compare(session_hash, user.get_session_auth_hash()):
            return user
    # read under the generation of now: a change committed meanwhile bumps it
    before = grants.generations(generation)
    user = auth.get_user(request)
    if before is not None and user.is_authenticated and str(user.pk) == str(user_id):
        backend.put(key, (before[0], user), SECONDS)
    return user


def connect() -> None:
    """An account's every change (apps.ready), in one hook: one that may end access bumps
    its access generation (``grants.bump``, in the change's transaction); after the
    commit, the cached account is read again (a new ``last_login`` too, which ends no
    grant and so bumps no generation)."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save

    def account_changed(sender: Any, instance: Any, update_fields: Any = None,
                        created: bool = False, **kwargs: Any) -> None:
        # not a new account (nothing was granted to it yet), nor a login elsewhere (it
        # changes nothing for this device)
        if not created and (update_fields is None or not set(update_fields) <= {"last_login"}):
            grants.bump(grants.user_key(instance.pk))
        pk = instance.pk
        backend.after_commit(lambda: backend.delete_many([account_key(pk)]))

    user_model = get_user_model()
    post_save.connect(account_changed, sender=user_model, weak=False,
                      dispatch_uid="cache-account-save")
    post_delete.connect(account_changed, sender=user_model, weak=False,
                        dispatch_uid="cache-account-delete")


# --- API tokens --------------------------------------------------------------------------


def token_key(key: str) -> str:
    return "tk:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def token_user(key: str, session_id: int | None = None, ahead: dict[str, Any] | None = None
               ) -> tuple[Any, Any] | None:
    """(user, token) of a cached token whose user's access generation still holds.

    ``session_id``: the request is about this session; what grants.member_of reads
    for it is read in the same round trip and put into ``ahead`` (``grants.member_of``)."""
    if not backend.shared():
        return None
    tk = token_key(key)
    owner = _owners.get(tk)  # a token belongs to one user forever: ask both at once
    keys = [tk] if owner is None else [tk, grants.user_key(owner)]
    also = ([] if owner is None or session_id is None or ahead is None
            else grants.member_keys(owner, session_id))
    got = backend.get_many(keys + also)
    if got is None:
        return None
    if ahead is not None:
        ahead.update({k: got.get(k) for k in also})
    entry = got.get(tk)
    if not isinstance(entry, tuple) or len(entry) != 3:
        return None
    generation, user, token = entry
    if owner != user.pk:
        _owners.put(tk, user.pk)
        got = {}
    if grants.current(got, [grants.user_key(user.pk)]) != [generation]:
        return None
    return user, token


#: Which user each token (by digest) belongs to, as this process has met them: never
#: changes, so it needs no invalidation; whether the token still counts is asked of the
#: shared cache every time.
_owners: backend.Recent[str, int] = backend.Recent(20_000)


def remember_token(key: str, user: Any, token: Any, read_again: Any) -> None:
    """Cache ``key``'s (user, token), read from the database. The user's generation is
    read first and the token then read again (``read_again()``: still valid?), so a
    revocation committed meanwhile can never be cached as valid."""
    if not backend.shared():
        return
    generations = grants.generations(grants.user_key(user.pk))
    if generations is None or not read_again():
        return
    backend.put(token_key(key), (generations[0], user, token), SECONDS)
