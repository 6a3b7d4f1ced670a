"""Login sessions: Django's ``cached_db`` (the database, read through the shared cache),
read from the database alone while the cache takes no writes.

Django's ``cached_db`` puts a session it had to read from the database into the cache,
and fails the request when that write fails (Redis at its memory limit refuses every
SET): a logged-in page would answer 500. The database holds every session anyway, so a
refused write only costs the next request the same query (settings: ``SESSION_ENGINE``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.sessions.backends import cached_db

from .backend import ERRORS

log = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self) -> dict[str, Any]:
        try:
            data = self._cache.get(self.cache_key)
        except ERRORS:  # as Django: an unreadable cache is a miss
            data = None
        if data is not None:
            return data  # type: ignore[no-any-return]
        row = self._get_session_from_db()
        if not row:
            return {}
        data = self.decode(row.session_data)
        try:
            self._cache.set(self.cache_key, data,
                            self.get_expiry_age(expiry=row.expire_date))
        except ERRORS:
            log.warning("could not cache a login session", exc_info=True)
        return data  # type: ignore[no-any-return]
