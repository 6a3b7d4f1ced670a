"""A group's seasons (docs/tournaments.md, "Seasons"): the list and the one short form
that makes a season, the form that changes or deletes it, the season's page (standings,
events, chart; printed on A4) and its standings as a CSV file. The standings come from
scorepad.seasons; every choice is checked by its services."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from .. import charts, csvfile, games, rosters, seasons
from ..access import READ, WRITE, WRITERS, group_for, role_in, season_for
from ..errors import InputError
from ..forms import SeasonForm
from ..guests import account_required
from ..messages import input_error_message
from ..models import Player
from ..seasons import services as season_services
from ..tournaments.ranking import two_places
from .tournaments import _category

#: Most players drawn in the season's chart: the first of the standings (the chart's
#: colours, markers and dashes tell eight apart).
CHART_PLAYERS = charts.COLOURS


def _refused(form: SeasonForm, error: InputError) -> None:
    """Each problem of the services at its field (``cup_points.3`` is the cup points'),
    or above the form when it names none of them; a field the form's own check refused
    already (a choice none of the offered ones) keeps its own words, which name no code."""
    own = set(form.errors)
    for problem in error.problems:
        head = problem.field.split(".", 1)[0]
        if head not in own:
            form.add_error(head if head in form.fields else None,
                           input_error_message(problem))


def _form_context(form: SeasonForm) -> dict[str, Any]:
    return {"form": form, "about": form.about()}


@account_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_list(request: HttpRequest, group_id: int) -> HttpResponse:
    """A group's seasons, and (for its owners and editors) the form of a new one; a
    refused choice comes back at its field (status 200), nothing made."""
    need = WRITE if request.method == "POST" else READ
    group = group_for(request.user, group_id, need)
    form = SeasonForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        try:
            made = season_services.season_create(group=group, by=request.user,
                                                 fields=form.choices())
        except InputError as e:
            _refused(form, e)
        else:
            return redirect("scorepad:season", season_id=made.pk)
    return render(request, "scorepad/seasons.html", {
        "group": group, "seasons": group.seasons.all(),
        "can_write": role_in(request.user, group) in WRITERS, **_form_context(form)})


@account_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: HttpRequest, season_id: int) -> HttpResponse:
    """Change a season's choices, or delete it (a second tap confirms; its events stay):
    for the group's owners and editors."""
    season = season_for(request.user, season_id, WRITE)
    if request.method == "POST" and request.POST.get("action") == "delete":
        if request.POST.get("confirmed") == "yes":
            group_id = season.group_id
            season_services.season_delete(season=season)
            messages.success(request, _("The season is deleted; its events stay."))
            return redirect("scorepad:season_list", group_id=group_id)
        return redirect("scorepad:season_edit", season_id=season.pk)
    form = SeasonForm(request.POST if request.method == "POST" else None, season=season)
    if request.method == "POST":
        try:
            season_services.season_update(season=season, fields=form.choices())
        except InputError as e:
            _refused(form, e)
        else:
            return redirect("scorepad:season", season_id=season.pk)
    return render(request, "scorepad/season_edit.html",
                  {"season": season, **_form_context(form)})


def _category_of(request: HttpRequest) -> str:
    return _category(request) or ""


def categories_of(group_id: int) -> list[str]:
    """The categories of the group's players (one spelling each), sorted."""
    seen: dict[str, str] = {}
    for category in (Player.objects.filter(group_id=group_id).exclude(category="")
                     .values_list("category", flat=True)):
        seen.setdefault(rosters.category_key(category), category)
    return sorted(seen.values(), key=rosters.category_key)


def _game_title(name: str) -> str:
    """The game's title; nothing for a game this server no longer plays (its events
    count no more, its code is no word for a user)."""
    return games.get(name).TITLE if name in games.names() else ""


def _event_url(event: dict[str, Any]) -> str:
    if event["kind"] == "tournament":
        return reverse("scorepad:tournament", kwargs={"tournament_id": event["id"]})
    return reverse("scorepad:session", kwargs={"session_id": event["id"]})


def season_chart(data: dict[str, Any]) -> charts.Chart:
    """Each of the first CHART_PLAYERS players' counted cup points added up event by
    event (x: the event's number), so that each line ends at the player's points."""
    events = data["events"]
    lines = {}
    for line in data["standings"][:CHART_PLAYERS]:
        got = {r["event"]: Decimal(r["points"]) for r in line["results"] if r["counted"]}
        total, points = Decimal(0), [(0.0, 0.0)]
        for index in range(len(events)):
            total += got.get(index, Decimal(0))
            points.append((float(index + 1), float(total)))
        lines[line["name"]] = [points]
    labels = {float(i + 1): str(i + 1) for i in range(len(events))} | {0.0: "0"}
    return charts.line_chart(lines if events else {}, x_labels=labels)


def figure(value: Any) -> str:
    """A figure of the standings as the API writes it: two places and a point ("12.50"),
    in every language, as the tournaments' figures."""
    return two_places(Fraction(Decimal(value)))


def _lines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings' lines with their figures written out, each result beside its
    event's number, name and address."""
    events = data["events"]
    out = []
    for line in data["standings"]:
        results = [{**r, "points": figure(r["points"]), "name": events[r["event"]]["name"],
                    "number": r["event"] + 1, "url": _event_url(events[r["event"]])}
                   for r in line["results"]]
        out.append({**line, "points": figure(line["points"]),
                    "average": figure(line["average"]), "results": results})
    return out


@account_required
@require_safe
def season_page(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's standings (``?category=``: that category's), its events with their
    dates and links, and the chart of the points as they grew; printed, the table alone."""
    season = season_for(request.user, season_id, READ)
    category = _category_of(request)
    data = seasons.standings(season, category)
    events = [{**e, "number": i, "url": _event_url(e)}
              for i, e in enumerate(data["events"], 1)]
    return render(request, "scorepad/season.html", {
        "season": season, "group": season.group, "game_title": _game_title(season.game),
        "events": events, "lines": _lines(data), "chart": season_chart(data),
        "chart_players": min(CHART_PLAYERS, len(data["standings"])),
        "category": category, "categories": categories_of(season.group_id),
        "can_write": season.asker_role in WRITERS,
        "csv_url": reverse("scorepad:season_csv", kwargs={"season_id": season.pk})
        + (f"?{urlencode({'category': category})}" if category else "")})


def _number(value: Any) -> Decimal:
    return Decimal(figure(value))


def csv_rows(data: dict[str, Any]) -> list[list[object]]:
    """The standings as rows: a header in the user's language, a line per player with
    their figures (numbers as numbers, two places) and two columns per event, its cup
    points and whether they count (both empty where the player did not play)."""
    header: list[object] = [_("Place"), _("Name"), _("Points"), _("Events"), _("Wins"),
                            _("Average"), _("Qualified")]
    for i, event in enumerate(data["events"], 1):
        about = f"{i}. {event['name']} ({event['date']})"
        header += [_("%(event)s: points") % {"event": about},
                   _("%(event)s: counted") % {"event": about}]
    rows = [header]
    for line in data["standings"]:
        by_event = {r["event"]: r for r in line["results"]}
        row: list[object] = [line["place"], line["name"], _number(line["points"]),
                             line["events"], line["wins"], _number(line["average"]),
                             _("yes") if line["qualified"] else _("no")]
        for index in range(len(data["events"])):
            r = by_event.get(index)
            row += ([None, None] if r is None else
                    [_number(r["points"]), _("yes") if r["counted"] else _("no")])
        rows.append(row)
    return rows


@account_required
@require_safe
def season_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The standings as a CSV file through the one escaping writer (scorepad/csvfile.py),
    with a byte order mark so that a spreadsheet opens the names' accents right."""
    season = season_for(request.user, season_id, READ)
    data = seasons.standings(season, _category_of(request))
    body = csvfile.write(csv_rows(data), byte_order_mark=True).encode()
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    name = f"{slugify(season.name) or 'season'}-{season.start.year}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-cache"
    return response
