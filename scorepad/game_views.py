"""HTML for Mura and Müller Matz sessions: scoreboards, deal entry, settlement, the
"does this beat?" helper. Same shape as the Mulatschak pages: the referee judges, the
services write, these functions only parse taps and render.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from referee import tally
from referee.muller_matz import check_beat
from referee.violations import RuleError

from . import services
from .access import READ, session_for
from .messages import beat_reason, conflict_message, input_error_message, violation_message
from .models import Deal, Session

RECENT = 8
MURA_TRICKS = 8
FRENCH_SUITS = [("clubs", "♣"), ("diamonds", "♦"), ("hearts", "♥"), ("spades", "♠")]
FRENCH_RANKS = ["ace", "king", "queen", "jack", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


# --- the deal form, parsed ------------------------------------------------------------------


def mura_entry(post: Any, seats: list[str]) -> dict[str, dict[str, int | None]]:
    """Tricks ``t_<seat>`` and figures ``f_<seat>``, with a stepper ``step=t<seat>:+1``."""
    tricks = {p: _int(post.get(f"t_{i}")) for i, p in enumerate(seats)}
    figures = {p: _int(post.get(f"f_{i}")) for i, p in enumerate(seats)}
    what, _sep, delta = (post.get("step") or "").partition(":")
    index = _int(what[1:]) if what[:1] in ("t", "f") else None
    if index is not None and 0 <= index < len(seats) and delta in ("+1", "-1"):
        counts = tricks if what[0] == "t" else figures
        player = seats[index]
        current = counts[player] or 0
        room = MURA_TRICKS - sum(n or 0 for n in tricks.values())
        if delta == "-1" and current > 0:
            counts[player] = current - 1
        elif delta == "+1" and (what[0] == "f" or room > 0):
            counts[player] = current + 1
    return {"tricks": tricks, "figures": figures}


def mura_data(entry: dict[str, dict[str, int | None]]) -> dict[str, Any]:
    """The referee's counts; a blank count stays missing, for the referee to name."""
    return {key: {p: n for p, n in counts.items() if n is not None}
            for key, counts in entry.items()}


# --- contexts -------------------------------------------------------------------------------


def board_context(session: Session, names: services.Names, board_url: str) -> dict[str, Any]:
    board = services.scoreboard(session, names)
    rows = []
    for name in names.by_id.values():
        row: dict[str, Any] = {"player": name}
        if session.game == Session.Game.MURA:
            row |= {"mura": board["mura"][name], "zeros": board["zeros"][name],
                    "next": board["zeros_to_next_mura"][name]}
        else:
            row |= {"losses": board["losses"][name]}
        if "balances" in board:
            row["balance"] = board["balances"][name]
        rows.append(row)
    recent = []
    for deal in session.deals.order_by("-number")[:RECENT]:
        result = names.deal_names(deal.result)
        recent.append({"number": deal.number, "result": result})
    return {"session": session, "board": board, "rows": rows, "recent": recent,
            "board_url": board_url}


def entry_context(session: Session, names: services.Names, post: Any,
                  number: int | None = None) -> dict[str, Any]:
    seats = list(names.by_id.values())
    context: dict[str, Any] = {"number": number, "seats": seats,
                               "next_number": services.next_number(session)}
    if session.game != Session.Game.MURA:
        return context
    entry = mura_entry(post, seats)
    violations: list[dict[str, Any]] = []
    results: dict[str, Any] = {}
    if post:
        try:
            result = tally.mura_check(list(names.by_id), names.deal_ids(mura_data(entry)))
        except RuleError as e:
            violations.append({"player": None, "message": input_error_message(e)})
        else:
            for v in result.violations:
                v = names.violation(v)
                violations.append({"player": v.player, "message": violation_message(v)})
            if result.legal:
                results = {names.to_name(p): r for p, r in result.results.items()}
    rows = [
        {"index": i, "name": p, "tricks": entry["tricks"][p], "figures": entry["figures"][p],
         "errors": [v["message"] for v in violations if v["player"] == p],
         "result": results.get(p)}
        for i, p in enumerate(seats)
    ]
    left = MURA_TRICKS - sum(n or 0 for n in entry["tricks"].values())
    return context | {
        "rows": rows, "tricks_left": left,
        "general_errors": [v["message"] for v in violations if not v["player"]],
        "legal": bool(post) and not violations,
    }


def _watch_extras(request: HttpRequest, session: Session) -> dict[str, Any]:
    from .views import _qr_svg

    if not session.watch_token:
        return {}
    url = request.build_absolute_uri(
        reverse("scorepad:watch", kwargs={"token": session.watch_token}))
    return {"watch_url": url, "watch_qr": _qr_svg(url)}


def render_session(request: HttpRequest, session: Session, post: Any = None,
                   can_write: bool = False, fragment: str | None = None) -> HttpResponse:
    names = services.Names.of(session)
    board_url = reverse("scorepad:board", kwargs={"session_id": session.pk})
    context = board_context(session, names, board_url)
    context |= entry_context(session, names, post or QueryDict())
    context["can_write"] = can_write
    if can_write:
        context |= _watch_extras(request, session)
    if fragment == "deal-form":
        return render(request, "scorepad/session_game.html#gameform", context)
    if fragment == "scoreboard":
        return render(request, "scorepad/_scoreboard.html", context)
    return render(request, "scorepad/session_game.html", context)


# --- writes ----------------------------------------------------------------------------------


def posted_data(session: Session, names: services.Names, post: Any) -> dict[str, Any]:
    if session.game == Session.Game.MURA:
        return names.deal_ids(mura_data(mura_entry(post, list(names.by_id.values()))))
    return names.deal_ids({"loser": post.get("loser") or ""})


def create(request: HttpRequest, session: Session, can_write: bool) -> HttpResponse:
    names = services.Names.of(session)
    try:
        row = services.deal_record(session=session, user=request.user,
                                   data=posted_data(session, names, request.POST),
                                   number=_int(request.POST.get("number")))
    except (services.RulesBroken, services.InputError):
        return render_session(request, session, request.POST, can_write)
    except services.Conflict as e:
        messages.warning(request, conflict_message(e.reason, **e.params))
        session.refresh_from_db()
        return render_session(request, session, None, can_write)
    label = _("Game %(n)s recorded.") if session.game == Session.Game.MULLER_MATZ else _(
        "Deal %(n)s recorded.")
    messages.success(request, label % {"n": row.number}, extra_tags=f"undo:{row.number}")
    return redirect("scorepad:session", session_id=session.pk)


def edit(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    row = session.deals.filter(number=number).first()
    if row is None:
        return HttpResponse(status=404)
    names = services.Names.of(session)
    if request.method == "POST":
        try:
            services.deal_correct(session=session, user=request.user, number=number,
                                  data=posted_data(session, names, request.POST))
        except services.RulesBroken as e:
            messages.error(request, " ".join(
                violation_message(names.violation(v)) for v in e.violations))
        except services.InputError as e:
            messages.error(request, f"{e.field}: {input_error_message(e)}")
        except services.Conflict as e:
            messages.warning(request, conflict_message(e.reason, **e.params))
        except Deal.DoesNotExist:
            return HttpResponse(status=404)
        else:
            messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
            return redirect("scorepad:session", session_id=session.pk)
    data = names.deal_names(row.data)
    post = QueryDict(mutable=True)
    for i, p in enumerate(names.by_id.values()):
        for key, prefix in (("tricks", "t"), ("figures", "f")):
            if p in (data.get(key) or {}):
                post[f"{prefix}_{i}"] = str(data[key][p])
    if data.get("loser"):
        post["loser"] = data["loser"]
    elif data.get("finish_order"):
        post["loser"] = data["finish_order"][-1]
    context = entry_context(session, names, post if session.game == Session.Game.MURA else
                            QueryDict(), number=number)
    context |= {"session": session, "row": row, "current_loser": post.get("loser"),
                "can_write": True}
    return render(request, "scorepad/deal_edit_game.html", context)


# --- settlement and the beat helper ------------------------------------------------------------


def _copy_text(money: dict[str, Any]) -> str:
    symbol = {"EUR": "€", "USD": "$", "GBP": "£", "HUF": "Ft", "CHF": "CHF"}.get(
        money["currency"] or "", money["currency"] or "")
    return "\n".join(f"{t['from']} → {t['to']} {t['amount']} {symbol}".strip()
                     for t in money["transfers"])


@require_GET
def settlement_page(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    money = services.settlement(session)
    return render(request, "scorepad/settlement.html", {
        "session": session, "money": money, "copy_text": _copy_text(money),
        "balances": list(money["balances"].items()),
    })


@require_GET
def beat(request: HttpRequest, session_id: int) -> HttpResponse:
    """Does the defending card beat the attacking one? The referee answers, with why."""
    session = session_for(request.user, session_id, READ)
    answer = None
    error = None
    q = request.GET
    if q.get("attack") and q.get("defense"):
        try:
            result = check_beat(q.get("attack"), q.get("defense"), q.get("trump"),
                                _int(q.get("life")) or 1)
        except RuleError as e:
            error = f"{e.field}: {input_error_message(e)}"
        else:
            answer = {"legal": result.legal, "reason": beat_reason(result.reason)}
    context = {"session": session, "answer": answer, "error": error, "q": q,
               "suits": FRENCH_SUITS, "ranks": FRENCH_RANKS}
    template = "scorepad/_beat.html"
    if not request.headers.get("HX-Request"):
        template = "scorepad/beat.html"
    return render(request, template, context)
