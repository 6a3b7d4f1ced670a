"""Scoreboards that many phones poll: answer 304 Not Modified while nothing changed, and
render each version of a scoreboard once.

A poll first learns the session's version: from the cache, with a signed grant in the
polled URL standing for the login, without any query (``grants``); else with one small
query (``access.poll_for`` or ``sharing.watch_version``). The ETag is made of the session
id, that version and whatever else changes the answer (format, language, role). When the
client has it: 304, nothing loaded or rendered. Otherwise the answer is built once per
ETag and kept in the cache: an ETag names exactly one content (every change to a session
bumps its version), so a cached entry can never be stale, and the local-memory cache of
each worker is as correct as a shared one (bench/README.md has the figures).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse

from . import backend

#: Seconds a rendered scoreboard stays in the cache (a poll every 2 s keeps it warm).
CACHE_SECONDS = 300


#: With a shared cache each process also keeps the bodies it served last (an ETag names
#: one content forever, so this is never stale) to save the round trip.
BODIES_MAX = 200
_bodies: backend.Recent[str, tuple[bytes, str]] = backend.Recent(BODIES_MAX)


def _local_cache() -> bool:
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    return isinstance(caches["default"], LocMemCache)


def etag_for(session_id: int, version: int, *parts: str) -> str:
    """Changes whenever anything on the scoreboard can (every write bumps the version)."""
    return '"' + "-".join([f"s{session_id}", f"v{version}", *parts]) + '"'


def client_has(request: Any, etag: str) -> bool:
    """If-None-Match names ``etag``, compared weakly (RFC 9110 §13.1.2): GZipMiddleware
    marks the ETags of the answers it compresses as weak (W/"...")."""
    header = request.headers.get("If-None-Match") or ""
    if header.strip() == "*":
        return True
    return any(tag.strip().removeprefix("W/") == etag for tag in header.split(","))


def _headers(response: Any, etag: str, secret_url: bool) -> Any:
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    if secret_url:
        response["Referrer-Policy"] = "no-referrer"
    return response


def polled(request: Any, etag: str, render: Callable[[], tuple[str, bytes, str]],
           *, secret_url: bool = False, force: bool = False,
           finish: Callable[[bytes], bytes] | None = None) -> HttpResponse:
    """A polled scoreboard: 304 when the client has ``etag`` (unless ``force``); else the
    cached body for that ETag, or ``render()`` → (etag of what was rendered, body, content
    type), which may be newer than ``etag`` if a deal was recorded meanwhile (it is cached
    under its own ETag, so nothing is ever filed under the wrong version). ``finish``
    turns the cached body into this answer's (grants: its own grant)."""
    if not force and client_has(request, etag):
        return _headers(HttpResponse(status=304), etag, secret_url)
    local = _local_cache()
    hit = None if local else _bodies.get(etag)
    if hit is None:
        hit = backend.get("board:" + etag)  # the cache is a shortcut: render when it is down
    if hit is None:
        etag, body, content_type = render()
        backend.put("board:" + etag, (body, content_type), CACHE_SECONDS)
    else:
        body, content_type = hit
    if not local:
        _bodies.put(etag, (body, content_type))
    if finish is not None:
        body = finish(body)
    return _headers(HttpResponse(body, content_type=content_type), etag, secret_url)
