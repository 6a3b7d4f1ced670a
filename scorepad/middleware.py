"""Request limits answered before any view runs."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.gzip import GZipMiddleware
from django.utils.translation import gettext as _


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    return _("The request body is larger than %(kb)s KB.") % {"kb": limit // 1024}


class BodyLimitMiddleware:
    """An API request whose body is larger than DATA_UPLOAD_MAX_MEMORY_SIZE answers 413 in
    the API's JSON error shape (Django itself would answer an HTML 400 once a view reads
    the body). Pages keep Django's answer. Imports (``/api/.../import``) take whole
    exported files and check their own, larger limit (``SCHREIBER_IMPORT_MAX_BYTES``,
    scorepad/exchange.py)."""

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
    """gzip for pages (a session page shrinks ~4×, bench/page_weight.py), with Django's
    BREACH padding. API answers are small JSON and stay uncompressed, as simple clients
    expect."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path.startswith("/api/"):
            return response
        return super().process_response(request, response)  # type: ignore[no-any-return]
