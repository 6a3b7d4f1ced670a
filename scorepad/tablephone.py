"""A tournament table's phone in the browser, without an account (docs/tournaments.md,
"The table's phone").

The seating plan's QR code is the address ``/t/<code>/``; the code may also be typed on
``/t/``. Opening it keeps the code in a signed cookie (HttpOnly, SameSite=Lax, Secure over
HTTPS) and goes to the table's session page. From then on, on that session's pages of
play alone (``PAGES``: the page, its polled scoreboard, the form's check, recording,
correcting, Undo, confirming the finished table's result, the session's card and files),
the request's user is the table (``scorepad.access.TableUser``), which the access layer
lets edit that one session and nothing else; every other address answers as to anybody
not logged in. The code ends when its round closes (or the tournament ends): the table's
pages then say so and record nothing.

- A code is 256 bits from ``secrets`` (43 characters): it cannot be guessed, so typing
  codes is not limited beyond the site's usual limits (a test checks the length).
- The phone's own storage keeps its deals under the table (``accounts.phone_owner``),
  never under an account, and one table's never under another's.
- A cached session page is rendered per role class; the table's is its own class
  (``views.common``), without the group's navigation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from . import htmx_answers
from .access import TableUser, is_table
from .ids import is_token, parse_id
from .models import Tournament, TournamentRound, TournamentTable

COOKIE = "schreiber_table"
SALT = "scorepad.table"
#: A prize evening is one evening: the cookie outlives it a little.
COOKIE_SECONDS = 24 * 3600
#: The session's pages a table's phone uses (URL names of scorepad.urls).
PAGES = frozenset({"scorepad:session", "scorepad:board", "scorepad:deal_check",
                   "scorepad:deal_form_fresh", "scorepad:deal_create",
                   "scorepad:deal_edit", "scorepad:deal_delete",
                   "scorepad:table_confirm", "scorepad:card_picture",
                   "scorepad:session_file"})


def table_of(code: str) -> TournamentTable | None:
    """The table ``code`` names, its round open or not; None for no such code."""
    if not is_token(code):
        return None
    return (TournamentTable.objects.select_related("round__tournament", "session")
            .filter(code=code).first())


def is_open(table: TournamentTable) -> bool:
    """Does the table's code still count (its round open, the tournament not ended)?"""
    return (table.round.status == TournamentRound.Status.OPEN
            and table.round.tournament.status != Tournament.Status.FINISHED)


def user_of(table: TournamentTable) -> TableUser:
    return TableUser(table.pk, table.session_id, table.number,
                     table.round.tournament.created_by_id)


# --- the cookie -------------------------------------------------------------------------------


def _name(request: HttpRequest) -> str:
    return "__Host-" + COOKIE if request.is_secure() else COOKIE


def cookie_set(response: HttpResponse, request: HttpRequest, code: str) -> None:
    response.set_signed_cookie(_name(request), code, salt=SALT, max_age=COOKIE_SECONDS,
                               httponly=True, secure=request.is_secure(), samesite="Lax")


def cookie_delete(response: HttpResponse, request: HttpRequest) -> None:
    response.delete_cookie(_name(request), samesite="Lax")


def cookie_code(request: HttpRequest) -> str | None:
    if _name(request) not in request.COOKIES:
        return None
    code = request.get_signed_cookie(_name(request), default=None, salt=SALT,
                                     max_age=COOKIE_SECONDS)
    return code if is_token(code) else None


# --- the grant --------------------------------------------------------------------------------


def _session_page(request: HttpRequest) -> int | None:
    """The session id if the request asks one of a session's pages of play."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.view_name not in PAGES:
        return None
    return parse_id(match.kwargs.get("session_id"))


class TablePhoneMiddleware:
    """On its table's pages of play a phone with a table's cookie is that table (after the
    login's and the guest's middlewares); once its round has closed those pages say so
    (410) instead. Anywhere else the cookie is nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = cookie_code(request)
        if code is not None:
            session_id = _session_page(request)
            table = table_of(code) if session_id is not None else None
            if table is not None and table.session_id == session_id:
                if not is_open(table):
                    return ended(request, table)
                request.user = user_of(table)  # type: ignore[assignment]
                request.table_phone = table  # type: ignore[attr-defined]
        return self.get_response(request)


def ended(request: HttpRequest, table: TournamentTable) -> HttpResponse:
    """The table's pages after its round: in words, nothing recorded (410 Gone). A deal
    sent by the page's script or the outbox is refused with the same words; the page's
    polled scoreboard becomes those words (and stops polling)."""
    words = _("Round %(number)s is closed: this table's code has ended and nothing more is "
              "recorded with it. The new round's seating plan has the new codes."
              ) % {"number": table.round.number}
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.target == "scoreboard":  # the polled board: the words, polling stops
        return render(request, "scorepad/_table_phone_ended_board.html", {"ended": words})
    response = render(request, "scorepad/table_phone.html",
                      {"ended": words, "table": table, "round": table.round,
                       "tournament": table.round.tournament}, status=410)
    if htmx_answers.wants_table(request):
        return htmx_answers.refused(response, "illegal", [words], None)
    return response


def context(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``table_phone``, the table a page is rendered for (its number,
    round and seats), or None."""
    return {"table_phone": lambda: _table_context(request)}


def _table_context(request: HttpRequest) -> dict[str, Any] | None:
    table = getattr(request, "table_phone", None)
    if table is None or not is_table(getattr(request, "user", None)):
        return None
    known = getattr(request, "_table_phone_context", None)
    if known is None:
        seats = list(table.session.seats.order_by("position")
                     .values_list("player__name", flat=True))
        known = {"number": table.number, "round": table.round.number,
                 "tournament": table.round.tournament.name,
                 "seats": list(enumerate(seats, 1))}
        request._table_phone_context = known  # type: ignore[attr-defined]
    return known


def idempotency_owner(user: Any, key: str) -> tuple[Any, str]:
    """Where a web form's idempotency key is kept: an account's under it; a table's under
    the account that made the tournament, named by the table (as the API does)."""
    if not is_table(user):
        return user, key
    from django.contrib.auth import get_user_model

    named = f"table{user.table_id}:" + hashlib.sha256(key.encode()).hexdigest()
    return get_user_model()(pk=user.keeper_id), named
