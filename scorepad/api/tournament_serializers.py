"""Input and output shapes of the tournament API (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.money import CURRENCY_EXPONENTS
from scorepad import games
from scorepad.fields import (
    NAME_PATTERN,
    CategoryField,
    NameField,
    RulesSpecField,
    SessionDateField,
    Shape,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    _ServiceChecked,
    money_schema,
    utc_datetime,
)
from scorepad.ids import ID_MAX
from scorepad.models import Tournament
from scorepad.services import STAKE_DIGITS
from scorepad.tournaments import formats
from scorepad.tournaments.ranking import TIEBREAKS
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


#: ``combined`` scoring needs its ``rank_points``.
RANK_POINTS_NEEDED = {"anyOf": [
    {"properties": {"scoring": {"type": "string", "pattern": "^(placement|score)$"}}},
    {"required": ["rank_points"]},
]}
#: A currency given without a stake is the entry fee's: a known code all the same.
CURRENCY_KNOWN = {"properties": {"currency": {
    "pattern": "^(" + "|".join(sorted(CURRENCY_EXPONENTS)) + ")$"}}}

RANK_POINTS_SCHEMA = {
    "type": "array", "minItems": 1, "maxItems": formats.RANK_PLACES,
    "items": {"type": "number", "minimum": 0, "maximum": formats.RANK_POINTS_MOST},
    "example": [60, 40, 20, 0]}
TIEBREAKS_SCHEMA = {"type": "array", "maxItems": len(TIEBREAKS), "uniqueItems": True,
                    "items": {"type": "string", "enum": list(TIEBREAKS)},
                    "example": ["score", "wins"]}
MONEY_SCHEMA = {"type": "string", "pattern": formats.MONEY_PATTERN, "example": "5.00"}
_PLACE = {"type": "integer", "minimum": 1, "maximum": formats.PRIZE_PLACE_MOST}
PRIZE_SCHEMA = {"oneOf": [
    {"type": "object", "additionalProperties": False, "required": ["place", "percent"],
     "properties": {"place": _PLACE, "percent": {"type": "number", "exclusiveMinimum": True,
                                                 "minimum": 0, "maximum": 100}}},
    {"type": "object", "additionalProperties": False, "required": ["place", "amount"],
     "properties": {"place": _PLACE, "amount": MONEY_SCHEMA}},
    {"type": "object", "additionalProperties": False, "required": ["place", "item"],
     "properties": {"place": _PLACE, "item": {"type": "string", "minLength": 1,
                                              "maxLength": formats.ITEM_MAX,
                                              "pattern": NAME_PATTERN}}},
]}
PRIZES_SCHEMA = {"type": "array", "maxItems": formats.PRIZE_PLACE_MOST, "items": PRIZE_SCHEMA,
                 "example": [{"place": 1, "percent": 50}, {"place": 2, "amount": "20.00"},
                             {"place": 3, "item": "Geschenkkorb"}]}


@extend_schema_field({"type": "number"})
class NumberOut(_ServiceChecked):
    """A number as kept: a whole one stays an integer (60, not 60.0)."""


@extend_schema_field(RANK_POINTS_SCHEMA)
class RankPointsField(_ServiceChecked):
    """``combined`` scoring's points per place at a table (``formats.clean_rank_points``)."""


@extend_schema_field(TIEBREAKS_SCHEMA)
class TiebreaksField(_ServiceChecked):
    """The tie-breaks after points, in order (``formats.clean_tiebreaks``)."""


@extend_schema_field({**MONEY_SCHEMA, "nullable": True})
class FeeField(_ServiceChecked):
    """The entry fee, a decimal string (``formats.clean_fee``); null: none."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


@extend_schema_field(PRIZES_SCHEMA)
class PrizesField(_ServiceChecked):
    """The prize list (``formats.clean_prizes``)."""


FORMAT_HELP = ("optional (docs/tournaments.md, \"Tournament formats\"); changed by PATCH only "
               "while the tournament is registering")


class Formats(Shape):
    """The format fields, each optional on POST and PATCH."""

    rank_points = RankPointsField(help_text="combined scoring: the points of place k at a "
                                            "table are rank_points[k - 1] (0 beyond)")
    tiebreaks = TiebreaksField(help_text="compared after points, in order; default "
                                         "[\"score\", \"wins\"]")
    final_tables = StrictIntegerField(min_value=0, max_value=formats.FINAL_TABLES_MOST,
                                      required=False, help_text="tables of the final (0: none)")
    confirm_results = StrictBooleanField(required=False, help_text="a finished table counts "
                                         "once a seated player has confirmed its result")
    date = SessionDateField(help_text="the day it is played (default: the day it is made)")
    entry_fee = FeeField(help_text="what each player pays at the door, in currency")
    prizes = PrizesField(help_text="{place, percent | amount | item}, each place at most once")


class TournamentIn(Formats):
    schema_extra = {"allOf": [_by_game(), DEALS_NEEDED, RANK_POINTS_NEEDED, CURRENCY_KNOWN,
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


class TournamentPatchIn(Formats):
    schema_extra = {"minProperties": 1, "allOf": [CURRENCY_KNOWN]}

    status = serializers.ChoiceField([Tournament.Status.FINISHED], required=False)
    screen_hides_rounds = StrictIntegerField(min_value=0, max_value=MAX_ROUNDS,
                                             required=False)
    name = NameField(required=False)
    scoring = serializers.ChoiceField(Tournament.Scoring.values, required=False)
    currency = StrictCharField(required=False, allow_null=True, max_length=3)


class EntrantIn(Shape):
    name = NameField()
    category = CategoryField(help_text="sets the roster player's category (null: none)")


class EntrantPatchIn(Shape):
    name = NameField(help_text="the registered player to change")
    category = CategoryField(help_text="the roster player's category (null: none)")
    paid = StrictBooleanField(required=False, help_text="has paid the entry fee")


class EntrantOut(Shape):
    name = serializers.CharField()
    number = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    category = serializers.CharField(allow_null=True)
    paid = serializers.BooleanField()
    lot = serializers.IntegerField(allow_null=True, required=False,
                                   help_text="the draw by lot (1 = best), where the "
                                             "tournament draws lots; null until round 1")

    def to_representation(self, instance: Any) -> Any:
        out = super().to_representation(instance)
        if "lot" not in instance:
            out.pop("lot", None)
        return out


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
    confirmed_by = serializers.CharField(
        allow_null=True, help_text="the seated player who confirmed the finished table's "
        "result (for a score slip: who entered it); null while unconfirmed")


class RoundOut(Shape):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(["open", "closed"])
    forced = serializers.BooleanField(help_text="closed with unfinished tables")
    final = serializers.BooleanField(help_text="the final, drawn after the last round")
    tables = TableOut(many=True)


class PrizeOut(Shape):
    place = serializers.IntegerField()
    amount = serializers.CharField(required=False, help_text="a money prize: what it pays "
                                   "now (a percent of the pot rounded down to the cent)")
    percent = serializers.CharField(required=False, help_text="a share of the pot, in percent")
    item = serializers.CharField(required=False, help_text="a prize in kind")

    def to_representation(self, instance: Any) -> Any:
        out = super().to_representation(instance)
        return {k: v for k, v in out.items() if k in instance}


class NamedPrizeOut(PrizeOut):
    name = serializers.CharField(allow_null=True, help_text="who wins it; null while the "
                                 "tournament is not finished, or nobody has that place")


class PrizesOut(Shape):
    entry_fee = serializers.CharField(allow_null=True)
    currency = serializers.CharField(allow_null=True)
    paid_players = serializers.IntegerField()
    pot = serializers.CharField(help_text="entry_fee × paid_players")
    prizes = NamedPrizeOut(many=True)
    pot_remainder = serializers.CharField(help_text="the pot less every money prize that "
                                          "goes to somebody (may be negative)")


class PrizeListOut(Shape):
    """A prize as the tournament keeps it: its place and one of percent, amount, item."""

    place = serializers.IntegerField()
    percent = NumberOut(required=False)
    amount = serializers.CharField(required=False)
    item = serializers.CharField(required=False)

    def to_representation(self, instance: Any) -> Any:
        out = super().to_representation(instance)
        return {k: v for k, v in out.items() if k in instance}


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
    rank_points = serializers.ListField(child=NumberOut())
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(list(TIEBREAKS)))
    final_tables = serializers.IntegerField()
    confirm_results = serializers.BooleanField()
    date = serializers.DateField()
    entry_fee = serializers.CharField(allow_null=True)
    prizes = PrizeListOut(many=True)
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
    final_table = serializers.IntegerField(allow_null=True, help_text="the player's table "
                                           "in the closed final; null outside it")
    final_place = serializers.IntegerField(allow_null=True, help_text="the player's place "
                                           "at that table; null outside the final")
    lot = serializers.IntegerField(allow_null=True, required=False,
                                   help_text="the draw by lot (1 = best), where the "
                                             "tournament draws lots")
    prize = PrizeOut(allow_null=True, help_text="what this position wins now")
    category = serializers.CharField(allow_null=True)
    withdrawn = serializers.BooleanField()

    def to_representation(self, instance: Any) -> Any:
        out = super().to_representation(instance)
        if "lot" not in instance:
            out.pop("lot", None)
        return out


class RankingOut(Shape):
    rounds_closed = serializers.IntegerField()
    ranking = RankingLineOut(many=True)


class TournamentConflictOut(Shape):
    detail = serializers.CharField()
    reason = serializers.CharField()
    tables = serializers.ListField(child=serializers.IntegerField(), required=False,
                                   help_text="the unfinished tables (closing a round)")
    unconfirmed = serializers.ListField(
        child=serializers.IntegerField(), required=False,
        help_text="the finished tables whose result nobody seated there has confirmed "
                  "(closing a round of a tournament that confirms results)")


class ConfirmIn(Shape):
    player = NameField(help_text="a player seated at the table")


class ConfirmOut(Shape):
    confirmed_by = serializers.CharField(allow_null=True, help_text="the seated player who "
                                         "confirmed (a score slip: who entered it)")
    at = utc_datetime(allow_null=True)


ERRORS = {400: s.ErrorOut, 401: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut}
CONFLICT = {409: TournamentConflictOut}
