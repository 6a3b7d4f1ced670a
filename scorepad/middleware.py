"""Request limits answered before any view runs, and the answer when the database is gone."""

from __future__ import annotations

import gzip
import secrets
import string
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from . import limits
from .cache.grants import CacheRefused
from .errors import Busy


class ForwardedHeadersMiddleware:
    """Behind the reverse proxy, X-Forwarded-Proto (whether the request came over https:
    SECURE_PROXY_SSL_HEADER, and with it the https redirect and the secure cookies) and
    X-Forwarded-For count only from a trusted proxy (docs/deploy.md, "nginx" under "6.
    gunicorn under systemd"), as gunicorn's ``forwarded_allow_ips`` has them: from any
    other peer they are dropped before anything reads them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.SCHREIBER_BEHIND_PROXY and not limits.forwarded_by_trusted_proxy(request):
            request.META.pop("HTTP_X_FORWARDED_PROTO", None)
            request.META.pop("HTTP_X_FORWARDED_FOR", None)
        return self.get_response(request)


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    return _("The request body is larger than %(kb)s KB.") % {"kb": limit // 1024}


class BodyLimitMiddleware:
    """An API request whose body is larger than DATA_UPLOAD_MAX_MEMORY_SIZE answers 413 in
    the API's JSON error shape (Django itself would answer an HTML 400 once a view reads
    the body). Pages keep Django's answer. Imports (``/api/.../import``) take whole
    exported files and check their own, larger limit (``SCHREIBER_IMPORT_MAX_BYTES``,
    scorepad/transfer/)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        path = request.path
        if limit is not None and path.startswith("/api/") and not path.endswith("/import"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                message = too_large_message()
                return JsonResponse({"detail": message, "errors": {"body": [message]}},
                                    status=413)
        return self.get_response(request)


class PageGZipMiddleware(GZipMiddleware):
    """gzip for pages (a session page shrinks ~5×, bench/page_weight.py), with BREACH
    padding as Django pads. API answers are small JSON and stay uncompressed, as simple
    clients expect.

    At zlib's level 4 rather than Django's 6: the 32 KB session page of a long evening
    compresses in 0.09 ms instead of 0.16 ms (a sixth of the whole reused page), 5 %
    larger (5.6 KB instead of 5.3 KB)."""

    LEVEL = 4

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path.startswith("/api/"):
            return response
        if response.streaming:
            return super().process_response(request, response)  # type: ignore[no-any-return]
        if len(response.content) < 200 or response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        compressed = gzip_padded(response.content, self.LEVEL, self.max_random_bytes)
        if len(compressed) >= len(response.content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):  # RFC 9110 8.8.1, as Django does
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response


def gzip_padded(data: bytes, level: int, max_random_bytes: int) -> bytes:
    """``data`` gzipped at ``level``, with a random file name of 1 to ``max_random_bytes``
    letters in the header against BREACH (django.utils.text.compress_string's padding)."""
    compressed = gzip.compress(data, compresslevel=level, mtime=0)
    header = bytearray(compressed[:10])
    header[3] = gzip.FNAME
    name = "".join(secrets.choice(string.ascii_letters)
                   for _ in range(secrets.randbelow(max_random_bytes) + 1))
    return bytes(header) + name.encode() + b"\x00" + compressed[10:]


#: Seconds a client should wait before trying again while the database is unreachable
#: (a PostgreSQL restart takes a few).
RETRY_AFTER = 5
#: What a lost or refused database connection raises (psycopg: "terminating connection
#: due to administrator command", "connection refused"; SQLite: "database is locked").
UNAVAILABLE = (OperationalError, InterfaceError)


def database_unavailable(request: HttpRequest, message: str | None = None) -> HttpResponse:
    """503 with Retry-After: JSON under /api/, a short page elsewhere. Drawn without the
    database (no user, no session, no context processors)."""
    if message is None:
        message = _("The database cannot be reached just now (it may be restarting). "
                    "Try again in a few seconds.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"message": message}),
                                status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    add_never_cache_headers(response)
    return response


def busy_message() -> str:
    return _("Another save is still under way. Nothing was changed: try again in a few "
             "seconds.")


def waited_too_long(exception: BaseException) -> bool:
    """Did a write wait too long for another one: the session's lock (dealwrite.lock:
    ``SCHREIBER_LOCK_SECONDS``), or SQLite's database lock beyond its busy timeout (its
    writers take turns at the transaction's start)?"""
    return isinstance(exception, Busy) or (
        isinstance(exception, OperationalError)
        and str(exception).startswith("database is locked"))


def unavailable(request: HttpRequest, exception: BaseException) -> HttpResponse | None:
    """The 503 for an exception that says the database cannot serve this request just now
    (None for any other): a write that waited too long for another, a lost connection,
    a change the cache refused to follow (grants.bump: it was rolled back)."""
    if waited_too_long(exception):
        return database_unavailable(request, busy_message())
    if isinstance(exception, UNAVAILABLE):
        return database_unavailable(request)
    if isinstance(exception, CacheRefused):
        return database_unavailable(request, _(
            "This change cannot be saved just now. Try again in a few seconds."))
    return None


class DatabaseUnavailableMiddleware:
    """A view that lost its database connection, or whose write waited too long for
    another's, answers 503, never 500; the next request opens a new connection (Django
    closes an unusable one when the request ends). Errors raised outside a view (a
    middleware saving the session) reach ``handler500``, which answers the same
    (scorepad.views.server_error)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        return unavailable(request, exception)


class CachedAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's AuthenticationMiddleware with the logged-in account from the shared cache
    (scorepad.cache.logins.session_user): a page asks no query for its login."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        from .cache.logins import session_user

        request.user = SimpleLazyObject(lambda: session_user(request))  # type: ignore[assignment]
