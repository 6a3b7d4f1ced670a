"""HTML for Mura and Müller Matz sessions: scoreboards, deal entry, settlement, the
"does this beat?" helper. Same shape as the Mulatschak pages: the referee judges, the
services write, these functions only parse taps and render.
"""

from __future__ import annotations

from contextlib import suppress
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
from .cardnames import SYMBOLS, card_name, pack_choices
from .ids import parse_id
from .messages import (
    beat_reason,
    card_violation_message,
    conflict_message,
    input_error_message,
    violation_message,
)
from .models import Deal, Session

RECENT = 8
MURA_TRICKS = 8


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
        recent.append({"number": deal.number, "result": result, "kind": deal.kind})
    return {"session": session, "board": board, "rows": rows, "recent": recent,
            "board_url": board_url}


def entry_context(session: Session, names: services.Names, post: Any,
                  number: int | None = None, mode: str = "",
                  submitted: bool = False) -> dict[str, Any]:
    """The deal form: Mura by counts (the default) or card by card (``mode="cards"``),
    Müller Matz by the loser (the default) or the finishing order (``mode="order"``)."""
    from .views import stale_form

    seats = list(names.by_id.values())
    # a new-deal form keeps the number it was made for; if another phone recorded that
    # deal meanwhile, it says so and saves only as the next deal when confirmed
    form_number = parse_id(post.get("number")) if post and number is None else None
    stale = stale_form(session, form_number)
    context: dict[str, Any] = {"number": number, "seats": seats, "mode": mode, "stale": stale,
                               "next_number": form_number if stale
                               else services.next_number(session)}
    if session.game != Session.Game.MURA:
        if mode == "order":
            context |= order_context(names, post, submitted)
        return context
    if mode == "cards":
        return context | cards_context(names, post, submitted)
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
        "entry_rows": rows, "tricks_left": left,
        "general_errors": [v["message"] for v in violations if not v["player"]],
        "legal": bool(post) and not violations,
    }


# --- Mura card by card ------------------------------------------------------------------------

PACK = "hungarian32"
#: Violations about single cards and tricks; the counts checks that follow them only
#: repeat the same trouble in other words, so they are shown when these are absent.
CARD_CODES = {"card_not_in_pack", "card_played_twice", "wrong_number_of_plays",
              "wrong_leader", "must_follow_suit", "unknown_player"}


def cards_entry(post: Any, seats: list[str]) -> list[dict[str, Any]]:
    """Eight tricks as typed: leader ``l_<trick>`` (a seat index) and the card code of each
    seat ``c_<trick>_<seat>``; blank stays blank."""
    out = []
    for t in range(MURA_TRICKS):
        lead = _int(post.get(f"l_{t}"))
        leader = seats[lead] if lead is not None and 0 <= lead < len(seats) else None
        cards = {p: str(post.get(f"c_{t}_{i}") or "").strip() for i, p in enumerate(seats)}
        out.append({"leader": leader, "cards": cards})
    return out


def _blank(trick: dict[str, Any]) -> bool:
    return trick["leader"] is None and not any(trick["cards"].values())


def cards_data(entry: list[dict[str, Any]]) -> dict[str, Any]:
    """The referee's ``trick_cards`` (names): the tricks up to the last one begun; a blank
    card is left out and a blank leader is "" — the referee names both."""
    last = max((t for t, trick in enumerate(entry) if not _blank(trick)), default=-1)
    return {"trick_cards": [
        {"leader": trick["leader"] or "",
         "cards": {p: code for p, code in trick["cards"].items() if code}}
        for trick in entry[: last + 1]
    ]}


def _check_cards(names: services.Names, entry: list[dict[str, Any]]) -> Any:
    """The referee's verdict; a blank leader after a decided trick is taken to be that
    trick's winner (the referee still checks it), so a phone fills in one leader only."""
    while True:
        result = tally.mura_check(list(names.by_id), names.deal_ids(cards_data(entry)))
        filled = False
        for outcome, trick in zip(result.tricks[:-1], entry[1:], strict=False):
            if trick["leader"] is None and outcome.winner is not None and any(
                    trick["cards"].values()):
                trick["leader"] = names.to_name(outcome.winner)
                filled = True
                break
        if not filled:
            return result


def cards_context(names: services.Names, post: Any, submitted: bool = False) -> dict[str, Any]:
    """The eight tricks with the referee's verdict next to each trick, leader and card,
    what each trick gave whom, and each player's derived tricks, figures and mura."""
    seats = list(names.by_id.values())
    entry = cards_entry(post, seats)
    by_trick: dict[tuple[int, str | None], list[str]] = {}
    general: list[str] = []
    outcomes: list[Any] = []
    results: dict[str, Any] = {}
    checked = bool(post) and (submitted or any(not _blank(t) for t in entry))
    legal = False
    if checked:
        try:
            result = _check_cards(names, entry)
        except RuleError as e:
            where = e.field.split(".")  # trick_cards.<index>.cards.<player id>
            message = input_error_message(e)
            if len(where) == 4 and where[1].isdigit():
                by_trick.setdefault((int(where[1]), names.to_name(where[3])), []).append(message)
            else:
                general.append(message)
        else:
            legal = result.legal
            card_level = any(v.code in CARD_CODES for v in result.violations)
            for v in result.violations:
                if card_level and v.code not in CARD_CODES:
                    continue
                v = names.violation(v)
                message = card_violation_message(v, PACK)
                trick = v.params.get("trick")
                if not isinstance(trick, int):
                    general.append(message)
                    continue
                if (not submitted and v.code == "wrong_number_of_plays"
                        and trick == len(result.tricks)):
                    continue  # the trick being entered: the count of tricks says it
                if v.code == "wrong_leader" or v.params.get("field") == "leader":
                    key: str | None = "leader"
                elif v.code == "wrong_number_of_plays" or v.params.get("field") == "cards":
                    key = None
                else:
                    key = v.player
                by_trick.setdefault((trick - 1, key), []).append(message)
            outcomes = list(result.tricks)
            results = {names.to_name(p): r for p, r in result.results.items()}
    tricks = []
    first_open = next((t for t, trick in enumerate(entry)
                       if trick["leader"] is None or not all(trick["cards"].values())), None)
    if first_open is not None and 0 < first_open <= len(outcomes) and _blank(entry[first_open]):
        winner = outcomes[first_open - 1].winner
        entry[first_open]["leader"] = names.to_name(winner) if winner else None
    for t, trick in enumerate(entry):
        leader = trick["leader"]
        start = seats.index(leader) if leader in seats else 0
        order = seats[start:] + seats[:start]
        outcome = outcomes[t] if t < len(outcomes) else None
        errors = by_trick.get((t, None), [])
        rows = [{"seat": seats.index(p), "name": p, "card": trick["cards"][p],
                 "errors": by_trick.get((t, p), [])} for p in order]
        has_errors = bool(errors or by_trick.get((t, "leader")) or any(r["errors"] for r in rows))
        tricks.append({
            "index": t, "number": t + 1, "leader": leader,
            "leader_seat": seats.index(leader) if leader in seats else None,
            "leader_errors": by_trick.get((t, "leader"), []),
            "errors": errors, "rows": rows,
            "winner": (names.to_name(outcome.winner)
                       if outcome and outcome.winner and all(trick["cards"].values()) else None),
            "figures": outcome.figures if outcome else 0,
            "open": has_errors or t == first_open,
            "summary": ", ".join(card_name(r["card"], PACK) for r in rows if r["card"]),
        })
    summary = [{"name": p, "result": results.get(p)} for p in seats] if results else []
    return {"tricks": tricks, "summary": summary, "general_errors": general,
            "legal": checked and legal, "pack": pack_choices(PACK)}


# --- Müller Matz finishing order ----------------------------------------------------------------


def order_entry(post: Any, seats: list[str]) -> list[str]:
    """Who went out first, second, ... last: ``o_<place>`` holds a seated name."""
    return [str(post.get(f"o_{k}") or "").strip() for k in range(len(seats))]


def order_context(names: services.Names, post: Any, submitted: bool) -> dict[str, Any]:
    """The finishing order, checked by the referee: a player listed twice is named next to
    the place they are listed again; a blank place is named once the form was sent."""
    from referee.muller_matz import check_result, packs_for

    seats = list(names.by_id.values())
    order = order_entry(post, seats)
    errors: dict[int, list[str]] = {}
    general: list[str] = []
    given = [name for name in order if name]
    legal = False
    if given:
        ids = names.deal_ids({"finish_order": given})["finish_order"]
        result = check_result(list(names.by_id), ids)
        complete = len(given) == len(order)
        legal = complete and result.legal
        for v in result.violations:
            v = names.violation(v)
            if v.code == "player_missing" and not complete:
                continue  # the blank places say it
            at = [k for k, name in enumerate(order) if name and names.to_id(name) == names.to_id(
                v.player or "")]
            if v.code == "player_listed_twice":
                at = at[1:]
            if not at:
                general.append(violation_message(v))
            for k in at:
                errors.setdefault(k, []).append(violation_message(v))
    if submitted:
        for k, name in enumerate(order):
            if not name:
                errors.setdefault(k, []).append(_("Who finished in this place?"))
    last = len(seats) - 1
    places = [{"index": k, "value": order[k], "errors": errors.get(k, []), "last": k == last}
              for k in range(len(seats))]
    return {"places": places, "general_errors": general, "legal": legal,
            "packs": packs_for(len(seats)),
            "winner": order[0] if legal else None, "loser": order[-1] if legal else None}


def _watch_extras(request: HttpRequest, session: Session) -> dict[str, Any]:
    from .views import _qr_svg

    if not session.watch_token:
        return {}
    url = request.build_absolute_uri(
        reverse("scorepad:watch", kwargs={"token": session.watch_token}))
    return {"watch_url": url, "watch_qr": _qr_svg(url)}


MODES = {Session.Game.MURA: ("", "cards"), Session.Game.MULLER_MATZ: ("", "order")}


def entry_mode(session: Session, *sources: Any) -> str:
    """The entry mode asked for (a form's ``mode`` field or ``?mode=``), else the default."""
    for source in sources:
        mode = (source or {}).get("mode") or ""
        if mode:
            return mode if mode in MODES.get(session.game, ()) else ""
    return ""


def render_session(request: HttpRequest, session: Session, post: Any = None,
                   can_write: bool = False, fragment: str | None = None,
                   submitted: bool = False, board_url: str | None = None) -> HttpResponse:
    names = services.Names.of(session)
    board_url = board_url or reverse("scorepad:board", kwargs={"session_id": session.pk})
    post = post or QueryDict()
    number = parse_id(post.get("correcting"))
    context = board_context(session, names, board_url)
    context |= entry_context(session, names, post, number=number,
                             mode=entry_mode(session, post, request.GET), submitted=submitted)
    context["can_write"] = can_write
    if can_write:
        context |= _watch_extras(request, session)
    if fragment == "deal-form":
        return render(request, "scorepad/session_game.html#gameform", context)
    if fragment == "scoreboard":
        return render(request, "scorepad/_scoreboard.html", context)
    if number is not None and session.deals.filter(number=number).exists():
        context |= {"row": session.deals.get(number=number)}
        return render(request, "scorepad/deal_edit_game.html", context)
    return render(request, "scorepad/session_game.html", context)


# --- writes ----------------------------------------------------------------------------------


def posted_data(session: Session, names: services.Names, post: Any) -> dict[str, Any]:
    seats = list(names.by_id.values())
    mode = entry_mode(session, post)
    if session.game == Session.Game.MURA:
        if mode == "cards":
            entry = cards_entry(post, seats)
            with suppress(RuleError):  # the service reports it
                _check_cards(names, entry)  # fills in leaders as the form shows them
            return names.deal_ids(cards_data(entry))
        return names.deal_ids(mura_data(mura_entry(post, seats)))
    if mode == "order":
        return names.deal_ids({"finish_order": order_entry(post, seats)})
    return names.deal_ids({"loser": post.get("loser") or ""})


def create(request: HttpRequest, session: Session, can_write: bool) -> HttpResponse:
    names = services.Names.of(session)
    try:
        number = parse_id(request.POST.get("confirm_number")) or parse_id(
            request.POST.get("number"))
        row = services.deal_record(session=session, user=request.user,
                                   data=posted_data(session, names, request.POST),
                                   number=number)
    except (services.RulesBroken, services.InputError):
        return render_session(request, session, request.POST, can_write, submitted=True)
    except services.Conflict as e:
        if e.reason == "number_taken" and (session.game == Session.Game.MURA
                                           or entry_mode(session, request.POST)):
            # another phone recorded this deal: keep what was typed, and ask
            session.refresh_from_db()
            return render_session(request, session, request.POST, can_write, submitted=True)
        messages.warning(request, conflict_message(e.reason, **e.params))
        session.refresh_from_db()
        return render_session(request, session, None, can_write)
    label = _("Game %(n)s recorded.") if session.game == Session.Game.MULLER_MATZ else _(
        "Deal %(n)s recorded.")
    messages.success(request, label % {"n": row.number}, extra_tags=f"undo:{row.number}")
    return redirect("scorepad:session", session_id=session.pk)


def stored_form(session: Session, names: services.Names, data: dict[str, Any]
                ) -> tuple[QueryDict, str]:
    """A recorded deal (names) as the form that records it, and that form's mode."""
    post = QueryDict(mutable=True)
    seats = list(names.by_id.values())
    if data.get("trick_cards") is not None:
        for t, trick in enumerate(data["trick_cards"][:MURA_TRICKS]):
            if trick.get("leader") in seats:
                post[f"l_{t}"] = str(seats.index(trick["leader"]))
            for p, code in (trick.get("cards") or {}).items():
                if p in seats:
                    post[f"c_{t}_{seats.index(p)}"] = code
        return post, "cards"
    if data.get("finish_order") is not None:
        for k, p in enumerate(data["finish_order"]):
            post[f"o_{k}"] = p
        post["loser"] = data["finish_order"][-1] if data["finish_order"] else ""
        return post, "order"
    for i, p in enumerate(seats):
        for key, prefix in (("tricks", "t"), ("figures", "f")):
            if p in (data.get(key) or {}):
                post[f"{prefix}_{i}"] = str(data[key][p])
    if data.get("loser"):
        post["loser"] = data["loser"]
    return post, ""


def edit(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    row = session.deals.filter(number=number).first()
    if row is None:
        return HttpResponse(status=404)
    names = services.Names.of(session)
    post, mode = stored_form(session, names, names.deal_names(row.data))
    submitted = False
    if request.method == "GET" and request.GET.get("mode") is not None:
        asked = entry_mode(session, request.GET)
        post, mode = (post, mode) if asked == mode else (QueryDict(), asked)
    if request.method == "POST":
        try:
            services.deal_correct(session=session, user=request.user, number=number,
                                  data=posted_data(session, names, request.POST))
        except services.RulesBroken as e:
            if session.game == Session.Game.MULLER_MATZ and not entry_mode(session, request.POST):
                messages.error(request, " ".join(
                    violation_message(names.violation(v)) for v in e.violations))
            post, mode, submitted = request.POST, entry_mode(session, request.POST), True
        except services.InputError as e:
            if session.game == Session.Game.MULLER_MATZ and not entry_mode(session, request.POST):
                messages.error(request, f"{e.field}: {input_error_message(e)}")
            post, mode, submitted = request.POST, entry_mode(session, request.POST), True
        except services.Conflict as e:
            messages.warning(request, conflict_message(e.reason, **e.params))
        except Deal.DoesNotExist:
            return HttpResponse(status=404)
        else:
            messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
            return redirect("scorepad:session", session_id=session.pk)
    checked = post if session.game == Session.Game.MURA or mode else QueryDict()
    context = entry_context(session, names, checked, number=number, mode=mode,
                            submitted=submitted)
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
    pack = [(suit, f"{SYMBOLS[suit]} {label}", [(code, f"{SYMBOLS[suit]} {name}")
                                                for code, name in cards])
            for suit, label, cards in pack_choices("french52")]
    context = {"session": session, "answer": answer, "error": error, "q": q, "pack": pack}
    template = "scorepad/_beat.html"
    if not request.headers.get("HX-Request"):
        template = "scorepad/beat.html"
    return render(request, template, context)


def cards_history(seats: list[str], data: dict[str, Any]) -> dict[str, Any] | None:
    """A card-by-card deal (names) for the history: each trick's cards by name and who
    took it, and the counts the referee derives. None for any other deal."""
    if not isinstance(data.get("trick_cards"), list):
        return None
    try:
        result = tally.mura_check(seats, data)
    except RuleError:
        return None
    tricks = [{"number": o.number, "winner": o.winner,
               "cards": [(p, card_name(c.code, PACK)) for p, c in o.plays]}
              for o in result.tricks]
    return {"tricks": tricks, "results": dict(result.results)}
