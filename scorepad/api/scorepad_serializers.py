"""Input and output shapes of the scorepad API (README.md, "The scorepad API"): accounts,
groups, sessions, deals, scoreboards, history, money, statistics, export and import.

Inputs are strict (``scorepad.fields``). Every answer is rendered through its output
serializer, so the OpenAPI schema says what really comes back. What differs between
games comes from the games' modules: one serializer per game, offered to the schema as
a ``oneOf`` (``PolymorphicProxySerializer``; discriminated by ``game`` where the answer
names it), and picked by the view for the session at hand (``for_game``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from scorepad import games
from scorepad.fields import (
    PASSWORD_MIN,
    NameField,
    RulesSpecField,
    SessionDateField,
    SessionNameField,
    SessionNoteField,
    Shape,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
    UsernameField,
    money_schema,
    utc_datetime,
)
from scorepad.ids import ID_MAX
from scorepad.models import Membership, Session
from scorepad.services import STAKE_DIGITS

from . import referee_serializers as s

Serializer = serializers.Serializer  # type: ignore[type-arg]

ERRORS_4XX = {
    400: s.ErrorOut,
    401: s.ErrorOut,
    403: s.ErrorOut,
    404: s.ErrorOut,
}


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def _per_game(suffix: str, fields: Callable[[games.Game], dict[str, Any]],
              doc: str = "") -> dict[str, type[Serializer]]:
    """One serializer class per game (``<Game><suffix>``, the game's name in CamelCase)."""
    return {
        game.NAME: type(f"{_camel(game.NAME)}{suffix}", (Shape,),
                        {**fields(game), "__doc__": doc or None,
                         "__module__": __name__})
        for game in games.REGISTRY
    }


def _game_name(game: games.Game) -> serializers.CharField:
    """The ``game`` of an answer that names it: in the schema this game's name alone, so
    that exactly one shape of a ``oneOf`` takes an answer (with a plain string every shape
    that the answer fits took it, and a oneOf then matches none). A pattern, not a
    one-value enum: drf-spectacular names every enum component after its field, and four
    choice sets called "game" collide."""
    field = extend_schema_field({"type": "string", "pattern": f"^{game.NAME}$",
                                 "example": game.NAME})(
        type(f"{_camel(game.NAME)}Name", (serializers.CharField,), {"__module__": __name__}))
    return field()  # type: ignore[no-any-return]


def one_of(component: str, per_game: dict[str, type[Serializer]], *,
           by_game: bool = False, many: bool = False) -> PolymorphicProxySerializer:
    """The schema of an answer that takes one shape per game: ``oneOf`` them, with
    ``game`` as the discriminator where the answer names its game."""
    return PolymorphicProxySerializer(
        component_name=component,
        serializers=per_game if by_game else list(per_game.values()),
        resource_type_field_name="game" if by_game else None,
        many=many,
    )


def bodies_required(result: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
    """A schema postprocessing hook: every request body is required (no body is read as
    ``{}``, which no input shape with a required field or ``minProperties`` takes)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                operation["requestBody"]["required"] = True
    return result


# --- accounts -------------------------------------------------------------------------------


class RegisterIn(Shape):
    username = UsernameField()
    password = StrictCharField(min_length=PASSWORD_MIN, max_length=128, trim_whitespace=False)


class UserOut(Shape):
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenIn(Shape):
    username = UsernameField()
    password = StrictCharField(min_length=1, max_length=128, trim_whitespace=False)


class TokenOut(Shape):
    token = serializers.CharField()


class PasswordIn(Shape):
    old_password = StrictCharField(min_length=1, max_length=128, trim_whitespace=False)
    new_password = StrictCharField(min_length=PASSWORD_MIN, max_length=128,
                                   trim_whitespace=False)


class NewTokenOut(Shape):
    token = serializers.CharField(help_text="the account's new API token (the old one "
                                            "no longer works)")


# --- groups, rosters, members ----------------------------------------------------------------


class GroupIn(Shape):
    name = NameField()


class GroupOut(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField()


class PlayerIn(Shape):
    name = NameField()


class PlayerPatchIn(Shape):
    name = NameField(required=False, help_text="a new name (editors and owners)")
    user = UsernameField(
        required=False, allow_null=True,
        help_text="the account behind the player: \"me\" (yourself), a member's username "
                  "(editors and owners), or null to unlink. Viewers may link only "
                  "themselves to an unlinked player and unlink only themselves.")

    schema_extra = {"minProperties": 1}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError(_("give a new name, a user, or both"))
        return attrs


class PlayerOut(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()
    user = serializers.CharField(allow_null=True,
                                 help_text="the linked account's username, if any")


class MemberIn(Shape):
    username = UsernameField()
    role = serializers.ChoiceField(Membership.Role.values, required=False)


class MemberOut(Shape):
    username = serializers.CharField()
    role = serializers.CharField()


class GroupRef(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()


class InvitationOut(Shape):
    id = serializers.IntegerField()
    group = GroupRef()
    username = serializers.CharField(help_text="the invited account")
    role = serializers.CharField()
    invited_by = serializers.CharField(allow_null=True,
                                       help_text="the owner who invited (null: account gone)")
    expires = serializers.DateTimeField(help_text="pending until then (7 days)")


class InvitationSentOut(Shape):
    invitation = InvitationOut()


class MembershipOut(Shape):
    group = GroupRef()
    username = serializers.CharField()
    role = serializers.CharField()


# --- sessions ------------------------------------------------------------------------------


def _seats_by_game() -> dict[str, Any]:
    """Each game's rules, and how many seats it takes (its default rules say; the
    service checks them)."""
    options = []
    for game in games.REGISTRY:
        frozen = game.rules(None, None)
        named = {"properties": {"game": {"type": "string", "pattern": f"^{game.NAME}$"}},
                 "required": ["game"]}
        if game.NAME == games.DEFAULT:  # the game of a session that names none
            named = {"anyOf": [named, {"not": {"required": ["game"]}}]}
        options.append({"allOf": [named, {"properties": {
            "seats": {"minItems": frozen.fewest, "maxItems": frozen.most},
            "rules": game.RULES_SCHEMA}}]})
    return {"oneOf": options}


NAME_HELP = ("what the table calls the evening; blanks are folded, \"\" or null: no name")
DATE_HELP = "the evening's day (default: the day the session was started, local time)"
NOTE_HELP = "anything to remember about the evening, several lines; \"\" or null: none"


class SessionIn(Shape):
    schema_extra = {"allOf": [_seats_by_game(), money_schema(digits=STAKE_DIGITS, optional=True)]}

    group = StrictIntegerField(min_value=1, max_value=ID_MAX)
    game = serializers.ChoiceField(games.choices(), default=games.DEFAULT)
    rules = RulesSpecField(required=False, default="salzburg")
    seats = UniqueNamesField(min_length=1)
    dealer = NameField(required=False, allow_null=True)
    stake = StrictCharField(required=False, allow_null=True, max_length=40)
    currency = StrictCharField(required=False, allow_null=True, max_length=3)
    name = SessionNameField(allow_null=True, help_text=NAME_HELP)
    date = SessionDateField(allow_null=True, help_text=DATE_HELP)
    note = SessionNoteField(allow_null=True, help_text=NOTE_HELP)


class SessionPatchIn(Shape):
    """Any of a session's status, name, date and note: the ones given change."""

    schema_extra = {"minProperties": 1}

    status = serializers.ChoiceField(Session.Status.values, required=False)
    name = SessionNameField(allow_null=True, help_text=NAME_HELP)
    date = SessionDateField(help_text=DATE_HELP)
    note = SessionNoteField(allow_null=True, help_text=NOTE_HELP)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError(_("give a status, a name, a date or a note"))
        return attrs


def _session_fields(game: games.Game) -> dict[str, Any]:
    return {
        "id": serializers.IntegerField(),
        "group": serializers.IntegerField(),
        "game": _game_name(game),
        "preset": serializers.CharField(),
        "rules": serializers.DictField(),
        "seats": serializers.ListField(child=serializers.CharField()),
        "first_dealer": serializers.CharField(),
        "status": serializers.CharField(),
        "name": serializers.CharField(allow_blank=True, help_text="\"\": no name"),
        "date": serializers.DateField(help_text="the evening's day"),
        "note": serializers.CharField(allow_blank=True, help_text="\"\": no note"),
        "created_at": utc_datetime(),
        "closed_at": utc_datetime(allow_null=True),
        "scoreboard": game.BOARD_OUT(),
    }


SESSION_OUT = _per_game("SessionOut", _session_fields)
SESSION = one_of("Session", SESSION_OUT, by_game=True)
SESSIONS = one_of("Session", SESSION_OUT, by_game=True, many=True)


# --- deals ---------------------------------------------------------------------------------

#: What a deal POST and PUT take besides the deal: the number (POST) or version (PUT) the
#: client believes it writes.
NUMBER = StrictIntegerField(required=False, min_value=1, max_value=1_000_000,
                            help_text="the deal number you believe you record (409 if not)")
VERSION = StrictIntegerField(required=False, min_value=1,
                             help_text="the version you read (409 if it changed since)")

DEAL_POST = one_of("SessionDeal", {
    game.NAME: type(f"{_camel(game.NAME)}DealPost", (game.DEAL_IN,),
                    {"number": NUMBER, "__module__": __name__})
    for game in games.REGISTRY})
DEAL_PUT = one_of("SessionDealCorrection", {
    game.NAME: type(f"{_camel(game.NAME)}DealPut", (game.DEAL_IN,),
                    {"version": VERSION, "__module__": __name__})
    for game in games.REGISTRY})

DEAL = one_of("SessionDealOut", {g.NAME: g.DEAL_OUT for g in games.REGISTRY})
DEALS = one_of("SessionDealOut", {g.NAME: g.DEAL_OUT for g in games.REGISTRY}, many=True)

DEAL_RECORDED_OUT = _per_game("DealRecordedOut", lambda g: {
    "deal": g.DEAL_OUT(), "scoreboard": g.BOARD_OUT()})
DELETED_OUT = _per_game("DeletedOut", lambda g: {"scoreboard": g.BOARD_OUT()})
CONFLICT_OUT = _per_game("ConflictOut", lambda g: {
    "detail": serializers.CharField(), "reason": serializers.CharField(),
    "scoreboard": g.BOARD_OUT()})
BOARD_OUT = {g.NAME: g.BOARD_OUT for g in games.REGISTRY}
BOARD = one_of("Scoreboard", BOARD_OUT)


class DealViolationsOut(s.ViolationsOut):
    number = serializers.IntegerField(allow_null=True,
                                      help_text="the deal that breaks a rule (a later one "
                                                "when a correction or removal would)")


VIOLATIONS_422 = OpenApiResponse(DealViolationsOut, description="the deal breaks a rule")
CONFLICT_409 = OpenApiResponse(one_of("Conflict", CONFLICT_OUT),
                               description="somebody else changed it first")


class EventOut(Shape):
    deal_number = serializers.IntegerField()
    action = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    imported = serializers.BooleanField()
    at = utc_datetime()
    before = serializers.DictField(allow_null=True)
    after = serializers.DictField(allow_null=True)


class WatchLinkOut(Shape):
    token = serializers.CharField()
    url = serializers.CharField()


def _settlement_fields(game: games.Game) -> dict[str, Any]:
    return {
        "game": _game_name(game),
        "stake": serializers.CharField(allow_null=True),
        "currency": serializers.CharField(allow_null=True),
        **game.SETTLEMENT_DETAILS_OUT._declared_fields,
        "balances": serializers.DictField(child=serializers.CharField()),
        "pairs": s.TransferOut(many=True),
        "transfers": s.TransferOut(many=True),
    }


SETTLEMENT_OUT = _per_game("SettlementOut", _settlement_fields)
SETTLEMENT = one_of("Settlement", SETTLEMENT_OUT, by_game=True)


@dataclass(frozen=True)
class GameShapes:
    """The output serializers of one game's sessions."""

    session: type[Serializer]
    board: type[Serializer]
    deal: type[Serializer]
    recorded: type[Serializer]
    deleted: type[Serializer]
    conflict: type[Serializer]
    settlement: type[Serializer]


SHAPES = {
    g.NAME: GameShapes(SESSION_OUT[g.NAME], g.BOARD_OUT, g.DEAL_OUT, DEAL_RECORDED_OUT[g.NAME],
                       DELETED_OUT[g.NAME], CONFLICT_OUT[g.NAME], SETTLEMENT_OUT[g.NAME])
    for g in games.REGISTRY
}


def for_game(game: games.Game) -> GameShapes:
    return SHAPES[game.NAME]


# --- statistics ------------------------------------------------------------------------------


class IdNameOut(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()


def _figures_fields() -> dict[str, Any]:
    from scorepad.stats import CONTRACT

    return {
        **{name: serializers.IntegerField() for name in CONTRACT},
        **{g.STATS_KEY: g.STATS_OUT() for g in games.REGISTRY},
        "money": serializers.DictField(child=serializers.CharField(),
                                       help_text="Net balance per currency, as decimal "
                                                 "strings"),
        "__module__": __name__,
    }


FiguresOut: type[Serializer] = type("FiguresOut", (Shape,), _figures_fields())


class GroupFiguresOut(FiguresOut):  # type: ignore[valid-type,misc]
    group = IdNameOut()
    player = IdNameOut()


class PersonStatsOut(FiguresOut):  # type: ignore[valid-type,misc]
    groups = GroupFiguresOut(many=True, help_text="The same figures of each linked player, "
                                                  "in their group")


class PlayerRefOut(IdNameOut):
    group = serializers.IntegerField()


class PlayerStatsOut(FiguresOut):  # type: ignore[valid-type,misc]
    player = PlayerRefOut()
    across_groups = PersonStatsOut(
        required=False,
        help_text="Only when the player is linked to your own account: your figures over "
                  "every group you are a member of (as GET /api/v1/me/stats).")


class RatingOut(Shape):
    player = serializers.CharField(help_text="the player's name on the group's roster")
    player_id = serializers.IntegerField()
    rating = serializers.FloatField(help_text="μ − 3σ, two places: 0 before any game")
    games = serializers.IntegerField(help_text="finished games rated in the season")
    trend = serializers.FloatField(help_text="the rating's change over the player's last "
                                             "five games (positive: rising)")
    mu = serializers.FloatField(help_text="the model's estimate of the player's skill")
    sigma = serializers.FloatField(help_text="its uncertainty")


class RatingsOut(Shape):
    game = serializers.CharField(help_text="the game family")
    model = serializers.CharField(help_text="the library and model used")
    since = serializers.DateField(allow_null=True,
                                  help_text="the season's first day; null: all time")
    games = serializers.IntegerField(help_text="finished games rated")
    ratings = RatingOut(many=True)


# --- export and import -------------------------------------------------------------------------


class ProblemOut(Shape):
    path = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class ImportRejectedOut(Shape):
    detail = serializers.CharField()
    problems = ProblemOut(many=True, required=False,
                          help_text="every problem of the file, with its place in it")


class SessionImportIn(Shape):
    group = StrictIntegerField(min_value=1, max_value=ID_MAX, help_text="the group to import into")
    data = serializers.DictField(help_text="a session export file, as GET …/export gives it")


@extend_schema_field(SESSIONS)
class RenderedSessionsField(serializers.ListField):
    """Sessions already rendered by their game's ``SessionOut`` (``session_out``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.DictField(), **kwargs)


class GroupImportOut(Shape):
    group = serializers.IntegerField()
    sessions = RenderedSessionsField(help_text="the sessions made, as GET /sessions/{id}/")
