"""Entering a deal: the form's live check (htmx), saving it, and noticing that another
phone recorded the deal first. Every game's form the same way: the session's game module
reads the form, the services record the deal."""

from __future__ import annotations

from html import unescape

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from .. import accounts, games, htmx_answers, services, tablephone
from ..access import READ, WRITE, session_for
from ..errors import KeyReused
from ..games.base import mode_of
from ..idempotency import MAX_KEY, Answer, fingerprint, once
from ..ids import parse_id
from ..loaded import Loaded
from ..messages import conflict_message, input_error_message, violation_message
from .common import correcting, render_edit, render_session, stale_form


@login_required
@require_safe
def deal_form_fresh(request: HttpRequest, session_id: int) -> HttpResponse:
    """Polled by an open deal form: 204 while the deal it is about to record is still the
    next one; a notice once another phone has recorded it (htmx then stops polling)."""
    session = session_for(request.user, session_id, READ)
    stale = stale_form(Loaded.of(session), parse_id(request.GET.get("number")))
    if stale is None:
        return HttpResponse(status=204)
    return render(request, "scorepad/_stale_notice.html", {"session": session, "stale": stale})


@login_required
@require_POST
def deal_check(request: HttpRequest, session_id: int) -> HttpResponse:
    """Live check of the deal form (htmx): violations next to their fields, a preview."""
    loaded = Loaded.of(session_for(request.user, session_id, WRITE))
    game = games.of(loaded.session)
    number = correcting(request.POST)
    if number is not None:
        return render_edit(request, loaded, game, number, request.POST,
                           mode_of(game.MODES, request.POST, request.GET))
    return render_session(request, loaded, game, request.POST)


@login_required
@require_POST
def deal_create(request: HttpRequest, session_id: int) -> HttpResponse:
    owner = request.headers.get(htmx_answers.OWNER_HEADER)
    if owner is not None and owner != accounts.phone_owner(user=request.user):
        # kept on a shared phone by another account (docs/using.md, "On the phone"): never
        # recorded under this one, not even as the replay of an idempotency key
        return htmx_answers.not_yours()
    loaded = Loaded.of(session_for(request.user, session_id, WRITE))
    game = games.of(loaded.session)
    data = game.form_deal(request.POST, loaded.names)
    if data is None:  # not yet what the referee needs: the form says what is missing
        return htmx_answers.refused(render_session(request, loaded, game, request.POST,
                                                   submitted=True),
                                    "illegal", [_("The deal is not complete yet.")],
                                    parse_id(request.POST.get("number")))
    # a stale form records only as the deal its confirmation names (_stale_notice.html)
    number = parse_id(request.POST.get("confirm_number")) or parse_id(
        request.POST.get("number"))

    def run() -> Answer:
        row = services.deal_record(session=loaded, user=request.user, data=data, number=number)
        return Answer(201, {"number": row.number})

    key = (request.POST.get("idempotency_key") or "")[:MAX_KEY]
    keeper, key = tablephone.idempotency_owner(request.user, key) if key else (None, "")
    try:
        if key and keeper.pk is not None:
            print_ = fingerprint("html-deal", loaded.session.pk, data, number)
            answer = once(user=keeper, key=key, print_=print_, run=run)
        else:
            answer = run()
    except (services.RulesBroken, services.InputError) as e:
        reasons = ([violation_message(loaded.names.violation(v), game.WORDING)
                    for v in e.violations]
                   if isinstance(e, services.RulesBroken) else [input_error_message(e)])
        return htmx_answers.refused(
            render_session(request, loaded, game, request.POST, submitted=True),
            "illegal", reasons, number)
    except services.NotFound:  # the session went meanwhile
        raise Http404 from None
    except (services.Conflict, KeyReused) as e:
        loaded.session.refresh_from_db()
        fresh = loaded.with_row(loaded.session)
        reason = conflict_message(e.reason, **e.params) if isinstance(
            e, services.Conflict) else ""
        taken = isinstance(e, services.Conflict) and e.reason == "number_taken"
        since = _meanwhile(fresh, game, e.params.get("number")) if taken else None
        if (taken and game.keeps_typing(request.POST)
                and parse_id(request.POST.get("number")) is not None):
            # another phone recorded this deal: keep what was typed, and ask
            return htmx_answers.refused(
                render_session(request, fresh, game, request.POST, submitted=True),
                "conflict", [reason], fresh.next_number, since)
        if isinstance(e, services.Conflict):
            messages.warning(request, reason)
        return htmx_answers.refused(render_session(request, fresh, game), "conflict",
                                    [reason], fresh.next_number, since)
    recorded = answer.body["number"]
    messages.success(request, game.recorded_message(recorded), extra_tags=f"undo:{recorded}")
    if htmx_answers.wants_table(request):  # the page's script: new scores, fresh form
        return htmx_answers.recorded(render_session(request, loaded, game), recorded)
    return redirect("scorepad:session", session_id=loaded.session.pk)


#: At most this many deals recorded meanwhile are named to a phone whose deal waited.
MEANWHILE = 8


def _meanwhile(loaded: Loaded, game: games.Game, first: object) -> list[dict[str, object]]:
    """The deals recorded from number ``first`` on (another phone's, while this one's
    waited), in words as the deal list says them: the outbox shows them before its owner
    records the waiting deal as the next one (static/entry.js)."""
    if not isinstance(first, int):
        return []
    rows = loaded.session.deals.filter(number__gte=first).order_by("number")[:MEANWHILE]
    out: list[dict[str, object]] = []
    for row in rows:
        html = render_to_string(game.SUMMARY_TEMPLATE, {"deal": loaded.names.deal_names(row.data)})
        out.append({"number": row.number, "text": " ".join(unescape(strip_tags(html)).split())})
    return out
