"""Input and output shapes of the scorepad API (docs/api.md, "The scorepad API"): accounts,
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
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from scorepad import games
from scorepad.fields import (
    CategoryField,
    NameField,
    NewPasswordField,
    RulesSpecField,
    SessionDateField,
    SessionNameField,
    SessionNoteField,
    Shape,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
    UsernameField,
    forget_fields,
    money_schema,
    utc_datetime,
)
from scorepad.ids import ID_MAX
from scorepad.models import Membership, Session
from scorepad.services import STAKE_DIGITS

from . import referee_serializers as s

Serializer = serializers.Serializer  # type: ignore[type-arg]

# Shapes made from the registry (SessionIn, FiguresOut) are made again when it changes.
games.when_changed(forget_fields)

ERRORS_4XX = {
    400: s.ErrorOut,
    401: s.ErrorOut,
    403: s.ErrorOut,
    404: s.ErrorOut,
}


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def _shape(name: str, fields: dict[str, Any], doc: str = "") -> type[Serializer]:
    """A serializer class made here (``name``: the component the schema calls it)."""
    return type(name, (Shape,), {**fields, "__doc__": doc or None, "__module__": __name__})


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


class PerGame(PolymorphicProxySerializer):
    """The schema of an answer that takes one shape per game: ``oneOf`` the shapes of
    the registry's games as they are when the schema is made (``serializers``, a function,
    is asked every time, not once)."""

    @property  # type: ignore[override]
    def serializers(self) -> Any:
        value = self._serializers
        return value() if callable(value) else value

    @serializers.setter
    def serializers(self, value: Any) -> None:
        self._serializers = value


class PerGameSchema(PolymorphicProxySerializerExtension):  # type: ignore[no-untyped-call]
    """PerGame in the schema, as drf-spectacular's own oneOf (which it only finds for its
    own class)."""

    target_class = PerGame


def one_of(component: str, per_game: Callable[[], dict[str, type[Serializer]]], *,
           by_game: bool = False, many: bool = False) -> PolymorphicProxySerializer:
    """``oneOf`` each game's shape (``per_game``: name → serializer), with ``game`` as the
    discriminator where the answer names its game."""
    return PerGame(
        component_name=component,
        serializers=per_game if by_game else lambda: list(per_game().values()),
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
    password = NewPasswordField()


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
    new_password = NewPasswordField()


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
    category = CategoryField(help_text="a ranking of its own in tournaments (\"Damen\", "
                             "\"Jugend\"), 1–20 characters; null: none (editors and owners)")

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
    category = serializers.CharField(allow_null=True, help_text="null: none")


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
    for game in games.registered():
        frozen = game.rules(None, None)
        named = {"properties": {"game": {"type": "string", "pattern": f"^{game.NAME}$"}},
                 "required": ["game"]}
        if games.default() == game.NAME:  # the game of a session that names none
            named = {"anyOf": [named, {"not": {"required": ["game"]}}]}
        options.append({"allOf": [named, {"properties": {
            "seats": {"minItems": frozen.fewest, "maxItems": frozen.most},
            "rules": game.RULES_SCHEMA}}]})
    return {"oneOf": options}


NAME_HELP = ("what the table calls the evening; blanks are folded, \"\" or null: no name")
DATE_HELP = "the evening's day (default: the day the session was started, local time)"
NOTE_HELP = "anything to remember about the evening, several lines; \"\" or null: none"


class SessionIn(Shape):
    # No ``game``: the registry's first; no ``rules``: the game's default rules.

    group = StrictIntegerField(min_value=1, max_value=ID_MAX)
    game = serializers.ChoiceField([])  # the registry's games (get_fields)
    rules = RulesSpecField(required=False)
    seats = UniqueNamesField(min_length=1)
    dealer = NameField(required=False, allow_null=True)
    stake = StrictCharField(required=False, allow_null=True, max_length=40)
    currency = StrictCharField(required=False, allow_null=True, max_length=3)
    name = SessionNameField(allow_null=True, help_text=NAME_HELP)
    date = SessionDateField(allow_null=True, help_text=DATE_HELP)
    note = SessionNoteField(allow_null=True, help_text=NOTE_HELP)

    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = super().get_fields()
        fields["game"] = serializers.ChoiceField(games.choices(), default=games.default())
        return fields

    def schema_extras(self) -> dict[str, Any]:
        return {"allOf": [_seats_by_game(), money_schema(digits=STAKE_DIGITS, optional=True)]}


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


# --- deals ---------------------------------------------------------------------------------

#: What a deal POST and PUT take besides the deal: the number (POST) or version (PUT) the
#: client believes it writes.
NUMBER = StrictIntegerField(required=False, min_value=1, max_value=1_000_000,
                            help_text="the deal number you believe you record (409 if not)")
VERSION = StrictIntegerField(required=False, min_value=1,
                             help_text="the version you read (409 if it changed since)")

class DealViolationsOut(s.ViolationsOut):
    number = serializers.IntegerField(allow_null=True,
                                      help_text="the deal that breaks a rule (a later one "
                                                "when a correction or removal would)")


VIOLATIONS_422 = OpenApiResponse(DealViolationsOut, description="the deal breaks a rule")


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


@dataclass(frozen=True)
class GameShapes:
    """The serializers of one game's sessions: what a deal POST and PUT take, and the
    answers."""

    session: type[Serializer]
    board: type[Serializer]
    deal: type[Serializer]
    recorded: type[Serializer]
    deleted: type[Serializer]
    conflict: type[Serializer]
    settlement: type[Serializer]
    deal_post: type[Serializer]
    deal_put: type[Serializer]


@games.derived
def shapes() -> dict[str, GameShapes]:
    """Every game's shapes, made from the registry (named ``<Game><Suffix>``, the game's
    name in CamelCase)."""
    out = {}
    for g in games.registered():
        camel = _camel(g.NAME)
        out[g.NAME] = GameShapes(
            session=_shape(f"{camel}SessionOut", _session_fields(g)),
            board=g.BOARD_OUT,
            deal=g.DEAL_OUT,
            recorded=_shape(f"{camel}DealRecordedOut", {
                "deal": g.DEAL_OUT(), "scoreboard": g.BOARD_OUT()}),
            deleted=_shape(f"{camel}DeletedOut", {"scoreboard": g.BOARD_OUT()}),
            conflict=_shape(f"{camel}ConflictOut", {
                "detail": serializers.CharField(), "reason": serializers.CharField(),
                "scoreboard": g.BOARD_OUT()}),
            settlement=_shape(f"{camel}SettlementOut", _settlement_fields(g)),
            deal_post=type(f"{camel}DealPost", (g.DEAL_IN,),
                           {"number": NUMBER, "__module__": __name__}),
            deal_put=type(f"{camel}DealPut", (g.DEAL_IN,),
                          {"version": VERSION, "__module__": __name__}),
        )
    return out


def for_game(game: games.Game) -> GameShapes:
    return shapes()[game.NAME]


def _each(shape: str) -> Callable[[], dict[str, type[Serializer]]]:
    """Every game's ``shape`` (a field of GameShapes), by game."""
    return lambda: {name: getattr(of_game, shape) for name, of_game in shapes().items()}


#: The answers (and inputs) that take one shape per game, for the schema.
SESSION = one_of("Session", _each("session"), by_game=True)
SESSIONS = one_of("Session", _each("session"), by_game=True, many=True)
DEAL_POST = one_of("SessionDeal", _each("deal_post"))
DEAL_PUT = one_of("SessionDealCorrection", _each("deal_put"))
DEAL = one_of("SessionDealOut", _each("deal"))
DEALS = one_of("SessionDealOut", _each("deal"), many=True)
DEAL_RECORDED = one_of("DealRecorded", _each("recorded"))
DEAL_DELETED = one_of("DealDeleted", _each("deleted"))
BOARD = one_of("Scoreboard", _each("board"))
SETTLEMENT = one_of("Settlement", _each("settlement"), by_game=True)
CONFLICT_409 = OpenApiResponse(one_of("Conflict", _each("conflict")),
                               description="somebody else changed it first")


# --- statistics ------------------------------------------------------------------------------


class IdNameOut(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()


class FiguresOut(Shape):
    # A player's figures: the top-level names every game adds to (``stats.contract``),
    # each game's own under its ``STATS_KEY``, and the money (no docstring: the schema
    # would print it).

    money = serializers.DictField(child=serializers.CharField(),
                                  help_text="Net balance per currency, as decimal strings")

    def get_fields(self) -> dict[str, Any]:
        from scorepad.stats import contract

        return {**{name: serializers.IntegerField() for name in contract()},
                **{g.STATS_KEY: g.STATS_OUT() for g in games.registered()},
                **super().get_fields()}


class GroupFiguresOut(FiguresOut):
    group = IdNameOut()
    player = IdNameOut()


class PersonStatsOut(FiguresOut):
    groups = GroupFiguresOut(many=True, help_text="The same figures of each linked player, "
                                                  "in their group")


class PlayerRefOut(IdNameOut):
    group = serializers.IntegerField()


class PlayerStatsOut(FiguresOut):
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
