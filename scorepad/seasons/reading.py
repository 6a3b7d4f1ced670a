"""A season's events and standings as the API and the pages show them (docs/tournaments.md,
"Seasons"): read from the events each time, so that a correction of any deal moves them at
once. Each event's places come from its kept results (a tournament's ranking) or its
running state (an evening, through its game's ``evening_places``), never from its deals:
a few queries for the evenings and two for each tournament, however many deals.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Exists, Max, OuterRef

from .. import games, rosters
from ..models import Deal, DealEvent, FinishedGame, Player, Season, Seat, Session, Tournament
from ..tournaments import services as tour
from ..tournaments.ranking import two_places
from . import cup

TOURNAMENT = "tournament"
EVENING = "evening"


@dataclass(frozen=True)
class Event:
    """One event of the season: what it is (``kind``, ``id``: what a page links), its day
    and name, and each player's place there (by roster player id)."""

    kind: str
    id: int
    date: date
    name: str
    places: Mapping[int, int]


def cup_points(season: Season) -> list[Fraction]:
    """The season's cup points, exact (kept as numbers or decimal text)."""
    return [Fraction(Decimal(str(points))) for points in season.cup_points or []]


def _tournaments(season: Season) -> list[Event]:
    """The group's finished tournaments of the game in the season's days: each player who
    played a round at their place in the final ranking."""
    out = []
    for found in Tournament.objects.filter(
            group_id=season.group_id, game=season.game, status=Tournament.Status.FINISHED,
            date__range=(season.start, season.end)).order_by("date", "id"):
        lines = tour.standings(found)
        places = {int(line.entry.player): line.place for line in lines
                  if line.rounds or line.final_table is not None}
        out.append(Event(TOURNAMENT, found.pk, found.date, found.name, places))
    return out


def _evenings(season: Season) -> list[Event]:
    """The group's closed sessions of the game with a deal, not a tournament's table, in
    the season's days: each seated player at their place by the game's own rule."""
    try:
        game = games.get(season.game)
    except KeyError:  # a game no longer registered: its evenings cannot be placed
        return []
    sessions = list(Session.objects.filter(
        group_id=season.group_id, game=season.game, status=Session.Status.CLOSED,
        date__range=(season.start, season.end), tournament_table__isnull=True)
        .filter(Exists(Deal.objects.filter(session=OuterRef("pk"))))
        .order_by("date", "id"))
    ids = [s.pk for s in sessions]
    seats: dict[int, list[str]] = {}
    for session_id, player_id in (Seat.objects.filter(session_id__in=ids)
                                  .order_by("position").values_list("session_id",
                                                                    "player_id")):
        seats.setdefault(session_id, []).append(str(player_id))
    finished: dict[int, list[Mapping[str, Any]]] = {}
    for session_id, summary in (FinishedGame.objects.filter(session_id__in=ids)
                                .order_by("number").values_list("session_id", "summary")):
        finished.setdefault(session_id, []).append(summary)
    out = []
    for session in sessions:
        seated = seats.get(session.pk, [])
        places = game.evening_places(session, seated, finished.get(session.pk, []))
        out.append(Event(EVENING, session.pk, session.date, session.name or str(session),
                         {int(p): place for p, place in places.items()}))
    return out


def events(season: Season) -> list[Event]:
    """The season's events in date order, then by id."""
    found: list[Event] = []
    if season.events in (Season.Events.TOURNAMENTS, Season.Events.BOTH):
        found += _tournaments(season)
    if season.events in (Season.Events.EVENINGS, Season.Events.BOTH):
        found += _evenings(season)
    return sorted(found, key=lambda e: (e.date, e.id, e.kind))


def _decimal(value: Fraction) -> Decimal:
    """Two places, half away from zero, as tournaments show their figures."""
    return Decimal(two_places(value))


def _in_category(lines: Sequence[cup.Line[int]], players: Mapping[int, tuple[str, str]],
                 category: str) -> list[tuple[int, cup.Line[int]]]:
    """(place, line) of everybody, or of one category's players with their place in it
    (1 + the category's players standing strictly before; capitals aside)."""
    if not category:
        return [(line.place, line) for line in lines]
    key = rosters.category_key(category)
    members = [line for line in lines
               if players[line.player][1] and rosters.category_key(players[line.player][1])
               == key]
    return [(1 + sum(1 for other in members if other.key > line.key), line)
            for line in members]


def _computed(season: Season, category: str) -> tuple[dict[str, Any], list[Event]]:
    held = events(season)
    players = {pk: (name, cat) for pk, name, cat in Player.objects.filter(
        pk__in={p for e in held for p in e.places}).values_list("pk", "name", "category")}
    lines = cup.standings([e.places for e in held], cup_points(season), season.best_of,
                          season.min_events,
                          order=lambda p: (rosters.name_key(players[p][0]), p))
    body = {
        "season": season.pk,
        "events": [{"kind": e.kind, "id": e.id, "date": e.date, "name": e.name,
                    "players": len(e.places)} for e in held],
        "standings": [{
            "place": place, "player": line.player, "name": players[line.player][0],
            "points": _decimal(line.points), "events": line.events, "wins": line.wins,
            "average": _decimal(line.average), "qualified": line.qualified,
            "results": [{"event": r.event, "place": r.place, "points": _decimal(r.points),
                         "counted": r.counted} for r in line.results],
        } for place, line in _in_category(lines, players, category)],
    }
    return body, held


def standings(season: Season, category: str = "") -> dict[str, Any]:
    """The season's standings as the API answers them (figures as ``Decimal`` with two
    places); ``category``: that category's players alone, each with their place in it
    ("": everybody). Each standing also names its roster ``player`` (a page links it)."""
    return _computed(season, category)[0]


def _deal_marks(held: Sequence[Event]) -> list[tuple[str, int, int]]:
    """(kind, id, the last change of its deals) of each event: the newest entry of the
    append-only history (DealEvent) of its session, or of its tables' sessions. Every
    recorded, corrected or deleted deal adds one; nothing else does. Two queries."""
    marks: list[tuple[str, int, int]] = []
    evenings = [e.id for e in held if e.kind == EVENING]
    tournaments = [e.id for e in held if e.kind == TOURNAMENT]
    if evenings:
        marks += [(EVENING, pk, last) for pk, last in DealEvent.objects.filter(
            session_id__in=evenings).values_list("session_id").annotate(last=Max("id"))
            .values_list("session_id", "last")]
    if tournaments:
        through = "session__tournament_table__round__tournament_id"
        marks += [(TOURNAMENT, pk, last) for pk, last in DealEvent.objects.filter(
            **{f"{through}__in": tournaments}).values_list(through)
            .annotate(last=Max("id")).values_list(through, "last")]
    return sorted(marks)


def _etag_of(body: Mapping[str, Any], held: Sequence[Event], category: str) -> str:
    shown = json.dumps([body, _deal_marks(held), rosters.category_key(category)],
                       default=str, sort_keys=True)
    return '"season-' + hashlib.blake2b(shown.encode(), digest_size=16).hexdigest() + '"'


def standings_and_etag(season: Season, category: str = "") -> tuple[dict[str, Any], str]:
    """The standings and their ETag, read once."""
    body, held = _computed(season, category)
    return body, _etag_of(body, held, category)


def etag(season: Season, category: str = "") -> str:
    """The standings' ETag: opaque, a hash of what they show and of the last change of
    each event's deals, so that any deal's correction changes it (even one that leaves the
    figures as they were) and nothing else that leaves the standings as they are does."""
    return standings_and_etag(season, category)[1]
