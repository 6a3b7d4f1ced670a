"""What the pages share: the session page and the deal form as every game renders them,
htmx targets, the polled scoreboard's URL, watch links and their QR codes.

A view asks ``games.of(session)`` once and hands the game on; these helpers never ask
again.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse

from .. import accounts, games, htmx_answers, services
from ..access import WRITERS, is_table, role_in
from ..cache import backend, grants
from ..forms import about_form
from ..games import scorerdata
from ..games.base import mode_of
from ..ids import parse_id
from ..loaded import Loaded
from ..models import Session
from ..tournaments import tables


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
    """The polled scoreboard's URL with a grant for this member (scorepad.cache.grants)."""
    url = reverse("scorepad:board", kwargs={"session_id": session.pk})
    if role is None or not request.user.is_authenticated or is_table(request.user):
        return url  # a table's phone polls by its cookie: its code ends with the round
    return grants.with_grant(url, grants.user_grant(session.pk, session.group_id,
                                                        request.user.pk, str(role),
                                                        grants.auth_tag(request)))


def board_parts(request: HttpRequest, role: str) -> tuple[str, ...]:
    return ("html", request.LANGUAGE_CODE, role_class(request, role))


def board_context(loaded: Loaded, game: games.Game, board_url: str) -> dict[str, Any]:
    """The scoreboard as the pages show it (``_scoreboard.html``)."""
    board = services.scoreboard(loaded)
    # who would have dealt next: the first dealer of the same table's next session
    would_deal = board.get("next_dealer")
    if loaded.session.status != loaded.session.Status.OPEN:  # nobody deals any more
        board = {**board, "next_dealer": None, "next_sitting_out": None}
    return ({"session": loaded.session, "board": board, "board_url": board_url,
             "would_deal": would_deal,
             "board_template": game.BOARD_TEMPLATE,
             # what the phone's scorer starts from (those who record; scorerdata)
             "scorer_table": lambda: scorerdata.table_json(loaded),
             "scorer_state": lambda: scorerdata.state_json(loaded),
             # the violations' words, loaded with the scorer's scripts (_provisional.html)
             "scorer_words": lambda: scorerdata.words_script(loaded),
             # the players, in their seats (the offline start page lists the session by them)
             "seat_names": lambda: [loaded.names.to_name(p) for p in loaded.seats]}
            | game.board_context(loaded, board))


def stale_form(loaded: Loaded, form_number: int | None) -> dict[str, Any] | None:
    """A new-deal form made for deal ``form_number`` when the next deal is another one
    (another phone recorded it meanwhile): that deal as recorded, and the next number."""
    if form_number is None or form_number == loaded.next_number:
        return None
    row = loaded.session.deals.filter(number=form_number).first()
    recorded = loaded.names.deal_names(row.data) if row is not None else None
    return {"number": form_number, "next": loaded.next_number, "recorded": recorded,
            "summary_template": games.of(loaded.session).SUMMARY_TEMPLATE}


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
    # session_for brought the asker's role along with the row
    role = getattr(session, "asker_role", None) or role_in(request.user, session.group)
    if post is None and not submitted and htmx_target(request) is None:
        return _session_page(request, loaded, game, role)
    return _render_session(request, loaded, game, role, post, submitted=submitted)


def _render_session(request: HttpRequest, loaded: Loaded, game: games.Game, role: Any,
                    post: Any = None, *, submitted: bool = False,
                    marks: bool = False) -> HttpResponse:
    """render_session's page; with ``marks``, the parts that differ per request (the
    CSRF token, the form's idempotency key, the poll grant) as placeholders."""
    session = loaded.session
    board_url = (grants.with_grant(reverse("scorepad:board",
                                             kwargs={"session_id": session.pk}),
                                     grants.MARK)
                 if marks else user_board_url(request, session, role))
    context = board_context(loaded, game, board_url)
    context |= game.entry_context(loaded, post or QueryDict(), number=None,
                                  mode=mode_of(game.MODES, post, request.GET),
                                  submitted=submitted)
    stale = stale_form(loaded, parse_id(post.get("number")) if post else None)
    context["stale"] = stale
    context["next_number"] = stale["number"] if stale else loaded.next_number
    context["last_number"] = loaded.next_number - 1  # 0: nothing to undo yet
    context["can_write"] = role in WRITERS
    # a tournament's table says when it has finished, instead of a deal form it would
    # refuse (not asked by the form's own check: the form alone is answered)
    if htmx_target(request) != "deal-form":
        context["tournament_table"] = tables.page_context(session)
    context.setdefault("idempotency_key", secrets.token_urlsafe(24))
    if marks:
        context |= {"idempotency_key": IDEMPOTENCY_MARK, "csrf_token": CSRF_MARK,
                    "phone_owner": OWNER_MARK, "former_owner": ""}
    if context["can_write"] and not is_table(request.user):
        context["about_form"] = about_form(session)
        context |= watch_extras(request, session)
        if session.status != Session.Status.OPEN:
            context["again"] = again_fields(loaded, context["would_deal"])
    template = game.SESSION_TEMPLATE
    target = htmx_target(request)
    if target == "deal-form":
        template = game.FORM_FRAGMENT
    elif target == htmx_answers.TARGET:
        template = f"{game.SESSION_TEMPLATE}#table"  # the new scores and a fresh form
    elif target == "scoreboard":
        template = "scorepad/_scoreboard.html"
    return render(request, template, context)


#: Stand for what differs per request in a cached session page (_session_page).
CSRF_MARK = "__csrfmark__"
OWNER_MARK = "__ownermark__"
IDEMPOTENCY_MARK = "__idempotencymark__"
#: Seconds a rendered session page is kept (its key names the session's version).
PAGE_SECONDS = 300


def _page_key(request: HttpRequest, session_id: int, version: int, role: Any) -> str:
    """Whatever the cached page depends on besides the per-request marks: the session
    and its version (every change to its deals, status, players or watch link bumps it),
    the language, what the role may do, and the address asked for (host for the watch
    link, query for the mode)."""
    parts = [str(session_id), str(version), request.LANGUAGE_CODE, role_class(request, role),
             request.get_host(), request.get_full_path(),
             "x" if getattr(request, "htmx", False) else ""]
    return "page:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:40]


def role_class(request: HttpRequest, role: Any) -> str:
    """What a cached page depends on of who asks: a table's phone ("t": its table, no
    group), a member who records ("w") or one who reads ("r")."""
    if table_request(request):
        return "t"
    return "w" if role in WRITERS else "r"


def table_request(request: HttpRequest) -> bool:
    """Is a table's phone asking (scorepad/tablephone.py)? Without loading the login."""
    return getattr(request, "table_phone", None) is not None


def _reusable(request: HttpRequest) -> bool:
    """May this request have the page rendered for its version? Not with messages to
    show (they are rendered for this request alone)."""
    from django.contrib.messages import get_messages

    return not len(get_messages(request))  # type: ignore[arg-type]


def reused_page(request: HttpRequest, session_id: int) -> HttpResponse | None:
    """The session page as rendered for its version before, without a query: the
    member's role and the session's version from the shared cache (grants.member_of,
    kept true by the access generations), the page from the cache; None: render it
    (``render_session``)."""
    if (not backend.shared() or table_request(request) or htmx_target(request) is not None
            or htmx_answers.wants_table(request) or not _reusable(request)):
        return None
    member = grants.member_of(request.user, session_id)
    if member is None:
        return None
    body = backend.get(_page_key(request, session_id, member.version, member.role))
    if not isinstance(body, bytes):
        return None
    grant = member.grant(session_id, request.user.pk, grants.auth_tag(request))
    return _filled(request, body, grant)


def _filled(request: HttpRequest, body: bytes, grant: str | None) -> HttpResponse:
    """A reused page with this answer's CSRF token, idempotency key, poll grant and
    account (``phone_owner``: pages of one version are shared by the members)."""
    from django.middleware.csrf import get_token

    body = grants.fill(body, grant).replace(
        CSRF_MARK.encode(), get_token(request).encode()).replace(
        IDEMPOTENCY_MARK.encode(), secrets.token_urlsafe(24).encode()).replace(
        OWNER_MARK.encode(), accounts.phone_owner(user=request.user).encode())
    return HttpResponse(body, content_type="text/html; charset=utf-8")


def _session_page(request: HttpRequest, loaded: Loaded, game: games.Game, role: Any
                  ) -> HttpResponse:
    """The session page rendered once per version (and language and role) and reused
    (``reused_page``): each answer only puts in its own CSRF token, idempotency key and
    poll grant. A page with messages to show is rendered for this request alone."""
    if not _reusable(request):
        return _render_session(request, loaded, game, role)
    session = loaded.session
    key = _page_key(request, session.pk, session.version, role)
    body = backend.get(key)
    if not isinstance(body, bytes):
        body = _render_session(request, loaded, game, role, marks=True).content
        backend.put(key, body, PAGE_SECONDS)
    grant = None if is_table(request.user) else grants.user_grant(
        session.pk, session.group_id, request.user.pk, str(role), grants.auth_tag(request))
    return _filled(request, body, grant)


def again_fields(loaded: Loaded, dealer: str | None) -> list[tuple[str, str]]:
    """The start form, filled for a new session of the same table (one tap): group,
    game, rules (the house rules that differ from the preset), players and stake; the
    player who would have dealt next (``dealer``) deals first."""
    from ..forms import SessionForm, default_preset

    session = loaded.session
    preset, house_rules = games.of(session).again_rules(session)
    seats = list(loaded.names.by_id.values())
    fields = [("group", str(session.group_id)), ("game", session.game),
              ("preset", preset or default_preset(SessionForm.base_fields["preset"]) or "")]
    if session.stake is not None:
        fields += [("stake", format(session.stake.normalize(), "f")),
                   ("currency", session.currency or "")]
    fields += [(f"seat_{i}", name) for i, name in enumerate(seats)]
    if dealer in seats:
        fields.append(("dealer", str(seats.index(dealer))))
    return fields + house_rules


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
