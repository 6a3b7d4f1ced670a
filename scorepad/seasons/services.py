"""Use cases of a season (docs/tournaments.md, "Seasons"): make one, change it, delete it.
Every field is checked here, one InputError naming each wrong field, so that the API and
the page's form refuse alike; a season keeps nothing but its choices (its standings are
read from its events, ``reading``), and deleting it deletes no event.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db import transaction

from .. import games, rosters, services
from ..errors import FieldProblem, InputError
from ..models import Group, Season, default_cup_points
from ..tournaments.formats import clean_points

NAME_MAX = 80
#: ``cup_points``: 1 to this many places, each from 0 to ``CUP_POINTS_MOST``.
CUP_PLACES = 50
CUP_POINTS_MOST = 1_000_000
#: ``best_of`` and ``min_events`` at most (what the database keeps).
COUNT_MOST = 32767

#: The fields a season is made with (POST) and may change (PATCH).
FIELDS = ("name", "game", "start", "end", "events", "cup_points", "best_of", "min_events")
REQUIRED = ("name", "game", "start", "end", "events")


def _name(value: object) -> str:
    return rosters.clean_text(value, "name", NAME_MAX)


def _game(value: object) -> str:
    known = games.names()
    if value not in known:
        raise InputError("game", "must be one of " + ", ".join(known), "not_choice",
                         choices=", ".join(known))
    return str(value)


def _day(value: object, field: str) -> date:
    try:
        return services.clean_session_date(value)
    except InputError as e:
        raise InputError(field, e.message, e.code, **e.params) from None


def _events(value: object) -> str:
    choices = Season.Events.values
    if value not in choices:
        raise InputError("events", "must be one of " + ", ".join(choices), "not_choice",
                         choices=", ".join(choices))
    return str(value)




def clean_cup_points(value: object) -> list[str]:
    """1–50 numbers ≥ 0, kept exactly as decimal text."""
    return clean_points(value, "cup_points", CUP_PLACES, CUP_POINTS_MOST)


def _count(value: object, field: str, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= COUNT_MOST:
        raise InputError(field, f"must be a whole number from {low} to {COUNT_MOST}",
                         "not_between", min=low, max=COUNT_MOST)
    return value


def _best_of(value: object) -> int | None:
    return None if value is None else _count(value, "best_of", 1)


CLEANERS = {
    "name": _name, "game": _game, "start": lambda v: _day(v, "start"),
    "end": lambda v: _day(v, "end"), "events": _events, "cup_points": clean_cup_points,
    "best_of": _best_of, "min_events": lambda v: _count(v, "min_events", 0),
}


def clean_fields(given: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any]:
    """The fields ``given`` checked and made what the season keeps, against ``current``
    (what it has; for a new season, nothing): every required field present, ``end`` not
    before ``start``. One InputError naming each wrong field."""
    problems: list[FieldProblem] = []
    out: dict[str, Any] = {}
    for field in given:
        if field not in CLEANERS:
            problems.append(FieldProblem(field, "unknown_field", "is not a field here"))
    for field, clean in CLEANERS.items():
        if field in given:
            try:
                out[field] = clean(given[field])
            except InputError as e:
                problems.extend(e.problems)
        elif field in REQUIRED and field not in current:
            problems.append(FieldProblem(field, "missing", "is required"))
    after = {**current, **out}
    named = {p.field for p in problems}
    if ("start" in after and "end" in after and not {"start", "end"} & named
            and after["end"] < after["start"]):
        problems.append(FieldProblem("end", "end_before_start",
                                     "must not be before the start"))
    if problems:
        raise InputError.of(problems)
    return out


def _kept(season: Season) -> dict[str, Any]:
    return {field: getattr(season, field) for field in FIELDS}


@transaction.atomic
def season_create(group: Group, by: Any, fields: Mapping[str, Any]) -> Season:
    """A season of the group (``by``: who makes it); ``cup_points`` defaults to 25, 20,
    16, …, 1, ``best_of`` to none and ``min_events`` to 0."""
    kept = {"cup_points": clean_cup_points(default_cup_points()), "best_of": None,
            "min_events": 0, **clean_fields(fields, {})}
    return Season.objects.create(group=group, created_by=services.acting_account(by), **kept)


@transaction.atomic
def season_update(season: Season, fields: Mapping[str, Any]) -> Season:
    """Change the fields given (the others stay), checked together with what the season
    keeps (``end`` against the kept ``start``)."""
    locked = Season.objects.select_for_update().get(pk=season.pk)
    changes = clean_fields(fields, _kept(locked))
    for field, value in changes.items():
        setattr(locked, field, value)
    if changes:
        locked.save(update_fields=list(changes))
    for field in FIELDS:
        setattr(season, field, getattr(locked, field))
    return season


@transaction.atomic
def season_delete(season: Season) -> None:
    """Delete the season alone: its evenings and tournaments stay as they are."""
    Season.objects.filter(pk=season.pk).delete()
