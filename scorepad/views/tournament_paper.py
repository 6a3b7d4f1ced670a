"""A tournament on paper (docs/tournaments.md, "On paper"): the ranking to download (CSV,
JSON) and to print (A4), the score slips of a round for a table without a phone, and the
director's form that enters a table's result from its slip."""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from .. import csvfile, games
from ..access import READ, WRITE, tournament_for
from ..api import tournament_serializers as ts
from ..errors import InputError, NotFound
from ..guests import account_required
from ..ids import parse_count
from ..messages import input_error_message
from ..models import Tournament, TournamentRound
from ..tournaments import services as tour
from ..tournaments import tables as table_rules
from .tournaments import _category

#: Empty deal rows on a score slip whose round ends with the game (a round of a number of
#: deals gets that many).
SLIP_ROWS = 16


def _rounds_of(ranking: list[dict[str, Any]]) -> list[int]:
    return sorted({r["round"] for line in ranking for r in line["rounds"]})


def _filename(tournament: Tournament, extension: str) -> str:
    """``<name>-<date>.<extension>``: the name as a slug (ASCII), the day it was made."""
    day = timezone.localdate(tournament.created_at).isoformat()
    return f"{slugify(tournament.name) or 'tournament'}-{day}.{extension}"


def _attachment(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-cache"
    return response


@account_required
@require_safe
def ranking_download(request: HttpRequest, tournament_id: int, fmt: str) -> HttpResponse:
    """The ranking of the closed rounds as a file: JSON as the API answers it, or CSV with
    a header row in the user's language, a line per player and four columns per round;
    figures with two decimal places and a point, as in the API."""
    tournament = tournament_for(request.user, tournament_id, READ)
    if fmt not in ("csv", "json"):
        raise Http404
    data = ts.RankingOut(tour.ranking_json(tournament)).data
    if fmt == "json":
        body = json.dumps(data, ensure_ascii=False, indent=1).encode()
        return _attachment(HttpResponse(body, content_type="application/json; charset=utf-8"),
                           _filename(tournament, "json"))
    rounds = _rounds_of(data["ranking"])
    header: list[object] = [_("Place"), _("Name"), _("Start number"), _("Points"),
                            _("Score"), _("Wins")]
    for number in rounds:
        header += [_("Round %(n)s: table") % {"n": number},
                   _("Round %(n)s: place") % {"n": number},
                   _("Round %(n)s: points") % {"n": number},
                   _("Round %(n)s: score") % {"n": number}]
    rows = [header]
    for line in data["ranking"]:
        # the API's figures ("-1.33") as numbers, so that the writer keeps them so
        row: list[object] = [line["place"], line["name"], line["number"],
                             Decimal(line["points"]), Decimal(line["score"]), line["wins"]]
        played = {r["round"]: r for r in line["rounds"]}
        for number in rounds:
            r = played.get(number)
            row += ([r["table"], r["place"], Decimal(r["points"]), Decimal(r["score"])]
                    if r else [None] * 4)
        rows.append(row)
    # through the one writer (names a spreadsheet would run are escaped), with a byte
    # order mark, so that a spreadsheet opens the names' accents right
    body = csvfile.write(rows, byte_order_mark=True).encode()
    return _attachment(HttpResponse(body, content_type="text/csv; charset=utf-8"),
                       _filename(tournament, "csv"))


def _about(tournament: Tournament) -> dict[str, Any]:
    game = games.get(tournament.game)
    return {"game_title": game.TITLE, "rules_title": game.rules_title(tournament.preset)}


@account_required
@require_safe
def ranking_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The (final) ranking to print on A4: places, points, score, wins and each round's
    points, with the tournament's name, date and game; the prize list beside it (who wins
    what, once finished); ``?category=``: that category's ranking."""
    tournament = tournament_for(request.user, tournament_id, READ)
    category = _category(request)
    ranking = tour.ranking_json(tournament, category=category)
    rounds = _rounds_of(ranking["ranking"])
    lines = []
    for line in ranking["ranking"]:
        played = {r["round"]: r for r in line["rounds"]}
        lines.append({**line, "by_round": [played.get(n) for n in rounds]})
    return render(request, "scorepad/tournament_ranking.html", {
        "tournament": tournament, "lines": lines, "rounds": rounds,
        "rounds_closed": ranking["rounds_closed"], **_about(tournament),
        "category": category, "categories": tour.categories_of(tournament),
        "prizes": tour.prizes_json(tournament), "show_lot": tour.needs_lot(tournament),
        "downloads": _download_urls(tournament)})


def _download_urls(tournament: Tournament) -> dict[str, str]:
    return {fmt: reverse("scorepad:tournament_ranking_file",
                         kwargs={"tournament_id": tournament.pk, "fmt": fmt})
            for fmt in ("csv", "json")}


def _round(tournament: Tournament, number: int) -> TournamentRound:
    found = tournament.round_set.filter(number=number).first()
    if found is None:
        raise Http404
    return found


@account_required
@require_safe
def score_slips(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A round's score slips to print (A4), one per table and page: its number, the round,
    the seats with names and start numbers, empty deal rows with a column per player (as
    many as the round can need: its number of deals, or ``SLIP_ROWS`` for a round that
    ends with the game), and a line to sign; for a table that keeps its score on paper."""
    tournament = tournament_for(request.user, tournament_id, WRITE)
    the_round = _round(tournament, number)
    numbers = dict(tournament.entrants.values_list("player__name", "number"))
    slips = [{"number": live.table.number,
              "seats": [(name, numbers.get(name)) for name in live.seats],
              "dealer": live.dealer}
             for live in tour.live_tables(tournament, the_round)]
    play = games.get(tournament.game).TOURNAMENT
    figures = ", ".join(str(c.label) for c in (play.slip if play else ()))
    rows = (tournament.deals_per_round if tournament.round_ends == Tournament.RoundEnds.DEALS
            and tournament.deals_per_round else SLIP_ROWS)
    return render(request, "scorepad/score_slips.html", {
        "tournament": tournament, "round": the_round, "slips": slips, "figures": figures,
        "rows": range(1, rows + 1), **_about(tournament)})


def _slip_fields(tournament: Tournament, table: Any) -> tuple[list[Any], list[dict[str, Any]]]:
    """The game's slip columns and a row per seat: its player's id, name and fields."""
    play = table_rules.play_of(table.session)
    entered = (table.result or {}).get("slip", {}).get("figures", {})
    seats = list(table.session.seats.order_by("position")
                 .values_list("player_id", "player__name"))
    numbers = dict(tournament.entrants.values_list("player_id", "number"))
    rows = []
    for player_id, name in seats:
        rows.append({"name": name, "number": numbers.get(player_id), "fields": [
            {"name": f"{c.key}.{player_id}", "label": c.label, "least": c.least,
             "most": c.most, "value": entered.get(c.key, {}).get(str(player_id), "")}
            for c in play.slip]})
    return list(play.slip), rows


@account_required
def slip_entry(request: HttpRequest, tournament_id: int, number: int,
               table: int) -> HttpResponse:
    """Enter a table's result from its score slip: each player's figures at the end of
    the round. A wrong figure comes back with the form, naming the player and the field;
    nothing is kept until every figure is right."""
    tournament = tournament_for(request.user, tournament_id, WRITE)
    the_round = _round(tournament, number)
    found = the_round.tables.select_related("session").filter(number=table).first()
    if found is None:
        raise Http404
    columns, rows = _slip_fields(tournament, found)
    error, wrong = "", ""
    if request.method == "POST":
        figures: dict[str, dict[str, str]] = {}
        for key, value in request.POST.items():
            column, _dot, player = key.partition(".")
            if _dot and column in {c.key for c in columns}:
                figures.setdefault(column, {})[player] = value
        try:
            tour.table_result_enter(tournament=tournament, round_number=number,
                                    table_number=parse_count(table), figures=figures,
                                    user=request.user)
        except InputError as e:
            wrong = e.field
            column, _dot, player = e.field.partition(".")
            label = next((str(c.label) for c in columns if c.key == column), column)
            name = next((r["name"] for r in rows
                         if any(f["name"] == e.field for f in r["fields"])), player)
            error = f"{name}, {label}: {input_error_message(e)}"
            for r in rows:
                for f in r["fields"]:
                    f["value"] = request.POST.get(f["name"], "")
        except NotFound:
            raise Http404 from None
        else:
            messages.success(request, _("The result of table %(table)s is kept.")
                             % {"table": table})
            return redirect("scorepad:tournament", tournament_id=tournament.pk)
    slip = (found.result or {}).get("slip") or {}
    return render(request, "scorepad/slip_entry.html", {
        "tournament": tournament, "round": the_round, "table": found, "columns": columns,
        "rows": rows, "error": error, "wrong": wrong,
        "entered_by": slip.get("by_name", ""),
        "entered_at": datetime.fromisoformat(slip["at"]) if slip.get("at") else None})
