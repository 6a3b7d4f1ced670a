"""``Idempotency-Key`` for API writes: the same key with the same request gets the first
answer again (API.md); the same key with another request is refused."""

from __future__ import annotations

import functools
import json
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scorepad import services

MAX_KEY = 200

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


def idempotent(view: Any) -> Any:
    """Wrap a DRF function view's writes (inside @api_view, so the user is known)."""

    @functools.wraps(view)
    def wrapper(request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get("Idempotency-Key")
        if request.method in ("GET", "HEAD", "OPTIONS") or not key:
            return view(request, *args, **kwargs)  # type: ignore[no-any-return]
        if len(key) > MAX_KEY:
            return too_long()
        body = request.data if isinstance(request.data, dict | list) else str(request.data)
        print_ = services.fingerprint(request.method, request.path, body)

        def run() -> services.Answer:
            response = view(request, *args, **kwargs)
            data = json.loads(JSONRenderer().render(response.data)) if response.data else None
            return services.Answer(response.status_code, data)

        try:
            answer = services.once(user=request.user, key=key, print_=print_, run=run)
        except services.KeyReused:
            return reused()
        response = Response(answer.body, status=answer.status)
        if answer.replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    return wrapper
