"""Correcting the record: editing a deal, deleting one, and the history of every change.
Everything after a changed deal is replayed by the services; a change that would make a
later deal illegal is refused with the reason."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from .. import games, services
from ..access import READ, WRITE, WRITERS, session_for
from ..games.base import mode_of
from ..ids import parse_id
from ..loaded import Loaded, Names
from ..messages import conflict_message, input_error_message, violation_message
from ..models import DealEvent, Session, SessionEvent
from .common import render_edit


def _reasons(game: games.Game, names: Names, error: services.RulesBroken) -> str:
    return " ".join(violation_message(names.violation(v), game.WORDING)
                    for v in error.violations)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_edit(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    loaded = Loaded.of(session_for(request.user, session_id, WRITE))
    game = games.of(loaded.session)
    names = loaded.names
    if request.method != "POST":  # GET, or HEAD (the same without its body)
        row = loaded.session.deals.filter(number=number).first()
        if row is None:
            raise Http404
        post, mode = game.form_values(names.deal_names(row.data), list(names.by_id.values()))
        if request.GET.get("mode") is not None:  # another way of entering it
            asked = mode_of(game.MODES, request.GET)
            post, mode = (post, mode) if asked == mode else (QueryDict(), asked)
        return render_edit(request, loaded, game, number, post, mode, row=row)
    mode = mode_of(game.MODES, request.POST)
    data = game.form_deal(request.POST, names)
    if data is None:
        return render_edit(request, loaded, game, number, request.POST, mode)
    ends_before = _game_ends(loaded.session, names)
    try:
        services.deal_correct(session=loaded, user=request.user, number=number, data=data,
                              version=parse_id(request.POST.get("version")))
    except services.RulesBroken as e:
        if e.number != number:
            messages.error(request, _("This correction would make deal %(n)s illegal: %(why)s")
                           % {"n": e.number, "why": _reasons(game, names, e)})
        elif not game.form_shows_errors(mode):
            messages.error(request, _reasons(game, names, e))
        return render_edit(request, loaded, game, number, request.POST, mode, submitted=True)
    except services.InputError as e:
        if not game.form_shows_errors(mode):
            messages.error(request, f"{e.field}: {input_error_message(e)}")
        return render_edit(request, loaded, game, number, request.POST, mode, submitted=True)
    except services.Conflict as e:
        messages.warning(request, conflict_message(e.reason, **e.params))
        return redirect("scorepad:deal_edit", session_id=loaded.session.pk, number=number)
    except services.NotFound:
        raise Http404 from None
    messages.success(request, " ".join(
        [_("Deal %(n)s corrected.") % {"n": number},
         *_ends_changed(ends_before, _game_ends(loaded.session, names))]))
    return redirect("scorepad:session", session_id=loaded.session.pk)


def _game_ends(session: Session, names: Names) -> list[tuple[int, str]]:
    """Each game's last deal and its winners, in order (for games that end)."""
    out = []
    for number, result in session.deals.order_by("number").values_list("number", "result"):
        if (result or {}).get("game_over"):
            winners = names.deal_names(result).get("winners") or []
            out.append((number, ", ".join(winners)))
    return out


def _ends_changed(before: list[tuple[int, str]], after: list[tuple[int, str]]) -> list[str]:
    """What a correction changed about where games end and who won them, in words."""
    lines = []
    for k in range(max(len(before), len(after))):
        was = before[k] if k < len(before) else None
        now = after[k] if k < len(after) else None
        if was == now:
            continue
        if now is None and was is not None:
            lines.append(_("Game %(g)s no longer ends (it ended with deal %(n)s, won by "
                           "%(w)s).") % {"g": k + 1, "n": was[0], "w": was[1]})
        elif was is None and now is not None:
            lines.append(_("Game %(g)s now ends with deal %(n)s, won by %(w)s.")
                         % {"g": k + 1, "n": now[0], "w": now[1]})
        elif was is not None and now is not None:
            lines.append(_("Game %(g)s now ends with deal %(n)s, won by %(w)s (before: deal "
                           "%(was_n)s, won by %(was_w)s).")
                         % {"g": k + 1, "n": now[0], "w": now[1], "was_n": was[0],
                            "was_w": was[1]})
    return lines


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_delete(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    row = session.deals.filter(number=number).first()
    if row is None:
        raise Http404
    if request.method == "POST":
        try:
            services.deal_delete(session=session, user=request.user, number=number)
        except services.RulesBroken as e:
            messages.error(
                request,
                _("Deleting deal %(d)s would make deal %(n)s illegal: %(why)s")
                % {"d": number, "n": e.number,
                   "why": _reasons(games.of(session), Names.of(session), e)},
            )
        except services.Conflict as e:
            messages.warning(request, conflict_message(e.reason, **e.params))
        except services.NotFound:
            raise Http404 from None
        else:
            messages.success(request, _("Deal %(n)s deleted.") % {"n": number})
        return redirect("scorepad:session", session_id=session.pk)
    names = Names.of(session)
    return render(request, "scorepad/deal_delete.html",
                  {"session": session, "row": row, "deal": names.deal_names(row.data),
                   "summary_template": games.of(session).SUMMARY_TEMPLATE})


@login_required
@require_safe
def session_history(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    game = games.of(session)
    names = Names.of(session)
    seats = list(names.by_id.values())
    events = []
    for e in DealEvent.objects.filter(session=session).select_related("user"):
        before = names.deal_names(e.before) if e.before else None
        after = names.deal_names(e.after) if e.after else None
        events.append(
            {
                "event": e,
                "before": before,
                "after": after,
                "before_cards": before and game.history_detail(seats, before),
                "after_cards": after and game.history_detail(seats, after),
            }
        )
    # closing and reopening among the deals' changes, in the order they happened
    closings = [{"status": e} for e in SessionEvent.objects.filter(session=session)
                .select_related("user")]
    changes = sorted(events + closings,
                     key=lambda item: (item.get("event") or item["status"]).at)
    return render(request, "scorepad/history.html", {
        "session": session, "events": changes, "summary_template": game.SUMMARY_TEMPLATE,
        "can_write": getattr(session, "asker_role", None) in WRITERS,
        "existing": _still_there(events),
    })


def _still_there(events: list[dict[str, Any]]) -> set[int]:
    """The deal numbers whose last change was no deletion (the history is in order)."""
    last: dict[int, str] = {}
    for item in events:
        last[item["event"].deal_number] = item["event"].action
    return {n for n, action in last.items() if action != DealEvent.Action.DELETE}
