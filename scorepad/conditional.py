"""Scoreboards that many phones poll: answer 304 Not Modified while nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse


def conditional(request: Any, etag: str, build: Callable[[], Any], empty: Callable[[], Any],
                *, secret_url: bool = False) -> Any:
    """``build()`` the answer unless the client already has the version ``etag`` names
    (then ``empty()``, a 304). Browsers may keep it but must revalidate every time; pages
    whose URL carries a token also send no referrer."""
    response = empty() if request.headers.get("If-None-Match") == etag else build()
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    if secret_url:
        response["Referrer-Policy"] = "no-referrer"
    return response


def not_modified() -> HttpResponse:
    return HttpResponse(status=304)

