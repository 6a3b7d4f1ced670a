"""A tournament's public screen (docs/tournaments.md, "The screen"): the ranking in large
type and the open round's tables with their live scores, rendered here and refreshing
itself with htmx; for a projector, a TV or a phone, no login."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from ..cache.answers import polled
from ..models import Tournament, TournamentRound
from ..tournaments import services as tour
from ..tournaments.ranking import two_places
from .common import no_store

#: Seconds between two refreshes of the screen.
SCREEN_SECONDS = 5


def _tournament(token: str) -> Tournament:
    found = tour.tournament_by_screen(token)
    if found is None:
        raise Http404
    return found


def screen_context(tournament: Tournament, board_url: str) -> dict[str, Any]:
    ranking = tour.ranking_json(tournament, hide=tournament.screen_hides_rounds)
    open_round = tournament.round_set.filter(status=TournamentRound.Status.OPEN).first()
    tables = []
    if open_round is not None:
        for live in tour.live_tables(tournament, open_round):
            tables.append({"number": live.table.number, "deals": live.deals,
                           "finished": live.finished,
                           "scores": [(name, two_places(live.scores.get(name, 0)))
                                      for name in live.seats]})
    return {"tournament": tournament, "ranking": ranking["ranking"],
            "rounds_closed": ranking["rounds_closed"], "open_round": open_round,
            "tables": tables, "board_url": board_url, "every": SCREEN_SECONDS}


def _board_url(token: str) -> str:
    return reverse("scorepad:tournament_screen_board", kwargs={"token": token})


@require_safe
def screen(request: HttpRequest, token: str) -> HttpResponse:
    tournament = _tournament(token)
    context = screen_context(tournament, _board_url(token))
    return no_store(render(request, "scorepad/tournament_screen.html", context))


@require_safe
def screen_board(request: HttpRequest, token: str) -> HttpResponse:
    """The screen's polled part: 304 while nothing changed (the tournament's version and
    the open round's tables' versions make its ETag), rendered once per change."""
    tournament = _tournament(token)
    parts = ("screen", request.LANGUAGE_CODE)

    def build() -> tuple[str, bytes, str]:
        fresh = _tournament(token)
        etag = tour.screen_etag(fresh, *parts)
        response = render(request, "scorepad/_tournament_screen.html",
                          screen_context(fresh, _board_url(token)))
        return etag, response.content, response["Content-Type"]

    return polled(request, tour.screen_etag(tournament, *parts), build, secret_url=True)
