"""How a deal save answers the page's own script (static/entry.js and outbox.js send the
form with htmx's headers, ``HX-Target: table``): the new scores and a fresh form in one
answer, with an event that says whether the deal was recorded. A plain form post is
redirected as before. The outbox reads only the event, so it works from the service
worker too (no HTML parsing there)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django_htmx.http import trigger_client_event

TARGET = "table"
#: The account a save was kept for on the phone (``accounts.phone_owner``); sent by the
#: script with every save, the outbox's too.
OWNER_HEADER = "X-Schreiber-Owner"


def wants_table(request: HttpRequest) -> bool:
    """A save sent by the page's script: answer with the table, not a redirect."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted and htmx.target == TARGET


def recorded(response: HttpResponse, number: int) -> HttpResponse:
    return trigger_client_event(response, "schreiber:recorded", {"number": number})


def refused(response: HttpResponse, kind: str, reasons: list[str],
            next_number: int | None,
            meanwhile: list[dict[str, object]] | None = None) -> HttpResponse:
    """``kind``: ``illegal`` (the referee refused it, or something is missing) or
    ``conflict`` (another phone recorded this number first). ``meanwhile``: for a
    conflict, the deals recorded since, in words ({number, text}: the outbox shows them
    next to the queued deal before its owner records it as the next one)."""
    body: dict[str, object] = {"kind": kind, "reasons": reasons, "next": next_number}
    if meanwhile is not None:
        body["meanwhile"] = meanwhile
    return trigger_client_event(response, "schreiber:refused", body)


def not_yours() -> HttpResponse:
    """A save kept on the phone for another account than the one logged in now: nothing
    is recorded. 403, which the outbox reads as "log in again to send it"."""
    return HttpResponse(_("This deal was kept on the phone for another account: log in "
                          "as that account to send it."),
                        status=403, content_type="text/plain; charset=utf-8")
