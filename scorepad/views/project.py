"""The project's own pages: the home page or dashboard, health checks, and the error
pages (JSON under /api/, HTML elsewhere)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import connection
from django.db.utils import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.defaults import bad_request as django_bad_request
from django.views.defaults import page_not_found
from django.views.defaults import server_error as django_server_error

from .. import games, sharing
from ..access import visible_groups
from ..middleware import too_large_message, unavailable
from ..models import Session


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "scorepad/home.html", {"presets": [
            line for game in games.registered() for line in game.preset_lines()]})
    sessions = (
        Session.objects.filter(group__in=visible_groups(request.user))
        .select_related("group")
        .order_by("-date", "-created_at", "-id")[:20]
    )
    return render(
        request,
        "scorepad/dashboard.html",
        {
            "open_sessions": [s for s in sessions if s.status == Session.Status.OPEN],
            "past_sessions": [s for s in sessions if s.status == Session.Status.CLOSED],
            "groups": visible_groups(request.user),
            "invitations": sharing.invitations_of(request.user),
        },
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/ (the contract's error shape), the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return page_not_found(request, exception or Http404())


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400 from Django itself (e.g. a body over the size limit sent without a length):
    JSON under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        message = (too_large_message() if isinstance(exception, RequestDataTooBig)
                   else _("Bad request."))
        return JsonResponse({"detail": message}, status=400)
    return django_bad_request(request, exception or Exception())


def locked_out(request: HttpRequest, original_response: Any = None,
               credentials: Any = None) -> HttpResponse:
    """Too many wrong passwords for this username from this address: try again later."""
    message = _("Too many wrong passwords for this username. Try again in 15 minutes.")
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=429)
    return render(request, "registration/locked_out.html", {"message": message}, status=429)


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    answer = None if error is None else unavailable(request, error)
    if answer is not None:  # raised outside a view: 503 all the same
        return answer
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Server error.")}, status=500)
    return django_server_error(request)


@never_cache
@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    """The cheapest answer through the whole middleware stack, no database: the yardstick
    the benchmarks compare real pages with (bench/throughput.py)."""
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


