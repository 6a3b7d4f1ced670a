"""Looking back: statistics of players and sessions, derived from the stored deals.

Every figure is computed from what the replay stored on each deal (``Deal.data``: what
was recorded; ``Deal.result``: what the referee made of it) — there is no separately
maintained counter, so a correction, which replays the session, changes the statistics
with it. Money is the session's money as its game computes it for the settlement
(``games.<game>.money``, from the replayed state).

What each game family counts, and which of its figures the tables show (``STATS_COLUMNS``),
lives in its package (``scorepad.games``, the ``stats_*`` functions say what each figure
means); here they are summed. Definitions
(docs/using.md, "Looking back: past sessions, deal sheets, charts, statistics"):

- A *player* is a roster Player of one group: "all their sessions" means all sessions of
  that player's group in which they had a seat. A member can link a player to their
  account ("this is me", one player per account and group); a *person's* figures are
  those of all their linked players, in the groups they are still a member of, counted
  over all those sessions together (rates from the summed counts).
- Money: per currency, the sum of the player's session balances (decimal strings).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.db.models.functions import Lower

from . import games
from .games.base import Column, Money
from .loaded import DealRow, SessionRecord
from .models import Deal, Player, Seat, Session

__all__ = ["DealRow", "SessionRecord"]

@games.derived
def contract() -> tuple[str, ...]:
    """The API's top-level figures (the statistics answers of the OpenAPI schema): each
    family's package says its part of them (``stats_contract``), summed where two name
    the same."""
    return tuple(dict.fromkeys(
        ["sessions", *(name for game in games.registered()
                       for name in game.stats_contract(game.stats_empty()))]))


def load(sessions: QuerySet[Session]) -> list[SessionRecord]:
    """The sessions with seats and deals: three queries, however many sessions."""
    rows = list(
        sessions.select_related("group").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by(
                "position"))
        )
    )
    by_session: dict[int, list[DealRow]] = defaultdict(list)
    deals = (
        Deal.objects.filter(session__in=[s.pk for s in rows])
        .order_by("session_id", "number")
        .values_list("session_id", "number", "kind", "data", "result")
    )
    for session_id, number, kind, data, result in deals:
        by_session[session_id].append(DealRow(number, kind, data, result))
    out = []
    for s in rows:
        seats = list(s.seats.all())
        out.append(SessionRecord(
            session=s,
            seats=tuple(str(seat.player_id) for seat in seats),
            names={str(seat.player_id): seat.player.name for seat in seats},
            deals=tuple(by_session[s.pk]),
        ))
    return out


# --- per session -------------------------------------------------------------------------


def session_balances(record: SessionRecord) -> dict[str, Decimal] | None:
    """Each seated player's money for the session (None without a stake): the same
    figures as the session's settlement."""
    if record.session.stake is None:
        return None
    money: Money = games.of(record.session).money(record.session, record.seats)
    return dict(money.balances)


def session_summary(record: SessionRecord) -> dict[str, Any]:
    """One line of the session history: players, winners (or losers/penalties), money."""
    s = record.session
    out: dict[str, Any] = {
        "session": s,
        "players": [record.names[p] for p in record.seats],
        "deals": len(record.deals),
        "winners": [],
        "balances": None,
    }
    game = games.of(s)
    out |= game.summary(record) | {"line_template": game.SESSION_LINE_TEMPLATE}
    balances = session_balances(record)
    if balances is not None:
        out["balances"] = [{"player": record.names[p], "amount": str(balances[p])}
                           for p in record.seats]
    return out


def session_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    """The session's chart data: per player, segments of (deal, running figure); the
    game boundaries and reference lines (the game's module says which)."""
    return games.of(record.session).chart_lines(record)


# --- per player ----------------------------------------------------------------------------


def player_stats(pid: str | Collection[str], records: Iterable[SessionRecord]
                 ) -> dict[str, Any]:
    """Every figure of one player (``pid``: the player id as text) over these sessions.

    Several ids stand for one person with a player in several groups (at most one seat
    at any table): the counts are summed over all their sessions and every rate is
    computed from those sums, by the same code.
    """
    ids = {pid} if isinstance(pid, str) else set(pid)
    families = {game.NAME: game.stats_empty() for game in games.registered()}
    money: dict[str, Decimal] = {}
    sessions = 0
    for record in records:
        seated = ids.intersection(record.seats)
        if not seated:
            continue
        pid = min(seated)
        sessions += 1
        game = games.of(record.session)
        game.stats_add(pid, record, families[game.NAME])
        balances = session_balances(record)
        if balances is not None:
            currency = record.session.currency
            money[currency] = money.get(currency, Decimal(0)) + balances[pid]
    top = dict.fromkeys(contract(), 0) | {"sessions": sessions}
    for game in games.registered():
        for name, value in game.stats_contract(families[game.NAME]).items():
            top[name] += value
    return top | {game.STATS_KEY: game.stats_finish(families[game.NAME])
                  for game in games.registered()} | {
        "money": {c: str(v) for c, v in sorted(money.items())}}


def player_records(player: Player) -> list[SessionRecord]:
    """Every session of the player's group in which the player had a seat, oldest first."""
    return load(Session.objects.filter(group_id=player.group_id, seats__player=player)
                .order_by("created_at", "id"))


def linked_players(user: Any) -> QuerySet[Player]:
    """The players linked to the account, in the groups it is still a member of, by group."""
    return (Player.objects.filter(user=user, group__memberships__user=user)
            .select_related("group").order_by(Lower("group__name"), "group_id"))


def person_stats(players: Sequence[Player]) -> dict[str, Any]:
    """One person's figures across groups: ``players`` are theirs, one per group.

    The same figures as ``player_stats`` over every session any of them sat at, and under
    ``groups`` each player's own figures in their group. Four queries, however many
    groups and sessions.
    """
    records = load(
        Session.objects.filter(pk__in=Seat.objects.filter(player__in=players)
                               .values("session_id"))
        .order_by("created_at", "id")
    )
    by_group: dict[int, list[SessionRecord]] = defaultdict(list)
    for record in records:
        by_group[record.session.group_id].append(record)
    groups = [
        {"group": {"id": p.group_id, "name": p.group.name},
         "player": {"id": p.pk, "name": p.name}}
        | player_stats(str(p.pk), by_group[p.group_id])
        for p in players
    ]
    return player_stats([str(p.pk) for p in players], records) | {"groups": groups}


def played(records: Iterable[SessionRecord]) -> list[games.Game]:
    """The games these sessions played, in the registry's order: a table shows only their
    figures (another game's would be a column of zeros)."""
    names = {record.session.game for record in records}
    return [game for game in games.registered() if game.NAME in names]


def columns(table: str, of: Sequence[games.Game] | None = None
            ) -> list[tuple[str, Column]]:
    """The games' columns of a statistics table (``group`` or ``person``), in the
    registry's order, each with the key of its game's figures: of every game, or of the
    games ``of``."""
    chosen = games.registered() if of is None else of
    return [(game.STATS_KEY, column) for game in chosen
            for column in game.STATS_COLUMNS if table in column.tables]


def spans(table: str, of: Sequence[games.Game]) -> list[tuple[str, int]]:
    """The games over a statistics table's columns: each title, and how many columns are
    its (the games ``of`` that have any)."""
    out = []
    for game in of:
        count = len(columns(table, [game]))
        if count:
            out.append((game.TITLE, count))
    return out


def cells(figures: dict[str, Any], table: str, of: Sequence[games.Game] | None = None
          ) -> list[dict[str, Any]]:
    """A row of a statistics table: each game column's kind and value (of the games
    ``of``, or of every game)."""
    return [_cell(figures[key], column) for key, column in columns(table, of)]


def _cell(figures: dict[str, Any], column: Column) -> dict[str, Any]:
    return {"key": column.key, "kind": column.kind, "value": figures[column.key],
            "label": column.label, "headline": column.headline}


def parts(figures: dict[str, Any], table: str, of: Sequence[games.Game]
          ) -> list[dict[str, Any]]:
    """A player's figures game by game, as a phone shows them on the player's card: each
    game's title, its headline figures (``Column.headline``) and the others."""
    out = []
    for game in of:
        shown = [_cell(figures[game.STATS_KEY], column) for column in game.STATS_COLUMNS
                 if table in column.tables]
        out.append({"title": game.TITLE,
                    "headline": [cell for cell in shown if cell["headline"]],
                    "more": [cell for cell in shown if not cell["headline"]]})
    return out


@games.derived
def table_columns() -> tuple[str, ...]:
    """Columns of the group's player table: key in the row → how to sort (None sorts
    last)."""
    return ("name", "sessions", *(column.key for _key, column in columns("group")))


def group_table(players: Sequence[Player], records: Sequence[SessionRecord],
                sort: str = "name", descending: bool = False) -> list[dict[str, Any]]:
    """One row of key figures per player of the group, sorted by a column: the figures of
    the games these sessions played (``cells``; ``parts``: game by game), and every
    game's by its key, to sort by."""
    shown = played(records)
    rows = []
    for p in players:
        st = player_stats(str(p.pk), records)
        by_game = parts(st, "group", shown)
        rows.append({"player": p, "name": p.name, "sessions": st["sessions"],
                     "money": st["money"], "cells": cells(st, "group", shown),
                     "parts": by_game, "more": any(part["more"] for part in by_game)}
                    | {cell["key"]: cell["value"] for cell in cells(st, "group")})
    if sort not in table_columns():
        sort = "name"

    def key(row: dict[str, Any]) -> tuple[bool, Any]:
        value = row[sort]
        if isinstance(value, str):
            value = value.lower()
        return (value is None, value if value is not None else 0)

    present = [r for r in rows if r[sort] is not None]
    missing = [r for r in rows if r[sort] is None]
    present.sort(key=key, reverse=descending)
    return present + sorted(missing, key=lambda r: r["name"].lower())


def cumulative_wins(players: Sequence[Player], records: Sequence[SessionRecord]
                    ) -> tuple[list[str], dict[str, list[int]]]:
    """Games won so far, per player, after each session whose game has winners of games
    (``won_games``; x labels: the session dates)."""
    labels: list[str] = []
    series: dict[str, list[int]] = {p.name: [0] for p in players}
    for record in records:
        won = games.of(record.session).won_games(record)
        if won is None:
            continue
        labels.append(axis_date(record.session.date))
        for p in players:
            series[p.name].append(series[p.name][-1] + won.get(str(p.pk), 0))
    return labels, series


def points_per_session(pid: str, records: Sequence[SessionRecord]) -> tuple[list[str], list[int]]:
    """The player's sum of score changes per session, where the game keeps scores
    (``session_points``; lower is better: scores count down)."""
    labels, values = [], []
    for record in records:
        if pid not in record.seats:
            continue
        points = games.of(record.session).session_points(pid, record)
        if points is None:
            continue
        labels.append(axis_date(record.session.date))
        values.append(points)
    return labels, values


def axis_date(moment: Any) -> str:
    """A session's day on a chart axis, the language's way (23.11. / 23/11 / 11. 23.)."""
    from django.utils.formats import date_format

    return date_format(moment, "MONTH_DAY_FORMAT")
