"""``Idempotency-Key`` for API writes: the same key with the same request gets the first
answer again (docs/api.md, "The scorepad API"); the same key with another request is refused.
The answers are kept by ``scorepad.idempotency``; this is how the API asks it."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad.access import is_table
from scorepad.errors import KeyReused
from scorepad.idempotency import MAX_KEY, Answer, fingerprint, once

__all__ = ["HEADER", "MAX_KEY", "idempotent", "respond_once"]

HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Send the same key again to get the first answer instead of writing twice.",
)


def too_long() -> Response:
    return Response(
        {"detail": _("The Idempotency-Key is too long (at most 200 characters).")}, status=400)


def reused() -> Response:
    return Response(
        {"detail": _("Idempotency-Key: this key was already used for a different "
                     "request; send a new key for a new request.")},
        status=400,
    )


def respond_once(request: Request, body: object, run: Callable[[], Response], *,
                 key: str | None = None, owner: Callable[[Response], Any] | None = None,
                 verify: Callable[[Any], bool] | None = None) -> Response:
    """``run()`` once per Idempotency-Key: a repeat of the request (same method, path and
    ``body``) gets the first answer again, marked ``Idempotent-Replayed``.

    Without a logged-in user (a registration) the key is stored as ``key`` under the
    account ``owner(response)`` made; ``verify`` decides whether a repeat may see it."""
    sent = request.headers.get("Idempotency-Key")
    if not sent:
        return run()
    if len(sent) > MAX_KEY:
        return too_long()
    anonymous = owner is not None

    def answer() -> Answer:
        response = run()
        data = json.loads(JSONRenderer().render(response.data)) if response.data else None
        return Answer(response.status_code, data,
                      owner=owner(response) if anonymous and owner else None)

    print_ = fingerprint(request.method, request.path, body)
    who = None if anonymous else request.user
    if is_table(who):  # a table's phone: its keys, named by the table, kept under the
        if who.keeper_id is None:  # account that made the tournament
            return run()
        key = f"table{who.table_id}:" + hashlib.sha256((key or sent).encode()).hexdigest()
        who = get_user_model()(pk=who.keeper_id)
    try:
        first = once(user=who, key=key or sent,
                     print_=print_, run=answer, verify=verify)
    except KeyReused:
        return reused()
    response = Response(first.body, status=first.status)
    if first.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def idempotent(view: Any) -> Any:
    """Wrap a DRF function view's writes (inside @api_view, so the user is known)."""

    @functools.wraps(view)
    def wrapper(request: Request, *args: Any, **kwargs: Any) -> Response:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return view(request, *args, **kwargs)  # type: ignore[no-any-return]
        if not request.headers.get("Idempotency-Key"):
            return view(request, *args, **kwargs)  # type: ignore[no-any-return]
        body = request.data if isinstance(request.data, dict | list) else str(request.data)
        return respond_once(request, body, lambda: view(request, *args, **kwargs))

    return wrapper
