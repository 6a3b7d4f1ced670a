"""The session page and what hangs off it: starting a session, the list of sessions, the
polled scoreboard, closing and reopening, watch links and the settlement (the Referee
page, which answers "does this beat?" too, is views/referee.py)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .. import accounts, amounts, card, games, guests, limits, services, sharing
from ..access import (
    READ,
    WRITE,
    WRITERS,
    is_table,
    pk_of,
    poll_row,
    session_for,
    visible_groups,
)
from ..cache import grants
from ..cache.answers import client_has, etag_for, polled
from ..forms import MAX_SEATS, SessionForm, about_form
from ..loaded import Loaded
from ..messages import conflict_message, input_error_message
from ..models import Group, Guest, Membership, Session
from ..transfer import exporting
from .common import board_context, board_parts, no_store, render_session, reused_page


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_new(request: HttpRequest) -> HttpResponse:
    return _session_start(request, guests.guest_of(request.user))


@require_http_methods(["GET", "HEAD", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """"Just play": the same start without an account; the session belongs to this phone
    (scorepad/guests.py). Somebody logged in starts one as usual."""
    if request.user.is_authenticated:
        return redirect("scorepad:session_new")
    return _session_start(request, guests.from_cookie(request), anonymous=True)


def _guest_refused(request: HttpRequest, wait: int) -> HttpResponse:
    """429: this address started its sessions without an account for the hour."""
    response = render(request, "registration/account_needed.html",
                      {"refused": accounts.guest_sessions_message(wait)}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _session_start(request: HttpRequest, guest: Guest | None, anonymous: bool = False
                   ) -> HttpResponse:
    """The start form and its answer; a guest's session goes to its own group (a new
    guest first, for somebody not logged in), counted against the address."""
    writable = visible_groups(request.user).filter(
        memberships__user=request.user,
        memberships__role__in=[Membership.Role.OWNER, Membership.Role.EDITOR],
    ) if request.user.is_authenticated else Group.objects.none()
    playing_as_guest = anonymous or guest is not None
    initial: dict[str, Any] = {}
    if writable.count() == 1:
        initial["group"] = writable.first()
    form = SessionForm(request.POST or None, groups=writable, initial=initial,
                       needs_group=not playing_as_guest)
    seat_errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        preset, overrides = games.get(data["game"]).form_rules(data)
        start = {"preset": preset, "overrides": overrides, "seats": data["seats"],
                 "dealer": data["dealer_name"], "game": data["game"],
                 "stake": data.get("stake") or None, "currency": data.get("currency") or None}
        try:
            if playing_as_guest:
                guest, session = guests.guest_session_start(request=request, guest=guest,
                                                            **start)
            else:
                session = services.session_start(group=data["group"],
                                                  group_name=data["new_group"],
                                                  user=request.user, **start)
        except limits.TooMany as e:
            return _guest_refused(request, e.wait)
        except services.InputError as e:
            field = e.field.removeprefix("rules.overrides.")
            target = f"rule_{field}" if f"rule_{field}" in form.fields else None
            if e.field.startswith("seats"):
                seat_errors.append(input_error_message(e))  # shown with the seats
            else:
                if e.field in ("stake", "currency"):
                    target = e.field
                where = "" if target else f"{e.field}: "  # next to its field it needs no name
                form.add_error(target, where + input_error_message(e))
        else:
            response = redirect("scorepad:session", session_id=session.pk)
            if guest is not None:
                if not request.user.is_authenticated:
                    login(request, guest.user, backend=guests.BACKEND)
                guests.cookie_set(response, request, guest)
            return response
    roster = sorted(
        {p.name for g in writable.prefetch_related("players") for p in g.players.all()}
    )
    # What each game adds to the form, shown while it is the game picked (by its place
    # among the games: static/schreiber.css, "the game decides what the form asks").
    start_games = [{"index": i, "most": game.rules(None, None).most} | game.start_parts(form)
                   for i, game in enumerate(games.registered(), 1)]
    seat_rows = [(field, " ".join(f"beyond-{g['index']}" for g in start_games
                                  if n > g["most"]))
                 for n, field in enumerate(form.seat_fields(), 1)]
    return render(
        request,
        "scorepad/session_new.html",
        {"form": form, "start_games": start_games, "seat_rows": seat_rows,
         "stake_label": games.stake_label(), "roster": roster,
         "seat_numbers": range(MAX_SEATS), "seat_errors": seat_errors,
         "playing_as_guest": playing_as_guest},
    )


@login_required
@require_safe
def session_list(request: HttpRequest) -> HttpResponse:
    rows = (
        Session.objects.filter(group__in=visible_groups(request.user))
        .select_related("group")
        .order_by("-date", "-created_at", "-id")[:100]
    )
    return render(request, "scorepad/session_list.html", {"sessions": rows})


@login_required
@require_safe
def session_page(request: HttpRequest, session_id: int) -> HttpResponse:
    """The page as rendered for its version, from the cache without a query when it can
    be (``reused_page``); else read, rendered and kept, and the member's role cached for
    the next time (read under the access generations of before the read)."""
    pk = pk_of(session_id)
    if is_table(request.user):  # a table's phone (scorepad/tablephone.py): no member
        loaded = Loaded.of(session_for(request.user, pk, READ, without_state=True))
        return render_session(request, loaded, games.of(loaded.session))
    page = reused_page(request, pk)
    if page is not None:
        return page
    before = grants.member_generations(request.user, pk)
    loaded = Loaded.of(session_for(request.user, pk, READ, without_state=True))
    session = loaded.session
    grants.remember_member(request.user, pk, session.version,
                             str(getattr(session, "asker_role", "")), session.group_id, before)
    return render_session(request, loaded, games.of(session))


@require_safe
def scoreboard_fragment(request: HttpRequest, session_id: int) -> HttpResponse:
    """The scoreboard alone, for polling phones: 304 when nothing changed, each version
    rendered once (answers.polled). With a valid grant in the URL and the cache,
    neither is a database query (scorepad.cache.grants); else the login and one small query decide,
    and the answer carries a fresh grant (a 200 even if the client had the version, when
    its grant was stale: that is how a phone gets a new one)."""
    pk = pk_of(session_id)
    fast = grants.check_user(request, pk)
    if fast is not None and fast.recalled and not client_has(
            request, etag_for(pk, fast.version, *board_parts(request, fast.role))):
        fast = grants.check_user(request, pk, fresh=True)  # a body: from the shared cache
    if fast is not None:
        version, role, grant = fast.version, fast.role, fast.grant
    else:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        version, role, group_id = poll_row(request.user, pk, READ)
        grant = None if is_table(request.user) else grants.user_grant(
            pk, group_id, request.user.pk, role, grants.auth_tag(request))
    can_write = role in WRITERS
    parts = board_parts(request, role)

    def build() -> tuple[str, bytes, str]:
        session = Session.objects.select_related("group").filter(pk=pk).first()
        if session is None:
            raise Http404
        board_url = grants.with_grant(reverse("scorepad:board", kwargs={"session_id": pk}),
                                        grants.MARK)
        loaded = Loaded.of(session)
        context = board_context(loaded, games.of(session), board_url)
        context["can_write"] = can_write
        response = render(request, "scorepad/_scoreboard.html", context)
        return etag_for(session.pk, session.version, *parts), response.content, \
            response["Content-Type"]

    return polled(request, etag_for(pk, version, *parts), build,
                  force=fast is None and grants.PARAM in request.GET,
                  finish=lambda body: grants.fill(body, grant))


@login_required
@require_POST
def session_status(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    try:
        services.session_set_status(session=session, status=request.POST.get("status", ""),
                                    user=request.user)
    except services.InputError as e:
        messages.error(request, input_error_message(e))
    except services.Conflict as e:
        messages.error(request, conflict_message(e.reason, **e.params))
    return redirect("scorepad:session", session_id=session.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_about(request: HttpRequest, session_id: int) -> HttpResponse:
    """Name, date and note of the session (its page has the same form): saved, back to
    the session; refused, this page again with each problem at its field (status 200)."""
    session = session_for(request.user, session_id, WRITE)
    form = about_form(session, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.session_describe(session=session, **form.cleaned_data)
        except services.InputError as e:
            for problem in e.problems:
                target = problem.field if problem.field in form.fields else None
                form.add_error(target, input_error_message(problem))
        else:
            messages.success(request, _("Saved."))
            return redirect(reverse("scorepad:session", kwargs={"session_id": session.pk})
                            + "#about")
    return render(request, "scorepad/session_about.html",
                  {"session": session, "about_form": form})


@login_required
@require_POST
def watch_link(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    if request.POST.get("action") == "revoke":
        sharing.watch_link_revoke(session=session)
        messages.success(request, _("The watch link is revoked: it shows nothing any more."))
    else:
        sharing.watch_link_create(session=session)
    return redirect("scorepad:session", session_id=session.pk)


def _watch_session(token: str) -> Session:
    try:
        return sharing.session_by_watch_token(token)
    except Session.DoesNotExist:
        raise Http404 from None


@require_safe
def watch(request: HttpRequest, token: str) -> HttpResponse:
    """The live scoreboard for everyone at the table who has the link: read-only, no login."""
    session = _watch_session(token)
    board_url = grants.with_grant(_watch_board_url(token),
                                    grants.watch_grant(session.pk, token))
    context = board_context(Loaded.of(session), games.of(session), board_url)
    return no_store(render(request, "scorepad/watch.html", context))


def _watch_board_url(token: str) -> str:
    return reverse("scorepad:watch_board", kwargs={"token": token})


@require_safe
def watch_board(request: HttpRequest, token: str) -> HttpResponse:
    fast = grants.check_watch(request, token)
    parts = ("watch", request.LANGUAGE_CODE, grants.token_tag(token))
    if fast is not None and fast.recalled and not client_has(
            request, etag_for(fast.session_id, fast.version, *parts)):
        fast = grants.check_watch(request, token, fresh=True)
    if fast is not None:
        found, grant = (fast.session_id, fast.version), fast.grant
    else:
        found = sharing.watch_version(token)
        if found is None:
            raise Http404
        grant = grants.watch_grant(found[0], token)
    # The fragment polls its own URL, which names the token (parts): a new link after a
    # revoked one must not get the old one's cached render.

    def build() -> tuple[str, bytes, str]:
        session = _watch_session(token)
        board_url = grants.with_grant(_watch_board_url(token), grants.MARK)
        response = render(request, "scorepad/_scoreboard.html",
                          board_context(Loaded.of(session), games.of(session), board_url))
        return etag_for(session.pk, session.version, *parts), response.content, \
            response["Content-Type"]

    return polled(request, etag_for(*found, *parts), build, secret_url=True,
                  force=fast is None and grants.PARAM in request.GET,
                  finish=lambda body: grants.fill(body, grant))


# --- the evening's card ---------------------------------------------------------------


@login_required
@require_safe
def card_page(request: HttpRequest, session_id: int) -> HttpResponse:
    """The evening's card to share (docs/using.md, "The evening's card"): the picture, a
    *Share the evening* button (the phone's share sheet with the picture where it takes
    files, else a download), the picture to download, and the same words as text."""
    session = session_for(request.user, session_id, READ)
    words = card.content(session)
    url = reverse("scorepad:card_picture", kwargs={"session_id": session.pk})
    lang = f"lang={request.LANGUAGE_CODE}"
    return render(request, "scorepad/card.html", {
        "session": session, "text": card.text(words), "title": words.title,
        "light_url": f"{url}?{lang}", "dark_url": f"{url}?theme=dark&{lang}",
        "filename": card.filename(session),
        "lines": card.text(words).count("\n") + 1,
    })


@login_required
@require_safe
def card_picture(request: HttpRequest, session_id: int) -> HttpResponse:
    """The card as a PNG for whoever may see the session's page (its members, the guest
    who plays it, its table's phone): the API's ``card.png`` knows accounts alone, and a
    page's picture and download must work for everyone who sees the page."""
    session = session_for(request.user, session_id, READ)
    body = card.png_kept(session, card.theme_of(request.GET.get("theme")),
                         card.language_of(request.GET.get("lang")))
    response = HttpResponse(body, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{card.filename(session)}"'
    response["Cache-Control"] = "private, max-age=0"
    return response


#: The session page's files: the versioned JSON the import takes, and one row per deal.
SESSION_FILES = {"json": "application/json", "csv": "text/csv; charset=utf-8"}


@login_required
@require_safe
def session_file(request: HttpRequest, session_id: int, fmt: str) -> HttpResponse:
    """The session as a file, for whoever may see its page (as ``card_picture``): the
    same JSON and CSV as the API's export, which knows accounts alone."""
    if fmt not in SESSION_FILES:
        raise Http404
    session = session_for(request.user, session_id, READ)
    if fmt == "csv":
        body = exporting.session_csv(session)
    else:
        body = json.dumps(exporting.session_export(session), cls=DjangoJSONEncoder,
                          ensure_ascii=False)
    response = HttpResponse(body, content_type=SESSION_FILES[fmt])
    response["Content-Disposition"] = (
        f'attachment; filename="{exporting.export_filename("session", session.pk, fmt)}"')
    return response


# --- money --------------------------------------------------------------------------------


def _copy_text(money: dict[str, Any]) -> str:
    """The transfers for the group chat, the amounts as the page writes them."""
    return "\n".join(f"{t['from']} → {t['to']} {amounts.money(t['amount'], money['currency'])}"
                     for t in money["transfers"])


@login_required
@require_safe
def settlement_page(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    money = services.settlement(session)
    return render(request, "scorepad/settlement.html", {
        "session": session, "money": money, "copy_text": _copy_text(money),
        "balances": list(money["balances"].items()),
        "money_rules_template": games.of(session).MONEY_RULES_TEMPLATE,
    })
