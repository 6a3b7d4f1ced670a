"""A tournament's public screen (docs/tournaments.md, "The screen"): the ranking in large
type and the open round's tables with their live scores, rendered here and refreshing
itself with htmx; for a projector, a TV or a phone, no login."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from .. import games, rosters, services
from ..access import READ, WRITE, WRITERS, group_for, role_in, tournament_for
from ..cache import screens
from ..cache.answers import polled
from ..errors import Conflict, NotFound
from ..forms import TIEBREAK_CHOICES, TournamentForm
from ..guests import account_required
from ..ids import parse_count
from ..messages import conflict_message, input_error_message
from ..models import Tournament, TournamentRound
from ..tournaments import services as tour
from ..tournaments.ranking import two_places
from .common import htmx_target, no_store, qr_svg

#: Seconds between two refreshes of the screen.
SCREEN_SECONDS = 5


def _tournament(token: str) -> Tournament:
    found = tour.tournament_by_screen(token)
    if found is None:
        raise Http404
    return found


#: A screen's ranking of more lines than this stands in two columns on a wide display.
SCREEN_COLUMN = 12


def ranking_context(tournament: Tournament, category: str | None = None) -> dict[str, Any]:
    """The screen's ranking part: the closed rounds' kept results, less the hidden ones
    (only ``category``'s players, if asked); before a round is closed, the registered
    players without places."""
    ranking = tour.ranking_json(tournament, hide=tournament.screen_hides_rounds,
                                category=category)
    lines = ranking["ranking"]
    half = (len(lines) + 1) // 2
    columns = [lines[:half], lines[half:]] if len(lines) > SCREEN_COLUMN else [lines]
    return {"tournament": tournament, "ranking": lines, "columns": columns,
            "rounds_closed": ranking["rounds_closed"], "every": SCREEN_SECONDS,
            "category": category}


def live_context(tournament: Tournament) -> dict[str, Any]:
    """The screen's live part: the open round's tables and their scores as they stand;
    without names while the round was drawn from hidden standings (the seats' scores
    stay, in seat order). Each table is rendered once per version of its session (and of
    the tournament) and language, and kept in the cache: with a deal landing somewhere
    every few tenths of a second at a cup final, the part changes almost every poll, and
    rendering all its tables each time cost ~60 ms at 100 tables; now a change renders
    the tables that changed, the others are one cache read."""
    open_round = tournament.round_set.filter(status=TournamentRound.Status.OPEN).first()
    nameless = open_round is not None and tour.drawn_from_hidden(tournament, open_round)
    tables = [] if open_round is None else _live_tables(tournament, open_round, nameless)
    return {"tournament": tournament, "open_round": open_round, "tables": tables,
            "nameless": nameless, "every": SCREEN_SECONDS}


def _live_tables(tournament: Tournament, open_round: TournamentRound,
                 nameless: bool) -> list[str]:
    """The open round's tables rendered (safe HTML, by number): those the cache has at
    their sessions' versions read now, the others rendered from their sessions (and
    cached under the version read with the state they were rendered from, never an
    older one)."""
    language = translation.get_language() or ""
    at = (tournament.pk, tournament.version)
    versions = list(open_round.tables.order_by("number")
                    .values_list("session_id", "session__version"))
    keys = {pk: screens.table_key(at, (pk, version), language)
            for pk, version in versions}
    found = screens.rendered_tables(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in found]
    rendered: dict[int, str] = {}
    if missing:
        template = get_template("scorepad/_tournament_screen_table.html")
        made = {}
        for live in tour.live_tables(tournament, open_round, sessions=missing):
            session = live.table.session
            rendered[session.pk] = html = template.render({
                "nameless": nameless,
                "table": {"number": live.table.number, "deals": live.deals,
                          "finished": live.finished,
                          "scores": [("" if nameless else name,
                                      two_places(live.scores.get(name, 0)))
                                     for name in live.seats]}})
            made[screens.table_key(at, (session.pk, session.version), language)] = html
        screens.keep_tables(made)
    return [mark_safe(rendered[pk] if pk in rendered else found[keys[pk]])
            for pk in keys if pk in rendered or keys[pk] in found]


def _urls(token: str, category: str | None = None) -> dict[str, str]:
    query = f"?{urlencode({'category': category})}" if category else ""
    return {name: reverse(f"scorepad:tournament_screen_{name}", kwargs={"token": token})
            + (query if name == "board" else "")
            for name in ("board", "live")}


def _screen_category(request: HttpRequest) -> tuple[str | None, str]:
    """The category the screen shows (``?category=``) and its part of the ETag."""
    category = _category(request)
    return category, (rosters.category_key(category) if category else "")


@require_safe
def screen(request: HttpRequest, token: str) -> HttpResponse:
    tournament = _tournament(token)
    category, _key = _screen_category(request)
    urls = _urls(token, category)
    context = {**ranking_context(tournament, category), **live_context(tournament),
               "board_url": urls["board"], "live_url": urls["live"]}
    return no_store(render(request, "scorepad/tournament_screen.html", context))


@require_safe
def screen_board(request: HttpRequest, token: str) -> HttpResponse:
    """The screen's polled ranking: rendered once per version of the tournament, 304
    while what it shows stands (its ETag is of the body: answers.shown), from the shared
    cache without a query (scorepad.cache.screens; else one query); a deal at an open
    table does not touch it, a correction in a hidden round changes nothing shown."""
    category, key = _screen_category(request)
    parts = ("screen", request.LANGUAGE_CODE, *((hashlib.sha256(key.encode()).hexdigest()[:16],)
                                                 if key else ()))
    cached = tour.screen_ranking_key_cached(token, *parts)
    if cached is None:
        tournament = _tournament(token)
        tour.screen_remember(tournament)
        cached = tour.screen_ranking_key(tournament, *parts)

    def build() -> tuple[str, bytes, str]:
        fresh = _tournament(token)
        response = render(request, "scorepad/_tournament_screen.html",
                          {**ranking_context(fresh, category),
                           "board_url": _urls(token, category)["board"]})
        return tour.screen_ranking_key(fresh, *parts), response.content, \
            response["Content-Type"]

    return polled(request, cached, build, secret_url=True, opaque=True)


@require_safe
def screen_live(request: HttpRequest, token: str) -> HttpResponse:
    """The screen's polled live tables: rendered once per change at a table of the open
    round, 304 while what they show stands (answers.shown), the key from the shared
    cache without a query (scorepad.tournaments.services.screen_live_key)."""
    parts = (request.LANGUAGE_CODE,)
    key = tour.screen_live_key(token, *parts)
    if key is None:
        raise Http404

    def build() -> tuple[str, bytes, str]:
        now = tour.screen_live_key(token, *parts) or key  # before what is rendered
        fresh = _tournament(token)
        response = render(request, "scorepad/_tournament_screen_live.html",
                          {**live_context(fresh), "live_url": _urls(token)["live"]})
        return now, response.content, response["Content-Type"]

    return polled(request, key, build, secret_url=True, opaque=True)


# --- the director's pages -------------------------------------------------------------------


def _role(request: HttpRequest, tournament: Tournament) -> str | None:
    return getattr(tournament, "asker_role", None)


@account_required
def tournament_list(request: HttpRequest, group_id: int) -> HttpResponse:
    """A group's tournaments, and (for its owners and editors) the form of a new one:
    every choice with a line of what it means; a refused choice comes back at its field
    (status 200)."""
    need = WRITE if request.method == "POST" else READ
    group = group_for(request.user, group_id, need)
    role = role_in(request.user, group)
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        form.is_valid()  # the fields' own words first (a choice that is none of them)
        try:
            made = tour.tournament_create(group=group, user=request.user, **form.choices())
        except services.InputError as e:
            for problem in e.problems:
                form.add_error(_form_field(form, problem.field), input_error_message(problem))
        else:
            return redirect("scorepad:tournament", tournament_id=made.pk)
    offered = games.for_tournaments()
    start_games = [{"index": i} | games.get(name).start_parts(form)
                   for i, name in enumerate(offered, 1)]
    return render(request, "scorepad/tournaments.html", {
        "group": group, "tournaments": group.tournaments.all(), "form": form,
        "about": form.about(), "can_write": role in WRITERS, "start_games": start_games})


def _form_field(form: TournamentForm, field: str) -> str | None:
    """The form's field a service's refusal names (``rank_points.2`` is the rank
    points, ``rules.overrides.x`` the house rule x); None: the whole form."""
    head = field.split(".", 1)[0]
    if head == "rules":
        rule = f"rule_{field.rsplit('.', 1)[-1]}"
        return rule if rule in form.fields else "preset"
    if head == "tiebreaks":
        return "tiebreak_1"
    return head if head in form.fields else None


def _tables_context(tournament: Tournament, director: bool,
                    open_round: Any = False) -> dict[str, Any]:
    """The open round's tables as they stand, each with who confirmed its result."""
    if open_round is False:
        open_round = tournament.round_set.filter(status=TournamentRound.Status.OPEN).first()
    tables = []
    if open_round is not None:
        for live in tour.live_tables(tournament, open_round):
            tables.append({"number": live.table.number, "session": live.table.session_id,
                           "deals": live.deals, "finished": live.finished,
                           "dealer": live.dealer, "confirmed_by": live.confirmed_by,
                           "scores": [(n, two_places(live.scores.get(n, 0)))
                                      for n in live.seats],
                           "code": live.table.code if director else None})
    return {"open_round": open_round, "tables": tables}


ACTIONS = ("register", "withdraw", "remove", "paid", "category", "draw", "close", "force",
           "end", "hide", "prizes")
#: What the players' part answers to (htmx swaps it, the field keeps the focus).
PLAYER_ACTIONS = ("register", "withdraw", "remove", "paid", "category")
#: What cannot be undone asks first: drawing round 1 (the formats are fixed from then
#: on), ending the tournament.
CONFIRMED = "yes"
#: Empty rows of the prize list's form, after the prizes it has.
PRIZE_ROWS = 3


@account_required
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's page: its settings; register players at the door (one field, Enter:
    the players' part comes back with the field focused), mark who paid and their
    category, set up the prizes, draw a round (round 1 after a second tap), follow the
    tables, close the round, draw the final, end the tournament (after a second tap).
    Members may look."""
    need = WRITE if request.method == "POST" else READ
    tournament = tournament_for(request.user, tournament_id, need)
    if request.method != "POST":
        return render(request, "scorepad/tournament.html",
                      _page_context(request, tournament))
    action = request.POST.get("action", "")
    typed, problem = "", ""
    try:
        _act(request, tournament, action)
    except services.InputError as e:
        if action == "register":
            typed, problem = request.POST.get("name", ""), input_error_message(e)
        else:
            messages.error(request, input_error_message(e))
    except Conflict as e:
        messages.error(request, conflict_message(e.reason, **e.params))
    except NotFound:
        raise Http404 from None
    if action in PLAYER_ACTIONS and htmx_target(request) == "players":
        tournament.refresh_from_db()
        return render(request, "scorepad/_tournament_door.html#players",
                      _page_context(request, tournament, typed=typed, problem=problem))
    if problem:  # without a script: the page again, the refusal at the field
        tournament.refresh_from_db()
        return render(request, "scorepad/tournament.html",
                      _page_context(request, tournament, typed=typed, problem=problem))
    anchor = {**dict.fromkeys(PLAYER_ACTIONS, "#register"), "prizes": "#prizes"}.get(action, "")
    return redirect(reverse("scorepad:tournament",
                            kwargs={"tournament_id": tournament.pk}) + anchor)


def _page_context(request: HttpRequest, tournament: Tournament, *, typed: str = "",
                  problem: str = "") -> dict[str, Any]:
    director = _role(request, tournament) in WRITERS
    category = _category(request)
    ranking = tour.ranking_json(tournament, category=category)
    drawn = list(tournament.round_set.order_by("number"))
    open_round = next((r for r in drawn if r.status == TournamentRound.Status.OPEN), None)
    regular = [r for r in drawn if not r.final]
    registering = tournament.status == Tournament.Status.REGISTERING
    return {
        "tournament": tournament, "director": director, "settings": settings_of(tournament),
        "players": _players(tournament), "roster": tour.roster_names(tournament),
        "categories": tour.categories_of(tournament), "category": category,
        "ranking": ranking["ranking"], "rounds_closed": ranking["rounds_closed"],
        "show_lot": tour.needs_lot(tournament),
        "rounds_drawn": len(regular),
        "can_register": (tournament.status != Tournament.Status.FINISHED
                         and len(regular) < tournament.rounds),
        "next_draw": _next_draw(tournament, drawn, open_round),
        "paper_rounds": [r.number for r in drawn],
        "prizes": tour.prizes_json(tournament),
        "prize_rows": _prize_rows(tournament) if registering else [],
        "typed": typed, "problem": problem,
        "screen_url": request.build_absolute_uri(
            reverse("scorepad:tournament_screen", kwargs={"token": tournament.screen_token})),
        "tables_url": reverse("scorepad:tournament_tables",
                              kwargs={"tournament_id": tournament.pk}),
        **_tables_context(tournament, director, open_round)}


def _category(request: HttpRequest) -> str | None:
    """The category a page is asked for (``?category=``); None: everybody (or a category
    no player could have)."""
    given = request.GET.get("category") or ""
    try:
        return rosters.clean_category(given) if given else None
    except services.InputError:
        return None


def _players(tournament: Tournament) -> list[dict[str, Any]]:
    """The registered players, each with whether they have been drawn to a table (only
    the others may be deleted)."""
    drawn = tour.drawn_players(tournament)
    return [{**p, "drawn": p["name"] in drawn} for p in tour.players_of(tournament)]


def _next_draw(tournament: Tournament, drawn: list[TournamentRound],
               open_round: TournamentRound | None) -> dict[str, Any] | None:
    """What *Draw* would draw now: the next round (round 1 asks first), or the final;
    None while a round is open or once everything is drawn."""
    if open_round is not None or tournament.status == Tournament.Status.FINISHED:
        return None
    regular = [r for r in drawn if not r.final]
    if len(regular) < tournament.rounds:
        return {"number": len(regular) + 1, "final": False, "ask": not drawn}
    if tournament.final_tables and not any(r.final for r in drawn):
        return {"number": len(drawn) + 1, "final": True, "ask": False}
    return None


def _prize_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """The prize list's form: a row per prize, then empty ones."""
    rows = []
    for prize in tournament.prizes or []:
        kind = next(k for k in ("percent", "amount", "item") if k in prize)
        rows.append({"place": prize["place"], "kind": kind, "value": prize[kind]})
    after = max((r["place"] for r in rows), default=0)
    rows += [{"place": after + i, "kind": "percent", "value": ""}
             for i in range(1, PRIZE_ROWS + 1)]
    return rows


def settings_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's settings as its page shows them: the game, its rules by name and
    the house rules that differ from them."""
    game = games.get(tournament.game)
    try:
        base = game.rules(tournament.preset, None).params
    except Exception:  # a preset that is no more: every rule is as the tournament keeps it
        base = {}
    house = [(str(game.RULE_HELP.get(name) or name), value)
             for name, value in sorted((tournament.rules or {}).items())
             if base.get(name, value) != value]
    return {"game": game.TITLE, "rules": game.rules_title(tournament.preset),
            "house_rules": house,
            "rank_points": ", ".join(tournament.rank_points or []),
            "tiebreaks": [str(dict(TIEBREAK_CHOICES).get(t, t))
                          for t in tournament.tiebreaks or []]}


def _act(request: HttpRequest, tournament: Tournament, action: str) -> None:
    post = request.POST
    name = post.get("name", "")
    confirmed = post.get("confirmed") == CONFIRMED
    if action == "register":
        given = (post.get("category") or "").strip()
        tour.entrant_register(tournament=tournament, name=name,
                              **({"category": given} if given else {}))
    elif action == "withdraw":
        tour.entrant_withdraw(tournament=tournament, name=name)
    elif action == "remove":
        tour.entrant_remove(tournament=tournament, name=name)
    elif action == "paid":
        tour.entrant_change(tournament=tournament, name=name, paid=post.get("paid") == "yes")
    elif action == "category":
        tour.entrant_change(tournament=tournament, name=name,
                            category=(post.get("category") or "").strip() or None)
    elif action == "draw":
        if not tournament.round_set.exists() and not confirmed:
            raise Conflict("confirm_first")
        tour.round_draw(tournament=tournament, user=request.user)
    elif action in ("close", "force"):
        tour.round_close(tournament=tournament, number=parse_count(post.get("round")) or 0,
                         force=action == "force")
    elif action == "end":
        if not confirmed:
            raise Conflict("confirm_first")
        tour.tournament_change(tournament=tournament, status=Tournament.Status.FINISHED)
    elif action == "hide":
        tour.tournament_change(tournament=tournament,
                               screen_hides_rounds=parse_count(post.get("hide")))
    elif action == "prizes":
        tour.tournament_change(tournament=tournament, **_prizes_posted(post))
    else:
        raise services.InputError("action", "must be one of " + ", ".join(ACTIONS),
                                  "not_choice", choices=", ".join(ACTIONS))


def _prizes_posted(post: Any) -> dict[str, Any]:
    """The prize list's form as the service takes it: the entry fee, its currency and
    each row with a value (its place, and its value as a percent, amount or item)."""
    prizes = []
    for index in range(int(post.get("prize_rows") or 0) if
                       (post.get("prize_rows") or "").isdigit() else 0):
        value = (post.get(f"prize_value_{index}") or "").strip()
        if not value:
            continue
        kind = post.get(f"prize_kind_{index}") or "percent"
        place = parse_count(post.get(f"prize_place_{index}"))
        prizes.append({"place": place, kind: value.replace(",", ".")
                       if kind != "item" else value})
    fee = (post.get("entry_fee") or "").strip().replace(",", ".")
    return {"prizes": prizes, "entry_fee": fee or None,
            "currency": (post.get("currency") or "").strip() or None}


@account_required
@require_safe
def tournament_tables(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The open round's tables as they stand (the director's page polls it)."""
    tournament = tournament_for(request.user, tournament_id, READ)
    director = _role(request, tournament) in WRITERS
    return render(request, "scorepad/_tournament_tables.html", {
        "tournament": tournament, "director": director,
        "tables_url": request.path, **_tables_context(tournament, director)})


@account_required
@require_safe
def seating_plan(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A round's seating plan to print (A4): every table, its seats and first dealer, and
    its code as a QR code for the table's phone."""
    tournament = tournament_for(request.user, tournament_id, WRITE)
    the_round = tournament.round_set.filter(number=number).first()
    if the_round is None:
        raise Http404
    tables = []
    for live in tour.live_tables(tournament, the_round):
        code = live.table.code if the_round.status == TournamentRound.Status.OPEN else ""
        # the QR code is the table phone's address (scorepad/tablephone.py), no login
        url = request.build_absolute_uri(
            reverse("scorepad:table_phone", kwargs={"code": code})) if code else ""
        tables.append({"number": live.table.number, "seats": live.seats,
                       "dealer": live.dealer, "code": code, "url": url,
                       "qr": mark_safe(qr_svg(url)) if code else ""})
    by_name = sorted((name, t["number"], seat + 1) for t in tables
                     for seat, name in enumerate(t["seats"]))
    return no_store(render(request, "scorepad/seating_plan.html", {
        "tournament": tournament, "round": the_round, "tables": tables,
        "by_name": by_name}))
