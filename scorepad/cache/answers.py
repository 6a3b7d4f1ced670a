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

import hashlib
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
           finish: Callable[[bytes], bytes] | None = None, opaque: bool = False
           ) -> HttpResponse:
    """A polled scoreboard: 304 when the client has ``etag`` (unless ``force``); else the
    cached body for that ETag, or ``render()`` → (etag of what was rendered, body, content
    type), which may be newer than ``etag`` if a deal was recorded meanwhile (it is cached
    under its own ETag, so nothing is ever filed under the wrong version). ``finish``
    turns the cached body into this answer's (grants: its own grant). ``opaque``: see
    ``shown``."""
    if opaque:
        return shown(request, etag, render, secret_url=secret_url)
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


#: Each process's last answers of ``shown``: key → (body, content type, ETag).
_shown: backend.Recent[str, tuple[bytes, str, str]] = backend.Recent(BODIES_MAX)


def content_etag(body: bytes) -> str:
    """An ETag of nothing but the bytes shown: opaque, and the same for the same answer."""
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def shown(request: Any, key: str, render: Callable[[], tuple[str, bytes, str]],
          *, secret_url: bool = False) -> HttpResponse:
    """``polled`` for a public page whose ETag may tell nothing but what it shows (the
    tournament's screen, docs/tournaments.md "The screen"): ``key`` (all that can change
    the answer: versions, language) stays on the server and names the rendered body in
    the cache; the ETag sent is a hash of the body (``content_etag``). So a change behind
    the page that shows nothing new (a correction in a hidden round) keeps the ETag and
    answers 304, and the ETag names no id and no version. A poll costs what ``polled``'s
    does (the key's query) and a cache read; a body is rendered once per key."""
    local = _local_cache()
    hit = None if local else _shown.get(key)
    if hit is None:
        hit = backend.get("shown:" + key)
    if hit is None:
        key, body, content_type = render()
        hit = (body, content_type, content_etag(body))
        backend.put("shown:" + key, hit, CACHE_SECONDS)
    if not local:
        _shown.put(key, hit)
    body, content_type, etag = hit
    if client_has(request, etag):
        return _headers(HttpResponse(status=304), etag, secret_url)
    return _headers(HttpResponse(body, content_type=content_type), etag, secret_url)
