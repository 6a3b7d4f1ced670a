"""A tournament table's phone without an account (scorepad/tablephone.py): the address
of the seating plan's QR code, the small form for typing a code, and leaving a table."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from .. import tablephone
from .common import no_store


def _code_in(typed: str) -> str:
    """A typed or pasted code: the code alone, or the whole address of a QR code."""
    typed = typed.strip()
    if "/t/" in typed:
        typed = typed.rsplit("/t/", 1)[1]
    return typed.strip("/ ")


@require_http_methods(["GET", "HEAD", "POST"])
def table_enter(request: HttpRequest) -> HttpResponse:
    """``/t/``: type (or paste) a table's code; a wrong one answers 404 with the form."""
    if request.method != "POST":
        return no_store(render(request, "scorepad/table_phone.html", {"form": True}))
    code = _code_in(request.POST.get("code") or "")
    table = tablephone.table_of(code)
    if table is None:
        return no_store(render(request, "scorepad/table_phone.html",
                               {"form": True, "unknown": True}, status=404))
    return redirect("scorepad:table_phone", code=code)


@require_http_methods(["GET", "HEAD"])
def table_phone(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/``: this phone keeps the table's score (its cookie) and goes to the
    table's page; an unknown code answers 404, an ended one says so (410)."""
    table = tablephone.table_of(code)
    if table is None:
        return no_store(render(request, "scorepad/table_phone.html",
                               {"form": True, "unknown": True}, status=404))
    if not tablephone.is_open(table):
        return no_store(tablephone.ended(request, table))
    response = redirect("scorepad:session", session_id=table.session_id)
    tablephone.cookie_set(response, request, code)
    return no_store(response)


@require_POST
def table_leave(request: HttpRequest) -> HttpResponse:
    """This phone keeps no table's score any more."""
    response = redirect("scorepad:table_enter")
    tablephone.cookie_delete(response, request)
    return response
