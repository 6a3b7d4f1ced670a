"""A tournament table's phone without an account (scorepad/tablephone.py): the address
of the seating plan's QR code, the small form for typing a code, leaving a table, and
confirming a finished table's result."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from .. import services, tablephone
from ..access import WRITE, session_for
from ..errors import Conflict, NotFound
from ..messages import conflict_message, input_error_message
from ..tournaments import services as tour
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


@login_required
@require_POST
def table_confirm(request: HttpRequest, session_id: int) -> HttpResponse:
    """A seated player confirms their finished table's result with one tap on their name
    (the table's phone, or a director); back to the table's page, which says so."""
    session = session_for(request.user, session_id, WRITE)
    try:
        tour.table_confirm(session_id=session.pk, player=request.POST.get("player", ""))
    except services.InputError as e:
        messages.error(request, input_error_message(e))
    except Conflict as e:
        messages.error(request, conflict_message(e.reason, **e.params))
    except NotFound:
        raise Http404 from None
    return redirect("scorepad:session", session_id=session.pk)
