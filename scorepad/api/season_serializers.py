"""Input and output shapes of the season API (docs/tournaments.md, "Seasons"). The fields
are checked by ``scorepad.seasons.services`` (one place for the API and the page's form);
the shapes here say what they take."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorepad import games
from scorepad.fields import NAME_PATTERN, SessionDateField, Shape, _ServiceChecked
from scorepad.models import Season
from scorepad.seasons import services as seasons

from . import referee_serializers as s
from .tournament_serializers import NumberOut

CUP_POINTS_SCHEMA = {
    "type": "array", "minItems": 1, "maxItems": seasons.CUP_PLACES,
    "items": {"type": "number", "minimum": 0, "maximum": seasons.CUP_POINTS_MOST},
    "example": [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]}


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": seasons.NAME_MAX,
                      "pattern": NAME_PATTERN, "example": "Jahreswertung 2026"})
class SeasonNameField(_ServiceChecked):
    """A season's name, 1–80 characters."""


@extend_schema_field({"type": "string", "enum": Season.Events.values})
class EventsField(_ServiceChecked):
    """What counts: tournaments, evenings or both."""


@extend_schema_field({"type": "string", "pattern": "^(tournament|evening)$"})
class EventKindField(serializers.CharField):
    """What an event is: a tournament (its id a tournament's) or an evening (a session's)."""


def _game_field(**kwargs: Any) -> Any:
    """One of the registered games (``seasons.services`` checks it)."""
    names = "|".join(games.names())
    field = extend_schema_field({"type": "string", "pattern": f"^({names})$"})(GameField)
    return field(**kwargs)


class GameField(_ServiceChecked):
    """A registered game's name."""


@extend_schema_field(CUP_POINTS_SCHEMA)
class CupPointsField(_ServiceChecked):
    """Cup points of places 1, 2, … (``seasons.clean_cup_points``)."""


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": seasons.COUNT_MOST,
                      "nullable": True})
class BestOfField(_ServiceChecked):
    """Only the best N results count; null: all of them."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": seasons.COUNT_MOST})
class MinEventsField(_ServiceChecked):
    """Fewer events than this: not qualified."""


class SeasonPatchIn(Shape):
    """The season's fields, each optional."""

    schema_extra = {"minProperties": 1}

    name = SeasonNameField()
    game = _game_field()
    start = SessionDateField(help_text="the season's first day")
    end = SessionDateField(help_text="its last day (not before start)")
    events = EventsField(help_text="what counts: finished tournaments, closed evenings with "
                                   "a deal, or both")
    cup_points = CupPointsField(help_text="place k earns cup_points[k - 1] (0 beyond the "
                                          "list); default 25, 20, 16, 13, 11, 10, 9 … 1")
    best_of = BestOfField(help_text="only the N highest results count (null: all)")
    min_events = MinEventsField(help_text="fewer events: not qualified (default 0)")


class SeasonIn(SeasonPatchIn):
    schema_extra: dict[str, Any] = {}

    name = SeasonNameField(required=True)
    game = _game_field(required=True)
    start = SessionDateField(required=True, help_text="the season's first day")
    end = SessionDateField(required=True, help_text="its last day (not before start)")
    events = EventsField(required=True, help_text="what counts: finished tournaments, "
                                                  "closed evenings with a deal, or both")


class SeasonOut(Shape):
    id = serializers.IntegerField()
    group = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    events = serializers.ChoiceField(Season.Events.values)
    cup_points = serializers.ListField(child=NumberOut())
    best_of = serializers.IntegerField(allow_null=True)
    min_events = serializers.IntegerField()


class SeasonEventOut(Shape):
    kind = EventKindField()
    id = serializers.IntegerField(help_text="the tournament's or the session's id")
    date = serializers.DateField()
    name = serializers.CharField()
    players = serializers.IntegerField(help_text="the players who played in it")


class SeasonResultOut(Shape):
    event = serializers.IntegerField(help_text="its index in events")
    place = serializers.IntegerField()
    points = serializers.CharField(help_text="cup points, a decimal string with two places")
    counted = serializers.BooleanField(help_text="among the best_of results that count")


class SeasonStandingOut(Shape):
    place = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.CharField(help_text="the counted results' sum, two places")
    events = serializers.IntegerField(help_text="events played")
    wins = serializers.IntegerField(help_text="events at place 1, shared or not")
    average = serializers.CharField(help_text="every result's sum ÷ events, two places")
    qualified = serializers.BooleanField(help_text="played at least min_events")
    results = SeasonResultOut(many=True)


class StandingsOut(Shape):
    season = serializers.IntegerField()
    events = SeasonEventOut(many=True)
    standings = SeasonStandingOut(many=True)


ERRORS = {400: s.ErrorOut, 401: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut}
