"""Looking back: a group's past sessions, each session's deal-by-deal sheet, charts drawn
on the server as inline SVG, player statistics, and "this is me": linking a roster player
to one's account, and one's statistics across groups.

Pages for members of the group (the one write, the link, goes through services); every
figure comes from scorepad.stats, which derives it from the stored deals.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from .. import charts, games, ratings, rosters, services, stats
from ..access import READ, WRITERS, check_link, group_for, role_in, session_for
from ..forms import HistoryFilter
from ..guests import account_required
from ..ids import parse_id
from ..messages import input_error_message
from ..models import Membership, Player, Session
from .common import htmx_target

PER_PAGE = 20


def _filtered(group_sessions: Any, form: HistoryFilter) -> Any:
    if not form.is_bound:
        return group_sessions
    if not form.is_valid():
        valid = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
    else:
        valid = form.cleaned_data
    if valid.get("game"):
        group_sessions = group_sessions.filter(game=valid["game"])
    if valid.get("player"):
        group_sessions = group_sessions.filter(seats__player_id=valid["player"])
    if valid.get("since"):
        group_sessions = group_sessions.filter(date__gte=valid["since"])
    if valid.get("until"):
        group_sessions = group_sessions.filter(date__lte=valid["until"])
    return group_sessions


def _query_without_page(request: HttpRequest) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


@login_required
@require_safe
def group_sessions(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every session of the group, newest first, filtered by game, player and dates."""
    group = group_for(request.user, group_id, READ)
    players = list(group.players.order_by("name"))
    form = HistoryFilter(request.GET or None, players)
    sessions = _filtered(Session.objects.filter(group=group), form).order_by(
        "-date", "-created_at", "-id")
    page = Paginator(sessions, PER_PAGE).get_page(request.GET.get("page"))
    records = stats.load(Session.objects.filter(pk__in=[s.pk for s in page.object_list])
                         .order_by("-date", "-created_at", "-id"))
    context = {
        "group": group,
        "form": form,
        "page": page,
        "rows": [stats.session_summary(r) for r in records],
        "query": _query_without_page(request),
    }
    template = "scorepad/group_sessions.html"
    if htmx_target(request) == "results":
        template += "#results"
        context["partial"] = True  # the form is not swapped: name bad filters here
    return render(request, template, context)


def session_chart(record: stats.SessionRecord) -> charts.Chart:
    series, boundaries, references = stats.session_lines(record)
    labels = {"start": _("start"), "target": _("target")}
    return charts.line_chart(
        {record.names[p]: segs for p, segs in series.items()},
        boundaries=boundaries,
        references=[(v, labels.get(k, k)) for v, k in references],
    )


@login_required
@require_safe
def session_sheet(request: HttpRequest, session_id: int) -> HttpResponse:
    """The session as written on paper: one row per deal, one column per player."""
    session = session_for(request.user, session_id, READ)
    record = stats.load(Session.objects.filter(pk=session.pk))[0]
    game = games.of(session)
    rows = game.sheet_rows(record)
    series, _b, _r = stats.session_lines(record)
    return render(request, game.SHEET_TEMPLATE, {
        "session": session,
        "players": [record.names[p] for p in record.seats],
        "rows": rows,
        "summary": stats.session_summary(record),
        "chart": session_chart(record),
        "chart_data": _chart_table(record, series),
        "start_score": session.rules.get("start_score"),
        "can_write": getattr(session, "asker_role", None) in WRITERS,
    })


def _chart_table(record: stats.SessionRecord,
                 series: dict[str, list[list[tuple[float, float]]]]) -> list[dict[str, Any]]:
    """The chart's numbers as a table for screen readers: the last value of each line."""
    out = []
    for p in record.seats:
        points = [pt for seg in series[p] for pt in seg]
        out.append({"player": record.names[p],
                    "values": ", ".join(f"{int(y)}" for _, y in points)})
    return out


#: The group statistics' seasons (``?season=``): this month, this year, all time.
SEASONS = ("month", "year", "all")


def season_start(season: str, today: date) -> date | None:
    """The first day of the season (None: all time)."""
    if season == "month":
        return today.replace(day=1)
    if season == "year":
        return today.replace(month=1, day=1)
    return None


@account_required
@require_safe
def group_stats(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every player of the group with key figures, sortable by any column, and each game
    family's ratings (table and chart), over a season: this month, this year, all time."""
    group = group_for(request.user, group_id, READ)
    season = request.GET.get("season", "all")
    season = season if season in SEASONS else "all"
    since = season_start(season, timezone.localdate())
    players = list(group.players.order_by("name"))
    sessions = Session.objects.filter(group=group)
    if since is not None:
        sessions = sessions.filter(date__gte=since)
    records = stats.load(sessions.order_by("date", "created_at", "id"))
    sort = request.GET.get("sort", "name")
    sort = sort if sort.lstrip("-") in stats.table_columns() else "name"
    descending = sort.startswith("-")
    table = stats.group_table(players, records, sort.lstrip("-"), descending)
    labels, wins = stats.cumulative_wins(players, records)
    chart = charts.line_chart(
        {name: charts.plain(values) for name, values in wins.items() if values[-1] > 0},
        x_labels={float(i + 1): label for i, label in enumerate(labels)},
    )
    shown = stats.played(records)
    columns = [("name", _("Player")), ("sessions", _("Sessions")),
               *((column.key, column.label) for _key, column in stats.columns("group", shown))]
    names = {str(p.pk): p.name for p in players}
    return render(request, "scorepad/group_stats.html", {
        "group": group, "table": table, "sort": sort, "columns": columns,
        "spans": stats.spans("group", shown),
        "chart": chart, "wins": wins, "labels": labels,
        "note": games.stats_note(shown), "chart_title": games.chart_title("wins"),
        "season": season, "since": since,
        "seasons": [("month", _("This month")), ("year", _("This year")),
                    ("all", _("All time"))],
        "rated": [_rated_family(group, game, since, names)
                  for game in ratings.families(group)],
        "trend_games": ratings.TREND_GAMES,
    })


def _rated_family(group: Any, game: games.Game, since: date | None,
                  names: dict[str, str]) -> dict[str, Any]:
    """One game family's ratings on the statistics page: the table, and a chart with a
    line per player (the rating after each of their games, by the season's game)."""
    found = ratings.group_ratings(group, game.NAME, since)
    rows = ratings.table(found, names)
    # each line starts at 0 just before the player's first game (where the model starts)
    lines = {names.get(r.player, "?"): [[(float(r.history[0][0]), 0.0),
                                         *((float(i + 1), v) for i, v in r.history)]]
             for r in found.ordered()}
    firsts: dict[float, str] = {}
    for i, day in enumerate(found.dates):  # a label where a new day's games begin
        if i == 0 or found.dates[i - 1] != day:
            firsts[float(i + 1)] = stats.axis_date(day)
    chart = charts.line_chart(lines, x_labels=firsts, references=[(0.0, "0")] if rows else [])
    return {"game": game, "rows": rows, "chart": chart, "games": len(found.dates),
            "chart_id": f"ratings-{game.NAME}",
            "history": [(names.get(r.player, "?"),
                         ", ".join(f"{v:.2f}" for _i, v in r.history))
                        for r in found.ordered()]}


@account_required
@require_safe
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """One player's figures over every session of their group they sat at."""
    player = _player_for(request, player_id)
    return _render_player(request, player)


def _player_for(request: HttpRequest, player_id: int) -> Player:
    player = Player.objects.select_related("group", "user").filter(pk=player_id).first()
    if player is None:
        raise Http404
    group_for(request.user, player.group_id, READ)
    return player


def _render_player(request: HttpRequest, player: Player,
                   link_error: str | None = None) -> HttpResponse:
    records = stats.player_records(player)
    figures = stats.player_stats(str(player.pk), records)
    labels, points = stats.points_per_session(str(player.pk), records)
    chart = charts.line_chart(
        {player.name: charts.plain(points, start=1)} if points else {},
        x_labels={float(i + 1): label for i, label in enumerate(labels)},
        references=[(0.0, "0")] if points else [],
    )
    role = role_in(request.user, player.group)
    can_write = role in (Membership.Role.OWNER, Membership.Role.EDITOR)
    return render(request, "scorepad/player.html", {
        "player": player, "s": figures, "chart": chart,
        "points": list(zip(labels, points, strict=True)),
        "figure_templates": _figure_templates(), "chart_title": games.chart_title("points"),
        "mine": player.user_id is not None and player.user_id == request.user.pk,
        "my_other": player.group.players.filter(user=request.user).exclude(
            pk=player.pk).first(),
        "can_write": can_write,
        "members": (player.group.memberships.select_related("user").order_by("user__username")
                    if can_write else []),
        "link_error": link_error,
    })


@account_required
@require_POST
def player_link(request: HttpRequest, player_id: int) -> HttpResponse:
    """"This is me" (``user=me``), undo it (``user=``), or, for editors and owners, link
    the player to a member (``user=<account id>``). See access.check_link."""
    player = _player_for(request, player_id)
    value = request.POST.get("user", "").strip()
    target: Any = None
    if value == "me":
        target = request.user
    elif value:
        account = parse_id(value)
        membership = (Membership.objects.select_related("user")
                      .filter(group_id=player.group_id, user_id=account).first()
                      if account is not None else None)
        if membership is None:
            return _render_player(request, player,
                                  _("Account: is not a member of this group."))
        target = membership.user
    check_link(request.user, player, target)
    try:
        rosters.player_link(player=player, user=target)
    except services.InputError as e:
        return _render_player(request, player, input_error_message(e))
    return redirect("scorepad:player", player_id=player.pk)


@account_required
@require_safe
def my_stats(request: HttpRequest) -> HttpResponse:
    """Your figures across every group where a player is linked to you, and per group."""
    players = list(stats.linked_players(request.user))
    figures = stats.person_stats(players)
    for row in figures["groups"]:
        row["cells"] = stats.cells(row, "person")
    return render(request, "scorepad/my_stats.html", {
        "s": figures, "players": players, "figure_templates": _figure_templates(),
        "columns": [column.label for _key, column in stats.columns("person")],
    })


def _figure_templates() -> list[str]:
    """Each game's part of a player's figures (``_figures.html``)."""
    return [game.FIGURES_TEMPLATE for game in games.registered()]
