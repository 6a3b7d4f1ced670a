"""``Idempotency-Key``: the same key with the same request gets the first answer again
instead of writing twice (docs/api.md, "The scorepad API"); the same key with another request
is refused.

The one store of first answers, for every edge that takes a key: the API's writes, the
import endpoints (which fingerprint the raw body), the registration (nobody is logged in
yet) and the deal form of the pages. An answer is whatever the edge sends back (its
status and body); the write itself is a use case of ``services`` run inside.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from .errors import KeyReused, ServiceError
from .models import IdempotencyKey

MAX_KEY = 200


@dataclass(frozen=True)
class Answer:
    """The first answer to a request: its status and body. ``owner``: the account a
    registration made (the key is filed under it)."""

    status: int
    body: Any
    replayed: bool = False
    owner: Any = None


def fingerprint(*parts: object) -> str:
    text = json.dumps([str(p) if not isinstance(p, dict | list) else p for p in parts],
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(record: IdempotencyKey, print_: str,
            verify: Callable[[IdempotencyKey], bool] | None) -> Answer:
    if record.fingerprint != print_ or (verify is not None and not verify(record)):
        raise KeyReused(record.key)
    return Answer(record.status, record.response, replayed=True)


def once(*, user: Any, key: str, print_: str, run: Callable[[], Answer],
         verify: Callable[[IdempotencyKey], bool] | None = None) -> Answer:
    """Run a write at most once per (user, key): a repeat of the same request gets the
    first answer again, even when both arrive at the same time.

    The key is claimed in the same transaction as the write: a concurrent twin waits on
    the unique constraint (PostgreSQL) or the write lock (SQLite), then finds the answer.
    A write that fails (an exception) leaves no key behind, so a retry runs it again.

    ``user`` None: nobody is logged in (a registration). The key is then looked up alone
    and filed under the account the write made (``Answer.owner``; a refusal is not kept),
    and ``verify`` decides whether a repeat may have the first answer.
    """
    if user is None:
        return _once_anonymous(key, print_, run, verify)
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyKey.objects.create(
                    user=user, key=key, fingerprint=print_, status=0, response=None
                )
        except IntegrityError:
            return _replay(IdempotencyKey.objects.get(user=user, key=key), print_, verify)
        answer = run()
        record.status, record.response = answer.status, answer.body
        record.save(update_fields=["status", "response"])
        return answer


def _once_anonymous(key: str, print_: str, run: Callable[[], Answer],
                    verify: Callable[[IdempotencyKey], bool] | None) -> Answer:
    def found() -> IdempotencyKey | None:
        return IdempotencyKey.objects.filter(key=key).select_related("user").first()

    record = found()
    if record is not None:
        return _replay(record, print_, verify)
    try:
        with transaction.atomic():
            answer = run()
            if answer.owner is not None:
                IdempotencyKey.objects.create(user=answer.owner, key=key, fingerprint=print_,
                                              status=answer.status, response=answer.body)
            return answer
    except (IntegrityError, ServiceError):
        record = found()  # a twin of this request won the race: its answer, if it is one
        if record is None:
            raise
        return _replay(record, print_, verify)
