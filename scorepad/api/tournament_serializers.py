"""Input and output shapes of the tournament API (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scorepad import games
from scorepad.fields import (
    NameField,
    RulesSpecField,
    Shape,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    money_schema,
)
from scorepad.ids import ID_MAX
from scorepad.models import Tournament
from scorepad.services import STAKE_DIGITS
from scorepad.tournaments.services import MAX_DEALS, MAX_ROUNDS

from . import referee_serializers as s

#: The most players a table of any game seats (each game's rules say less).
TABLE_MOST = 8


def _by_game() -> dict[str, Any]:
    """Each tournament game's rules, its table sizes (its default rules say; the service
    checks the frozen ones) and how its rounds may end."""
    options = []
    for game in games.registered():
        if game.TOURNAMENT is None:
            continue
        frozen = game.rules(None, None)
        ends = (Tournament.RoundEnds.values if game.TOURNAMENT.ends_with_game
                else [Tournament.RoundEnds.DEALS])
        options.append({"properties": {
            "game": {"type": "string", "pattern": f"^{game.NAME}$"},
            "table_size": {"minimum": frozen.fewest, "maximum": frozen.most},
            "round_ends": {"type": "string", "pattern": "^(" + "|".join(ends) + ")$"},
            "rules": game.RULES_SCHEMA}})
    return {"oneOf": options}


#: ``deals_per_round`` is required when a round ends after a number of deals.
DEALS_NEEDED = {"anyOf": [
    {"properties": {"round_ends": {"type": "string", "pattern": "^game$"}}},
    {"required": ["deals_per_round"]},
]}


class TournamentIn(Shape):
    schema_extra = {"allOf": [_by_game(), DEALS_NEEDED,
                              money_schema(digits=STAKE_DIGITS, optional=True)]}

    group = StrictIntegerField(min_value=1, max_value=ID_MAX)
    name = NameField()
    game = serializers.ChoiceField(games.for_tournaments())
    rules = RulesSpecField(required=False)
    rounds = StrictIntegerField(min_value=1, max_value=MAX_ROUNDS)
    round_ends = serializers.ChoiceField(Tournament.RoundEnds.values)
    deals_per_round = StrictIntegerField(min_value=1, max_value=MAX_DEALS, required=False)
    table_size = StrictIntegerField(min_value=2, max_value=TABLE_MOST)
    scoring = serializers.ChoiceField(Tournament.Scoring.values)
    draw = serializers.ChoiceField(Tournament.Draw.values)
    stake = StrictCharField(required=False, allow_null=True, max_length=40)
    currency = StrictCharField(required=False, allow_null=True, max_length=3)


class TournamentPatchIn(Shape):
    schema_extra = {"minProperties": 1}

    status = serializers.ChoiceField([Tournament.Status.FINISHED], required=False)
    screen_hides_rounds = StrictIntegerField(min_value=0, max_value=MAX_ROUNDS,
                                             required=False)
    name = NameField(required=False)


class EntrantIn(Shape):
    name = NameField()


class EntrantOut(Shape):
    name = serializers.CharField()
    number = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class CloseIn(Shape):
    force = StrictBooleanField(required=False, default=False)


class TableOut(Shape):
    table = serializers.IntegerField()
    session = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField()
    table_code = serializers.CharField(
        allow_null=True, help_text="for Authorization: Table <code>; shown to the director "
        "while the round is open, null otherwise")
    deals = serializers.IntegerField(help_text="deals recorded")
    finished = serializers.BooleanField()
    scores = serializers.DictField(
        child=serializers.CharField(),
        help_text="each player's round score as it stands (a decimal string, two places)")


class RoundOut(Shape):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(["open", "closed"])
    forced = serializers.BooleanField(help_text="closed with unfinished tables")
    tables = TableOut(many=True)


class TournamentOut(Shape):
    id = serializers.IntegerField()
    group = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    preset = serializers.CharField()
    rules = serializers.DictField()
    rounds_total = serializers.IntegerField(help_text="the rounds the tournament has (R)")
    round_ends = serializers.ChoiceField(Tournament.RoundEnds.values)
    deals_per_round = serializers.IntegerField(allow_null=True)
    table_size = serializers.IntegerField()
    scoring = serializers.ChoiceField(Tournament.Scoring.values)
    draw = serializers.ChoiceField(Tournament.Draw.values)
    stake = serializers.CharField(allow_null=True)
    currency = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(Tournament.Status.values)
    screen_url = serializers.CharField()
    screen_hides_rounds = serializers.IntegerField()
    players = EntrantOut(many=True)
    rounds = RoundOut(many=True, help_text="the rounds drawn so far, each with its tables")


class RankingRoundOut(Shape):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.CharField()
    score = serializers.CharField()


class RankingLineOut(Shape):
    place = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.IntegerField()
    points = serializers.CharField(help_text="a decimal string with two places")
    score = serializers.CharField(help_text="a decimal string with two places")
    wins = serializers.IntegerField()
    rounds = RankingRoundOut(many=True)


class RankingOut(Shape):
    rounds_closed = serializers.IntegerField()
    ranking = RankingLineOut(many=True)


class TournamentConflictOut(Shape):
    detail = serializers.CharField()
    reason = serializers.CharField()
    tables = serializers.ListField(child=serializers.IntegerField(), required=False,
                                   help_text="the unfinished tables (closing a round)")


ERRORS = {400: s.ErrorOut, 401: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut}
CONFLICT = {409: TournamentConflictOut}
