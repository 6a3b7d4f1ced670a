"""What the pages share: the session page and the deal form as every game renders them,
htmx targets, the polled scoreboard's URL, watch links and their QR codes.

A view asks ``games.of(session)`` once and hands the game on; these helpers never ask
again.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse

from .. import fastpoll, games, htmx_answers, services
from ..access import WRITERS, role_in
from ..games.base import mode_of
from ..ids import parse_id
from ..loaded import Loaded
from ..models import Session


def htmx_target(request: HttpRequest) -> str | None:
    """The element a (non-boosted) htmx request will swap, to answer with just that."""
    htmx = getattr(request, "htmx", None)
    if not htmx or htmx.boosted:
        return None
    return str(htmx.target) if htmx.target else None


def no_store(response: HttpResponse) -> HttpResponse:
    """Pages with a secret token in their URL: never cached, never sent on as a referrer."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def qr_svg(url: str) -> str:
    """The link as an inline SVG QR code, drawn here: no external service sees the token."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False,
                                    svgns=True, dark="#000", light="#fff",
                                    title="QR", nl=False, omitsize=True)  # a viewBox: it scales
    return out.getvalue().decode()


def watch_extras(request: HttpRequest, session: Session) -> dict[str, Any]:
    """The watch link and its QR code, for those who may share it."""
    if not session.watch_token:
        return {}
    url = request.build_absolute_uri(
        reverse("scorepad:watch", kwargs={"token": session.watch_token}))
    return {"watch_url": url, "watch_qr": qr_svg(url)}


def user_board_url(request: HttpRequest, session: Session, role: str | None) -> str:
    """The polled scoreboard's URL with a grant for this member (fastpoll)."""
    url = reverse("scorepad:board", kwargs={"session_id": session.pk})
    if role is None or not request.user.is_authenticated:
        return url
    return fastpoll.with_grant(url, fastpoll.user_grant(session.pk, session.group_id,
                                                        request.user.pk, str(role),
                                                        fastpoll.auth_tag(request)))


def board_parts(request: HttpRequest, role: str) -> tuple[str, ...]:
    return ("html", request.LANGUAGE_CODE, "w" if role in WRITERS else "r")


def board_context(loaded: Loaded, game: games.Game, board_url: str) -> dict[str, Any]:
    """The scoreboard as the pages show it (``_scoreboard.html``)."""
    board = services.scoreboard(loaded)
    return ({"session": loaded.session, "board": board, "board_url": board_url,
             "board_template": game.BOARD_TEMPLATE} | game.board_context(loaded, board))


def stale_form(loaded: Loaded, form_number: int | None) -> dict[str, Any] | None:
    """A new-deal form made for deal ``form_number`` when the next deal is another one
    (another phone recorded it meanwhile): that deal as recorded, and the next number."""
    if form_number is None or form_number == loaded.next_number:
        return None
    row = loaded.session.deals.filter(number=form_number).first()
    recorded = loaded.names.deal_names(row.data) if row is not None else None
    return {"number": form_number, "next": loaded.next_number, "recorded": recorded}


def render_session(request: HttpRequest, loaded: Loaded, game: games.Game,
                   post: Any = None, *, submitted: bool = False) -> HttpResponse:
    """The session page (scoreboard and deal form), or the part htmx asked for: the
    form as ``post`` filled it, checked by the referee. A new-deal form keeps the number
    it was made for: if another phone recorded that deal meanwhile, it says so
    (_stale_notice.html) and saves only as the next deal when confirmed."""
    if htmx_answers.wants_table(request):  # a save happened: answer with the state after it
        loaded.session.refresh_from_db()
        loaded = loaded.with_row(loaded.session)
    session = loaded.session
    role = role_in(request.user, session.group)
    context = board_context(loaded, game, user_board_url(request, session, role))
    context |= game.entry_context(loaded, post or QueryDict(), number=None,
                                  mode=mode_of(game.MODES, post, request.GET),
                                  submitted=submitted)
    stale = stale_form(loaded, parse_id(post.get("number")) if post else None)
    context["stale"] = stale
    context["next_number"] = stale["number"] if stale else loaded.next_number
    context["can_write"] = role in WRITERS
    context.setdefault("idempotency_key", secrets.token_urlsafe(24))
    if context["can_write"]:
        context |= watch_extras(request, session)
        if session.status != Session.Status.OPEN:
            context["again"] = again_fields(loaded, context["board"])
    template = game.SESSION_TEMPLATE
    target = htmx_target(request)
    if target == "deal-form":
        template = game.FORM_FRAGMENT
    elif target == htmx_answers.TARGET:
        template = f"{game.SESSION_TEMPLATE}#table"  # the new scores and a fresh form
    elif target == "scoreboard":
        template = "scorepad/_scoreboard.html"
    return render(request, template, context)


def again_fields(loaded: Loaded, board: dict[str, Any]) -> list[tuple[str, str]]:
    """The start form, filled for a new session of the same table (one tap): group,
    game, rules (the house rules that differ from the preset), players and stake; the
    player who would have dealt next deals first."""
    import json

    from referee.rules import PRESETS

    session = loaded.session
    seats = list(loaded.names.by_id.values())
    fields = [("group", str(session.group_id)), ("game", session.game),
              ("preset", session.preset if session.preset in PRESETS else "salzburg")]
    if session.stake is not None:
        fields += [("stake", format(session.stake.normalize(), "f")),
                   ("currency", session.currency or "")]
    fields += [(f"seat_{i}", name) for i, name in enumerate(seats)]
    dealer = board.get("next_dealer")
    if dealer in seats:
        fields.append(("dealer", str(seats.index(dealer))))
    if session.preset in PRESETS:  # house rules: the Mulatschak presets' parameters
        preset = PRESETS[session.preset].as_params()
        fields += [(f"rule_{name}", json.dumps(value))
                   for name, value in (session.rules or {}).items()
                   if name in preset and preset[name] != value]
    return fields


def render_edit(request: HttpRequest, loaded: Loaded, game: games.Game, number: int,
                post: Any, mode: str, *, submitted: bool = False, row: Any = None
                ) -> HttpResponse:
    """The correction form of deal ``number`` (``row``, if read already) as ``post``
    fills it (404 for no such deal), checked by the referee where the deal stands."""
    row = row or loaded.session.deals.filter(number=number).first()
    if row is None:
        raise Http404
    context = game.entry_context(loaded, post, number=number, mode=mode, submitted=submitted)
    context |= {"session": loaded.session, "row": row, "version": row.version,
                "can_write": True}
    template = game.EDIT_TEMPLATE
    if htmx_target(request) == "deal-form":
        template = game.FORM_FRAGMENT
    return render(request, template, context)


def correcting(post: Any) -> int | None:
    """The deal a form corrects (its ``correcting`` field), if any."""
    return parse_id((post or {}).get("correcting"))
