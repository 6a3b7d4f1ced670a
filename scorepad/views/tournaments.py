"""A tournament's public screen (docs/tournaments.md, "The screen"): the ranking in large
type and the open round's tables with their live scores, rendered here and refreshing
itself with htmx; for a projector, a TV or a phone, no login."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from .. import games, services
from ..access import READ, WRITE, WRITERS, group_for, role_in, tournament_for
from ..cache.answers import polled
from ..errors import Conflict, NotFound
from ..guests import account_required
from ..ids import parse_count
from ..messages import conflict_message, input_error_message
from ..models import Tournament, TournamentRound
from ..tournaments import services as tour
from ..tournaments.ranking import two_places
from .common import no_store, qr_svg

#: Seconds between two refreshes of the screen.
SCREEN_SECONDS = 5


def _tournament(token: str) -> Tournament:
    found = tour.tournament_by_screen(token)
    if found is None:
        raise Http404
    return found


def ranking_context(tournament: Tournament) -> dict[str, Any]:
    """The screen's ranking part: the closed rounds' kept results, less the hidden ones."""
    ranking = tour.ranking_json(tournament, hide=tournament.screen_hides_rounds)
    return {"tournament": tournament, "ranking": ranking["ranking"],
            "rounds_closed": ranking["rounds_closed"], "every": SCREEN_SECONDS}


def live_context(tournament: Tournament) -> dict[str, Any]:
    """The screen's live part: the open round's tables and their scores as they stand;
    without names while the round was drawn from hidden standings (the seats' scores
    stay, in seat order)."""
    open_round = tournament.round_set.filter(status=TournamentRound.Status.OPEN).first()
    tables = []
    nameless = open_round is not None and tour.drawn_from_hidden(tournament, open_round)
    if open_round is not None:
        for live in tour.live_tables(tournament, open_round):
            tables.append({"number": live.table.number, "deals": live.deals,
                           "finished": live.finished,
                           "scores": [("" if nameless else name,
                                       two_places(live.scores.get(name, 0)))
                                      for name in live.seats]})
    return {"tournament": tournament, "open_round": open_round, "tables": tables,
            "nameless": nameless, "every": SCREEN_SECONDS}


def _urls(token: str) -> dict[str, str]:
    return {name: reverse(f"scorepad:tournament_screen_{name}", kwargs={"token": token})
            for name in ("board", "live")}


@require_safe
def screen(request: HttpRequest, token: str) -> HttpResponse:
    tournament = _tournament(token)
    urls = _urls(token)
    context = {**ranking_context(tournament), **live_context(tournament),
               "board_url": urls["board"], "live_url": urls["live"]}
    return no_store(render(request, "scorepad/tournament_screen.html", context))


@require_safe
def screen_board(request: HttpRequest, token: str) -> HttpResponse:
    """The screen's polled ranking: rendered once per version of the tournament (one
    query), 304 while what it shows stands (its ETag is of the body: answers.shown); a
    deal at an open table does not touch it, a correction in a hidden round changes
    nothing shown."""
    tournament = _tournament(token)
    parts = ("screen", request.LANGUAGE_CODE)

    def build() -> tuple[str, bytes, str]:
        fresh = _tournament(token)
        response = render(request, "scorepad/_tournament_screen.html",
                          {**ranking_context(fresh), "board_url": _urls(token)["board"]})
        return tour.screen_ranking_key(fresh, *parts), response.content, \
            response["Content-Type"]

    return polled(request, tour.screen_ranking_key(tournament, *parts), build,
                  secret_url=True, opaque=True)


@require_safe
def screen_live(request: HttpRequest, token: str) -> HttpResponse:
    """The screen's polled live tables: rendered once per change at a table of the open
    round (one query, scorepad.tournaments.services.screen_live_key), 304 while what
    they show stands (answers.shown)."""
    parts = (request.LANGUAGE_CODE,)
    key = tour.screen_live_key(token, *parts)
    if key is None:
        raise Http404

    def build() -> tuple[str, bytes, str]:
        fresh = _tournament(token)
        now = tour.screen_live_key(token, *parts) or key
        response = render(request, "scorepad/_tournament_screen_live.html",
                          {**live_context(fresh), "live_url": _urls(token)["live"]})
        return now, response.content, response["Content-Type"]

    return polled(request, key, build, secret_url=True, opaque=True)


# --- the director's pages -------------------------------------------------------------------


def _role(request: HttpRequest, tournament: Tournament) -> str | None:
    return getattr(tournament, "asker_role", None)


@account_required
def tournament_list(request: HttpRequest, group_id: int) -> HttpResponse:
    """A group's tournaments, and (for its owners and editors) a new one."""
    need = WRITE if request.method == "POST" else READ
    group = group_for(request.user, group_id, need)
    role = role_in(request.user, group)
    error = ""
    if request.method == "POST":
        post = request.POST
        try:
            made = tour.tournament_create(
                group=group, user=request.user, name=post.get("name", ""),
                game=post.get("game", ""), preset=post.get("preset") or None, overrides=None,
                rounds=parse_count(post.get("rounds")), round_ends=post.get("round_ends", ""),
                deals_per_round=parse_count(post.get("deals_per_round")),
                table_size=parse_count(post.get("table_size")),
                scoring=post.get("scoring", ""), draw=post.get("draw", ""))
        except services.InputError as e:
            error = f"{e.field}: {input_error_message(e)}"
        else:
            return redirect("scorepad:tournament", tournament_id=made.pk)
    return render(request, "scorepad/tournaments.html", {
        "group": group, "tournaments": group.tournaments.all(), "error": error,
        "can_write": role in WRITERS, "games": [(n, games.get(n).TITLE)
                                                for n in games.for_tournaments()],
        "post": request.POST})


def _tables_context(tournament: Tournament, director: bool) -> dict[str, Any]:
    open_round = tournament.round_set.filter(status=TournamentRound.Status.OPEN).first()
    tables = []
    if open_round is not None:
        for live in tour.live_tables(tournament, open_round):
            tables.append({"number": live.table.number, "session": live.table.session_id,
                           "deals": live.deals, "finished": live.finished,
                           "dealer": live.dealer,
                           "scores": [(n, two_places(live.scores.get(n, 0)))
                                      for n in live.seats],
                           "code": live.table.code if director else None})
    return {"open_round": open_round, "tables": tables}


ACTIONS = ("register", "withdraw", "draw", "close", "force", "end", "hide")


@account_required
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's page: register players at the door (one field, Enter), draw a round,
    follow the tables, close the round, end the tournament. Members may look."""
    need = WRITE if request.method == "POST" else READ
    tournament = tournament_for(request.user, tournament_id, need)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            _act(request, tournament, action)
        except services.InputError as e:
            messages.error(request, input_error_message(e))
        except tour.TablesUnfinished as e:
            messages.error(request, conflict_message(e.reason, **e.params))
        except Conflict as e:
            messages.error(request, conflict_message(e.reason, **e.params))
        except NotFound:
            raise Http404 from None
        anchor = "#register" if action in ("register", "withdraw") else ""
        return redirect(reverse("scorepad:tournament",
                                kwargs={"tournament_id": tournament.pk}) + anchor)
    director = _role(request, tournament) in WRITERS
    ranking = tour.ranking_json(tournament)
    return render(request, "scorepad/tournament.html", {
        "tournament": tournament, "director": director,
        "players": tour.players_of(tournament), "roster": tour.roster_names(tournament),
        "ranking": ranking["ranking"], "rounds_closed": ranking["rounds_closed"],
        "rounds_drawn": tournament.round_set.count(),
        "paper_rounds": list(tournament.round_set.values_list("number", flat=True)),
        "screen_url": request.build_absolute_uri(
            reverse("scorepad:tournament_screen", kwargs={"token": tournament.screen_token})),
        "tables_url": reverse("scorepad:tournament_tables",
                              kwargs={"tournament_id": tournament.pk}),
        **_tables_context(tournament, director)})


def _act(request: HttpRequest, tournament: Tournament, action: str) -> None:
    post = request.POST
    if action == "register":
        tour.entrant_register(tournament=tournament, name=post.get("name", ""))
    elif action == "withdraw":
        tour.entrant_withdraw(tournament=tournament, name=post.get("name", ""))
    elif action == "draw":
        tour.round_draw(tournament=tournament, user=request.user)
    elif action in ("close", "force"):
        tour.round_close(tournament=tournament, number=parse_count(post.get("round")) or 0,
                         force=action == "force")
    elif action == "end":
        tour.tournament_change(tournament=tournament, status=Tournament.Status.FINISHED)
    elif action == "hide":
        tour.tournament_change(tournament=tournament,
                               screen_hides_rounds=parse_count(post.get("hide")))
    else:
        raise services.InputError("action", "must be one of " + ", ".join(ACTIONS),
                                  "not_choice", choices=", ".join(ACTIONS))


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
