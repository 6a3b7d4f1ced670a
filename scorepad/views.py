"""HTML views: thin adapters over the services and the referee."""

from __future__ import annotations

from django.db import connection
from django.db.utils import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from referee.rules import PRESETS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "scorepad/home.html", {"presets": PRESETS.values()})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
