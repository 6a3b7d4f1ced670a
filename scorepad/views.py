"""HTML views: thin adapters over the services and the referee.

Every page works without JavaScript (plain forms and links); htmx makes the deal form
check itself live and keeps the scoreboard fresh. Validation errors come back as the
re-rendered form with status 200 (htmx does not swap 4xx bodies).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import connection
from django.db.utils import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.defaults import bad_request as django_bad_request
from django.views.defaults import page_not_found
from django.views.defaults import server_error as django_server_error

from referee.rules import PARAMETER_NAMES, PRESETS

from . import accounts, exchange, fastpoll, game_views, services
from .access import (
    MANAGE,
    READ,
    WRITE,
    WRITERS,
    _pk,
    group_for,
    poll_row,
    role_in,
    session_for,
    visible_groups,
)
from .conditional import client_has, etag_for, polled
from .forms import MAX_SEATS, TRUMPS, DealEntry, GroupForm, PlayerForm, SessionForm, SignupForm
from .ids import parse_id
from .messages import (
    FACTOR_LABELS,
    PARAMETER_HELP,
    conflict_message,
    input_error_message,
    reason_label,
    violation_message,
)
from .models import Deal, DealEvent, Invite, Membership, Session

RECENT_DEALS = 8
#: What each preset's players call a bid of five (RULES.md §2.1, step 4).
MULI_NAMES = {"salzburg": "Muli", "geiser": "Mulatschak", "murln": "Murler"}


# --- project pages ------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "scorepad/home.html", {"presets": PRESETS.values()})
    sessions = (
        Session.objects.filter(group__in=visible_groups(request.user))
        .select_related("group")
        .order_by("-created_at")[:20]
    )
    return render(
        request,
        "scorepad/dashboard.html",
        {
            "open_sessions": [s for s in sessions if s.status == Session.Status.OPEN],
            "past_sessions": [s for s in sessions if s.status == Session.Status.CLOSED],
            "groups": visible_groups(request.user),
        },
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/ (the contract's error shape), the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return page_not_found(request, exception or Http404())


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400 from Django itself (e.g. a body over the size limit sent without a length):
    JSON under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        from django.core.exceptions import RequestDataTooBig

        from .middleware import too_large_message

        message = (too_large_message() if isinstance(exception, RequestDataTooBig)
                   else _("Bad request."))
        return JsonResponse({"detail": message}, status=400)
    return django_bad_request(request, exception or Exception())


def locked_out(request: HttpRequest, original_response: Any = None,
               credentials: Any = None) -> HttpResponse:
    """Too many wrong passwords for this username from this address: try again later."""
    message = _("Too many wrong passwords for this username. Try again in 15 minutes.")
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=429)
    return render(request, "registration/locked_out.html", {"message": message}, status=429)


def server_error(request: HttpRequest) -> HttpResponse:
    import sys

    from .middleware import UNAVAILABLE, database_unavailable

    if isinstance(sys.exc_info()[1], UNAVAILABLE):  # lost outside a view: 503 all the same
        return database_unavailable(request)
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Server error.")}, status=500)
    return django_server_error(request)


@never_cache
@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """The cheapest answer through the whole middleware stack, no database: the yardstick
    the benchmarks compare real pages with (bench/throughput.py)."""
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        wait = accounts.registration_wait(request)
        if wait is not None:  # this address made its accounts for the hour
            response = render(request, "registration/signup.html",
                              {"form": SignupForm(),
                               "refused": accounts.registrations_message(wait)},
                              status=429)
            response["Retry-After"] = str(wait)
            return response
    if request.method == "POST" and form.is_valid():
        user = form.save()
        accounts.registration_made(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("scorepad:session_new")
    return render(request, "registration/signup.html", {"form": form})


# --- groups ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def groups(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.group_create(user=request.user, name=form.cleaned_data["name"])
        except services.InputError as e:
            form.add_error("name", input_error_message(e))
        else:
            return redirect("scorepad:group", group_id=group.pk)
    return render(request, "scorepad/groups.html",
                  {"groups": visible_groups(request.user), "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def group(request: HttpRequest, group_id: int) -> HttpResponse:
    need = WRITE if request.method == "POST" else READ
    the_group = group_for(request.user, group_id, need)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_id = request.POST.get("player")
            if player_id:
                number = _number(player_id)  # a tampered field finds no player, as a stranger's
                player = None if number is None else the_group.players.filter(pk=number).first()
                if player is None:
                    raise Http404
                services.player_rename(player=player, name=form.cleaned_data["name"])
            else:
                services.player_add(group=the_group, name=form.cleaned_data["name"])
        except services.InputError as e:
            form.add_error("name", input_error_message(e))
        else:
            return redirect("scorepad:group", group_id=the_group.pk)
    return _render_group(request, the_group, form)


def _render_group(request: HttpRequest, the_group: Any, form: PlayerForm,
                  import_problems: list[dict[str, str]] | None = None) -> HttpResponse:
    return render(
        request,
        "scorepad/group.html",
        {
            "import_problems": import_problems,
            "group": the_group,
            "players": the_group.players.order_by("name"),
            "members": the_group.memberships.select_related("user").order_by("user__username"),
            "role": role_in(request.user, the_group),
            "form": form,
            "can_write": role_in(request.user, the_group) in (
                Membership.Role.OWNER, Membership.Role.EDITOR),
            "can_manage": role_in(request.user, the_group) == Membership.Role.OWNER,
            "invites": [
                {"invite": i, "url": request.build_absolute_uri(
                    reverse("scorepad:join", kwargs={"token": i.token}))}
                for i in services.open_invites(the_group)
            ],
            "roles": Membership.Role.choices,
        },
    )


@login_required
@require_POST
def group_import(request: HttpRequest, group_id: int) -> HttpResponse:
    """An uploaded export file (a session, or a whole group) into this group."""
    the_group = group_for(request.user, group_id, WRITE)
    upload = request.FILES.get("file")
    problems: list[dict[str, str]] = []
    if upload is None:
        problems = [{"path": "", "message": _("Choose an export file to import.")}]
    else:
        try:
            if upload.size is not None and upload.size > exchange.MAX_BYTES:
                raise exchange.too_large()
            data = exchange.read_file(upload.read(exchange.MAX_BYTES + 1))
            if exchange.sniff_kind(data) == "group":
                count = len(exchange.group_import(group=the_group, data=data))
            else:
                exchange.session_import(group=the_group, data=data)
                count = 1
        except exchange.ImportRejected as e:
            problems = [p.as_dict() for p in e.problems]
        else:
            messages.success(request, ngettext("Imported %(count)s session.",
                                               "Imported %(count)s sessions.", count)
                             % {"count": count})
            return redirect("scorepad:group", group_id=the_group.pk)
    return _render_group(request, the_group, PlayerForm(), problems)


# --- sessions -------------------------------------------------------------------------------


def _rules_table(form: SessionForm) -> list[dict[str, Any]]:
    """Every parameter with its meaning, each preset's default, and its input."""
    defaults = {p.name: p.as_params() for p in PRESETS.values()}
    return [
        {
            "name": name,
            "help": PARAMETER_HELP.get(name, ""),
            "defaults": [(preset, params[name]) for preset, params in defaults.items()],
            "field": form[f"rule_{name}"],
        }
        for name in PARAMETER_NAMES
    ]


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest) -> HttpResponse:
    writable = visible_groups(request.user).filter(
        memberships__user=request.user,
        memberships__role__in=[Membership.Role.OWNER, Membership.Role.EDITOR],
    )
    initial: dict[str, Any] = {"preset": "salzburg"}
    if writable.count() == 1:
        initial["group"] = writable.first()
    form = SessionForm(request.POST or None, groups=writable, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            the_group = data["group"]
            if the_group is None:
                the_group = services.group_create(user=request.user, name=data["new_group"])
            game = data["game"]
            session = services.session_start(
                group=the_group,
                user=request.user,
                preset=data["preset"] if game == Session.Game.MULATSCHAK else game,
                overrides=data["overrides"] if game == Session.Game.MULATSCHAK else None,
                seats=data["seats"],
                dealer=data["dealer_name"],
                game=game,
                stake=data.get("stake") or None,
                currency=data.get("currency") or None,
            )
        except services.InputError as e:
            field = e.field.removeprefix("rules.overrides.")
            target = f"rule_{field}" if field in PARAMETER_NAMES else None
            if e.field.startswith("seats"):
                target = None
            elif e.field in ("stake", "currency"):
                target = e.field
            form.add_error(target, f"{e.field}: {input_error_message(e)}")
        else:
            return redirect("scorepad:session", session_id=session.pk)
    roster = sorted(
        {p.name for g in writable.prefetch_related("players") for p in g.players.all()}
    )
    return render(
        request,
        "scorepad/session_new.html",
        {"form": form, "rules_table": _rules_table(form), "roster": roster,
         "seat_numbers": range(MAX_SEATS)},
    )


@login_required
@require_GET
def session_list(request: HttpRequest) -> HttpResponse:
    rows = (
        Session.objects.filter(group__in=visible_groups(request.user))
        .select_related("group")
        .order_by("-created_at")[:100]
    )
    return render(request, "scorepad/session_list.html", {"sessions": rows})


def _factors_text(factors: list[str], multiplier: int) -> str:
    if not factors:
        return "×1"
    labels = " × ".join(str(FACTOR_LABELS.get(f, f)) for f in factors)
    return f"{labels} = ×{multiplier}"


def _deal_rows(session: Session, names: services.Names) -> list[dict[str, Any]]:
    rows = list(session.deals.order_by("-number")[:RECENT_DEALS])
    out = []
    for row in rows:
        result = names.deal_names(row.result)
        data = names.deal_names(row.data)
        changes = []
        for pid, name in names.by_id.items():
            delta = row.result.get("deltas", {}).get(pid)
            reason = row.result.get("reasons", {}).get(pid)
            changes.append({"player": name, "delta": delta, "reason": reason_label(reason)})
        out.append(
            {
                "number": row.number,
                "kind": row.kind,
                "deal": data,
                "dealer": result.get("dealer"),
                "game_number": result.get("game_number"),
                "multiplier": result.get("multiplier", 1),
                "factors": _factors_text(result.get("factors", []), result.get("multiplier", 1)),
                "changes": changes,
                "game_over": result.get("game_over"),
                "winners": result.get("winners", []),
            }
        )
    return out


def _board_context(session: Session, names: services.Names,
                   board_url: str | None = None) -> dict[str, Any]:
    board_url = board_url or reverse("scorepad:board", kwargs={"session_id": session.pk})
    if session.game != Session.Game.MULATSCHAK:
        return game_views.board_context(session, names, board_url)
    board = services.scoreboard(session, names)
    rules = services.session_rules(session)
    return {
        "session": session,
        "board": board,
        "scores": [
            {"player": name, "score": board["scores"][name]} for name in names.by_id.values()
        ],
        "pending": _factors_text(board["pending_factors"], board["pending_multiplier"]),
        "rules": rules,
        "recent": _deal_rows(session, names),
        "muli_name": MULI_NAMES.get(session.preset, "Muli"),
        "board_url": board_url,
    }


def _entry_context(
    session: Session, names: services.Names, entry: DealEntry, *, number: int | None = None
) -> dict[str, Any]:
    """The deal form: choices, what is missing, the referee's violations and a preview."""
    rules = services.session_rules(session)
    missing = entry.missing()
    violations: list[dict[str, Any]] = []
    preview: list[dict[str, Any]] = []
    multiplier_text = ""
    if not missing:
        data = names.deal_ids(entry.as_deal())
        if number is None:
            result = services.deal_preview(session=session, data=data)
        else:
            result = services.correction_preview(session=session, number=number, data=data)
        for v in result.violations:
            v = names.violation(v)
            violations.append(
                {"code": v.code, "player": v.player, "field": VIOLATION_FIELDS.get(v.code),
                 "message": violation_message(v)}
            )
        if result.legal and entry.kind == "played":
            multiplier_text = _factors_text([str(f) for f in result.factors], result.multiplier)
            for pid, name in names.by_id.items():
                preview.append(
                    {"player": name, "delta": result.deltas[pid],
                     "reason": reason_label(str(result.reasons[pid]))}
                )
    seats = list(names.by_id.values())
    by_field: dict[str, list[str]] = {}
    by_player: dict[str, list[str]] = {}
    for v in violations:
        if v["field"]:
            by_field.setdefault(v["field"], []).append(v["message"])
        if v["player"]:
            by_player.setdefault(v["player"], []).append(v["message"])
    return {
        "entry": entry,
        "seat_rows": [
            {
                "index": i,
                "name": name,
                "home": name in entry.home,
                "tricks": entry.tricks.get(name),
                "exchanged": entry.exchanged.get(name),
                "errors": by_player.get(name, []),
            }
            for i, name in enumerate(seats)
        ],
        "trumps": TRUMPS,
        "bids": [1, 2, 3, 4, 5],
        "missing": missing,
        "violations": violations,
        "field_errors": by_field,
        "general_errors": [v["message"] for v in violations if not v["field"] and not v["player"]],
        "preview": preview,
        "preview_factors": multiplier_text,
        "legal": not missing and not violations,
        "knock_allowed": rules.knock_doubles,
        "breaker_needed": rules.muli_fail_mode == "breaker",
        "number": number,
        "muli_name": MULI_NAMES.get(session.preset, "Muli"),
        "idempotency_key": secrets.token_urlsafe(24),
    }


#: Where a violation is shown on the deal form.
VIOLATION_FIELDS = {
    "bid_out_of_range": "bid",
    "bid_forbidden_low_score": "declarer",
    "trump_invalid": "trump",
    "declarer_stayed_home": "home",
    "stay_home_forbidden_hearts": "home",
    "stay_home_forbidden_muli": "home",
    "stay_home_forbidden_low_score": "home",
    "no_opponent": "home",
    "stay_home_twice": "home",
    "tricks_missing": "tricks",
    "tricks_for_absent": "tricks",
    "tricks_out_of_range": "tricks",
    "tricks_sum": "tricks",
    "exchange_forbidden_muli": "exchanged",
    "exchange_forbidden_low_score": "exchanged",
    "exchange_too_many": "exchanged",
    "exchange_exceeds_talon": "exchanged",
    "knock_not_allowed": "knocked",
    "muli_breaker_required": "breaker",
}


def stale_form(session: Session, form_number: int | None) -> dict[str, Any] | None:
    """A new-deal form made for deal ``form_number`` when the next deal is another one
    (another phone recorded it meanwhile): that deal as recorded, and the next number."""
    expected = services.next_number(session)
    if form_number is None or form_number == expected:
        return None
    row = session.deals.filter(number=form_number).first()
    recorded = services.Names.of(session).deal_names(row.data) if row is not None else None
    return {"number": form_number, "next": expected, "recorded": recorded}


def _render_session(
    request: HttpRequest, session: Session, entry: DealEntry | None = None, status: int = 200,
    form_number: int | None = None,
) -> HttpResponse:
    """The session page (or the part htmx asks for). ``form_number``: the deal number the
    posted form was made for; if another phone recorded that deal meanwhile, the form
    keeps it and says so (_stale_notice.html) instead of becoming the next deal."""
    if session.game != Session.Game.MULATSCHAK:
        role = role_in(request.user, session.group)
        return game_views.render_session(request, session, post=None,
                                         can_write=role in WRITERS,
                                         fragment=_htmx_target(request),
                                         board_url=_user_board_url(request, session, role))
    names = services.Names.of(session)
    entry = entry or DealEntry(QueryDict(), list(names.by_id.values()))
    role = role_in(request.user, session.group)
    context = (_board_context(session, names, _user_board_url(request, session, role))
               | _entry_context(session, names, entry))
    stale = stale_form(session, form_number)
    context["next_number"] = form_number if stale else services.next_number(session)
    context["stale"] = stale
    context["can_write"] = role in (Membership.Role.OWNER, Membership.Role.EDITOR)
    if context["can_write"] and session.watch_token:
        url = request.build_absolute_uri(
            reverse("scorepad:watch", kwargs={"token": session.watch_token}))
        context |= {"watch_url": url, "watch_qr": _qr_svg(url)}
    template = "scorepad/session.html"
    target = _htmx_target(request)
    if target == "deal-form":
        template += "#dealform"
    elif target == "scoreboard":
        template = "scorepad/_scoreboard.html"
    return render(request, template, context, status=status)


def _htmx_target(request: HttpRequest) -> str | None:
    """The element a (non-boosted) htmx request will swap, to answer with just that."""
    htmx = getattr(request, "htmx", None)
    if not htmx or htmx.boosted:
        return None
    return str(htmx.target) if htmx.target else None


@login_required
@require_GET
def session_page(request: HttpRequest, session_id: int) -> HttpResponse:
    return _render_session(request, session_for(request.user, session_id, READ))


def _user_board_url(request: HttpRequest, session: Session, role: str | None) -> str:
    """The polled scoreboard's URL with a grant for this member (fastpoll)."""
    url = reverse("scorepad:board", kwargs={"session_id": session.pk})
    if role is None or not request.user.is_authenticated:
        return url
    return fastpoll.with_grant(url, fastpoll.user_grant(session.pk, session.group_id,
                                                        request.user.pk, str(role),
                                                        fastpoll.auth_tag(request)))


def _board_parts(request: HttpRequest, role: str) -> tuple[str, ...]:
    return ("html", request.LANGUAGE_CODE, "w" if role in WRITERS else "r")


@require_GET
def scoreboard_fragment(request: HttpRequest, session_id: int) -> HttpResponse:
    """The scoreboard alone, for polling phones: 304 when nothing changed, each version
    rendered once (conditional.polled). With a valid grant in the URL and the cache,
    neither is a database query (fastpoll); else the login and one small query decide,
    and the answer carries a fresh grant (a 200 even if the client had the version, when
    its grant was stale: that is how a phone gets a new one)."""
    pk = _pk(session_id)
    fast = fastpoll.check_user(request, pk)
    if fast is not None and fast.recalled and not client_has(
            request, etag_for(pk, fast.version, *_board_parts(request, fast.role))):
        fast = fastpoll.check_user(request, pk, fresh=True)  # a body: from the shared cache
    if fast is not None:
        version, role, grant = fast.version, fast.role, fast.grant
    else:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        version, role, group_id = poll_row(request.user, pk, READ)
        grant = fastpoll.user_grant(pk, group_id, request.user.pk, role,
                                    fastpoll.auth_tag(request))
    can_write = role in WRITERS
    parts = _board_parts(request, role)

    def build() -> tuple[str, bytes, str]:
        session = Session.objects.select_related("group").filter(pk=pk).first()
        if session is None:
            raise Http404
        board_url = fastpoll.with_grant(reverse("scorepad:board", kwargs={"session_id": pk}),
                                        fastpoll.MARK)
        context = _board_context(session, services.Names.of(session), board_url)
        context["can_write"] = can_write
        response = render(request, "scorepad/_scoreboard.html", context)
        return etag_for(session.pk, session.version, *parts), response.content, \
            response["Content-Type"]

    return polled(request, etag_for(pk, version, *parts), build,
                  force=fast is None and fastpoll.PARAM in request.GET,
                  finish=lambda body: fastpoll.fill(body, grant))


@login_required
@require_GET
def deal_form_fresh(request: HttpRequest, session_id: int) -> HttpResponse:
    """Polled by an open deal form: 204 while the deal it is about to record is still the
    next one; a notice once another phone has recorded it (htmx then stops polling)."""
    session = session_for(request.user, session_id, READ)
    stale = stale_form(session, _number(request.GET.get("number")))
    if stale is None:
        return HttpResponse(status=204)
    return render(request, "scorepad/_stale_notice.html", {"session": session, "stale": stale})


@login_required
@require_POST
def deal_check(request: HttpRequest, session_id: int) -> HttpResponse:
    """Live check of the deal form (htmx): violations next to their fields, a preview."""
    session = session_for(request.user, session_id, WRITE)
    if session.game != Session.Game.MULATSCHAK:
        return game_views.render_session(request, session, request.POST, True,
                                         fragment=_htmx_target(request))
    names = services.Names.of(session)
    entry = DealEntry(request.POST, list(names.by_id.values()))
    number = _number(request.POST.get("correcting"))
    if number is not None:
        return _render_edit(request, session, number, entry)
    return _render_session(request, session, entry, form_number=_number(request.POST.get("number")))


def _reasons(names: services.Names, error: services.RulesBroken) -> str:
    return " ".join(violation_message(names.violation(v)) for v in error.violations)


def _number(value: Any) -> int | None:
    """A posted id or deal number (scorepad/ids.py); None if it is not one."""
    return parse_id(value)


@login_required
@require_POST
def deal_create(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    if session.game != Session.Game.MULATSCHAK:
        return game_views.create(request, session, can_write=True)
    names = services.Names.of(session)
    entry = DealEntry(request.POST, list(names.by_id.values()))
    form_number = _number(request.POST.get("number"))
    if entry.missing():
        return _render_session(request, session, entry, form_number=form_number)
    data = names.deal_ids(entry.as_deal())
    # a stale form records only as the deal its confirmation names (_stale_notice.html)
    number = _number(request.POST.get("confirm_number")) or form_number

    def run() -> services.Answer:
        row = services.deal_record(session=session, user=request.user, data=data, number=number)
        return services.Answer(201, {"number": row.number})

    key = (request.POST.get("idempotency_key") or "")[:200]
    try:
        if key:
            print_ = services.fingerprint("html-deal", session.pk, data, number)
            answer = services.once(user=request.user, key=key, print_=print_, run=run)
        else:
            answer = run()
    except services.RulesBroken:
        return _render_session(request, session, entry, form_number=form_number)
    except (services.Conflict, services.KeyReused) as e:
        session.refresh_from_db()
        if isinstance(e, services.Conflict) and e.reason == "number_taken" \
                and entry.kind == "played" and form_number is not None:
            # another phone recorded this deal: keep what was typed, and ask
            return _render_session(request, session, entry, form_number=form_number)
        if isinstance(e, services.Conflict):
            messages.warning(request, conflict_message(e.reason, **e.params))
        return _render_session(request, session)
    recorded = answer.body["number"]
    messages.success(request, _("Deal %(n)s recorded.") % {"n": recorded},
                     extra_tags=f"undo:{recorded}")
    return redirect("scorepad:session", session_id=session.pk)


def _render_edit(
    request: HttpRequest, session: Session, number: int, entry: DealEntry | None = None
) -> HttpResponse:
    row = session.deals.filter(number=number).first()
    if row is None:
        raise Http404
    names = services.Names.of(session)
    seats = list(names.by_id.values())
    entry = entry or DealEntry.from_deal(names.deal_names(row.data), seats)
    context = _entry_context(session, names, entry, number=number)
    context |= {"session": session, "row": row, "version": row.version}
    template = "scorepad/deal_edit.html"
    if _htmx_target(request) == "deal-form":
        template = "scorepad/session.html#dealform"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    if session.game != Session.Game.MULATSCHAK:
        return game_views.edit(request, session, number)
    if request.method == "GET":
        return _render_edit(request, session, number)
    names = services.Names.of(session)
    entry = DealEntry(request.POST, list(names.by_id.values()))
    if entry.missing():
        return _render_edit(request, session, number, entry)
    try:
        services.deal_correct(
            session=session,
            user=request.user,
            number=number,
            data=names.deal_ids(entry.as_deal()),
            version=_number(request.POST.get("version")),
        )
    except services.RulesBroken as e:
        if e.number != number:
            messages.error(
                request,
                _("This correction would make deal %(n)s illegal: %(why)s")
                % {"n": e.number, "why": _reasons(names, e)},
            )
        return _render_edit(request, session, number, entry)
    except services.Conflict as e:
        messages.warning(request, conflict_message(e.reason, **e.params))
        return redirect("scorepad:deal_edit", session_id=session.pk, number=number)
    except Deal.DoesNotExist:
        raise Http404 from None
    messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
    return redirect("scorepad:session", session_id=session.pk)


@login_required
@require_http_methods(["GET", "POST"])
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
                % {"d": number, "n": e.number, "why": _reasons(services.Names.of(session), e)},
            )
        except services.Conflict as e:
            messages.warning(request, conflict_message(e.reason, **e.params))
        else:
            messages.success(request, _("Deal %(n)s deleted.") % {"n": number})
        return redirect("scorepad:session", session_id=session.pk)
    names = services.Names.of(session)
    return render(request, "scorepad/deal_delete.html",
                  {"session": session, "row": row, "deal": names.deal_names(row.data)})


@login_required
@require_POST
def session_status(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    try:
        services.session_set_status(session=session, status=request.POST.get("status", ""))
    except services.InputError as e:
        messages.error(request, input_error_message(e))
    return redirect("scorepad:session", session_id=session.pk)


@login_required
@require_GET
def session_history(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, READ)
    names = services.Names.of(session)
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
                "before_cards": before and game_views.cards_history(seats, before),
                "after_cards": after and game_views.cards_history(seats, after),
            }
        )
    return render(request, "scorepad/history.html", {"session": session, "events": events})



# --- sharing: watch links, QR codes, invites ------------------------------------------------


def _no_store(response: HttpResponse) -> HttpResponse:
    """Pages with a secret token in their URL: never cached, never sent on as a referrer."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _qr_svg(url: str) -> str:
    """The link as an inline SVG QR code, drawn here: no external service sees the token."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False,
                                    svgns=True, dark="#000", light="#fff",
                                    title="QR", nl=False)
    return out.getvalue().decode()


@login_required
@require_POST
def watch_link(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for(request.user, session_id, WRITE)
    if request.POST.get("action") == "revoke":
        services.watch_link_revoke(session=session)
        messages.success(request, _("The watch link is revoked: it shows nothing any more."))
    else:
        services.watch_link_create(session=session)
    return redirect("scorepad:session", session_id=session.pk)


def _watch_session(token: str) -> Session:
    try:
        return services.session_by_watch_token(token)
    except Session.DoesNotExist:
        raise Http404 from None


@require_GET
def watch(request: HttpRequest, token: str) -> HttpResponse:
    """The live scoreboard for everyone at the table who has the link: read-only, no login."""
    session = _watch_session(token)
    names = services.Names.of(session)
    board_url = fastpoll.with_grant(_watch_board_url(token),
                                    fastpoll.watch_grant(session.pk, token))
    context = _board_context(session, names, board_url)
    return _no_store(render(request, "scorepad/watch.html", context))


def _watch_board_url(token: str) -> str:
    return reverse("scorepad:watch_board", kwargs={"token": token})


@require_GET
def watch_board(request: HttpRequest, token: str) -> HttpResponse:
    fast = fastpoll.check_watch(request, token)
    parts = ("watch", request.LANGUAGE_CODE, fastpoll.token_tag(token))
    if fast is not None and fast.recalled and not client_has(
            request, etag_for(fast.session_id, fast.version, *parts)):
        fast = fastpoll.check_watch(request, token, fresh=True)
    if fast is not None:
        found, grant = (fast.session_id, fast.version), fast.grant
    else:
        found = services.watch_version(token)
        if found is None:
            raise Http404
        grant = fastpoll.watch_grant(found[0], token)
    # The fragment polls its own URL, which names the token (parts): a new link after a
    # revoked one must not get the old one's cached render.

    def build() -> tuple[str, bytes, str]:
        session = _watch_session(token)
        board_url = fastpoll.with_grant(_watch_board_url(token), fastpoll.MARK)
        response = render(request, "scorepad/_scoreboard.html",
                          _board_context(session, services.Names.of(session), board_url))
        return etag_for(session.pk, session.version, *parts), response.content, \
            response["Content-Type"]

    return polled(request, etag_for(*found, *parts), build, secret_url=True,
                  force=fast is None and fastpoll.PARAM in request.GET,
                  finish=lambda body: fastpoll.fill(body, grant))


@login_required
@require_POST
def invite_new(request: HttpRequest, group_id: int) -> HttpResponse:
    the_group = group_for(request.user, group_id, MANAGE)
    try:
        if request.POST.get("revoke"):
            invite_id = _number(request.POST["revoke"])
            if invite_id is None:
                raise Http404
            services.invite_revoke(group=the_group, invite_id=invite_id)
        else:
            services.invite_create(group=the_group, user=request.user,
                                   role=request.POST.get("role", ""),
                                   days=_count(request.POST.get("days"), services.INVITE_DAYS),
                                   uses=_count(request.POST.get("uses"), 1))
    except (services.InputError, ValueError) as e:
        message = input_error_message(e) if isinstance(e, services.InputError) else str(e)
        label = INVITE_FIELDS.get(getattr(e, "field", ""))
        messages.error(request, f"{label}: {message}" if label else message)
    return redirect("scorepad:group", group_id=the_group.pk)


#: The invitation form's fields, as its labels name them.
INVITE_FIELDS = {"role": gettext_lazy("Role"), "uses": gettext_lazy("for how many people"),
                 "days": gettext_lazy("days")}


def _count(value: str | None, default: int) -> int:
    """A count typed into a form (blank: the default); 0 for anything but a plain number,
    which the service then refuses with its rule."""
    if value is None or not value.strip():
        return default
    return parse_id(value.strip()) or 0


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invite = services.invite_by_token(token)
    except Invite.DoesNotExist:
        return _join_gone(request)
    if not services.invite_usable_by(invite, request.user):
        return _join_gone(request)
    if request.method == "POST":
        try:
            services.invite_accept(invite=invite, user=request.user)
        except services.InviteGone:
            return _join_gone(request)
        messages.success(request, _("Welcome to %(g)s.") % {"g": invite.group.name})
        return redirect("scorepad:group", group_id=invite.group_id)
    return _no_store(render(request, "scorepad/join.html", {"invite": invite}))


def _join_gone(request: HttpRequest) -> HttpResponse:
    """404 for an unknown, expired, revoked or used-up link, or one made before the user
    was removed from the group: the same answer for all, so a link tells nothing."""
    return _no_store(render(request, "scorepad/join.html", {"invite": None}, status=404))
