"""Mulatschak and its variants (Muli, Murln; docs/rules.md, "Mulatschak"): scores count down
from the start score, multipliers for hearts, collapses and knocks, one game after the other.

A deal is the referee's ``deal`` object (``kind``, ``declarer``, ``bid``, ``trump``,
``stayed_home``, ``tricks``, ...). The state of a session is referee.session's
SessionState as JSON; each stored deal's result is the referee's DealOutcome as JSON.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee import tally
from referee.deal import MULI, DealResult, deal_from_dict, deal_to_dict, score_deal
from referee.exchange import Form, exchange_from_dict, exchange_to_dict
from referee.money import transfer_plan
from referee.rules import PRESETS, MulatschakRules, mulatschak_rules
from referee.session import (
    DealOutcome,
    GameSummary,
    IllegalDeal,
    SessionState,
    next_sitting_out,
    pending_multiplier,
    replay,
    table_for,
)
from referee.session import apply as session_apply
from referee.session import start as session_start
from referee.violations import RuleError

from ...cardnames import SUITS, TRUMP_NAMES
from ...charts import as_figure
from ...errors import InputError, RulesBroken
from ...fields import (
    MAX_PLAYERS,
    AsStored,
    CallField,
    CountsField,
    NameField,
    Shape,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    UniqueNamesField,
    utc_datetime,
)
from ...ids import parse_count
from ...loaded import Loaded, Names, SessionRecord
from ...messages import FACTOR_LABELS, input_error_message, reason_label, violation_message
from ..base import (
    RECENT_GAMES,
    Column,
    GameRules,
    Money,
    inferred,
    rate,
    stake_of,
    step,
    stepped_count,
)
from .scorer import scorer_data as scorer_data  # the registry reads them (games.Game)
from .scorer import scorer_texts as scorer_texts
from .shapes import MULATSCHAK_RULES_SCHEMA

if TYPE_CHECKING:
    from ...models import Deal, Session

NAME = "mulatschak"
TITLE = "Mulatschak"
RULES_SCHEMA = MULATSCHAK_RULES_SCHEMA
TRUMPS = TRUMP_NAMES
#: What each preset's players call a bid of five (docs/rules.md, "A deal in order", step 4).
MULI_NAMES = {"salzburg": "Muli", "geiser": "Mulatschak", "murln": "Murler"}
BID_KEYS = ("1", "2", "3", "4", "muli")


def session_rules(session: Session) -> MulatschakRules:
    """The rules frozen into the session when it started (checked once per process and
    set of rules: a deal asks for them twice, and checking ~40 parameters costs more
    than the referee's whole verdict)."""
    return _frozen(session.preset, json.dumps(session.rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _frozen(preset: str, rules: str) -> MulatschakRules:
    return mulatschak_rules(preset, json.loads(rules))


# --- the deal's shape (the referee API's deal object; the services check it with this) ------


class CallIn(Shape):
    player = NameField()
    call = CallField()


#: The largest count an exchange entry may carry (a talon has at most 26 cards).
MAX_EXCHANGE_COUNT = 99

_COUNT_SCHEMA = {"type": "integer", "minimum": 0, "maximum": MAX_EXCHANGE_COUNT}
_EXCHANGE_SCHEMA = {
    "type": "object",
    "description": (
        "One player's exchange by form (/rules/#exchange): plain (cards; face_up, face_up_kept for "
        "the declarer's chain on sight), on_sight (refused), ace_five, seven_six, bridge "
        "(face_up, default 1)."
    ),
    "properties": {
        "form": {"type": "string", "enum": [str(f) for f in Form]},
        "cards": _COUNT_SCHEMA,
        "face_up": _COUNT_SCHEMA,
        "face_up_kept": _COUNT_SCHEMA,
        "refused": {"type": "boolean"},
    },
    "required": ["form"],
    "additionalProperties": False,
}


@extend_schema_field(
    {"type": "object", "additionalProperties": _EXCHANGE_SCHEMA, "nullable": True,
     "maxProperties": MAX_PLAYERS}
)
class ExchangesField(serializers.Field):  # type: ignore[type-arg]
    """``{"Anna": {"form": "on_sight", "refused": true}, ...}`` → referee Exchanges.

    A malformed entry answers 400 naming its field (``deal.exchanges.Anna.form``)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(gettext_lazy("must be an object"))
        if len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(gettext_lazy("names too many players"))
        out: dict[str, Any] = {}
        for name, entry in data.items():
            try:
                NameField().run_validation(name)
            except serializers.ValidationError as e:
                raise serializers.ValidationError({name: e.detail}) from e
            try:
                out[name] = exchange_from_dict(entry, "entry", maximum=MAX_EXCHANGE_COUNT)
            except RuleError as e:
                detail: Any = [input_error_message(e)]
                for part in reversed(e.field.split(".")[1:]):
                    detail = {part: detail}
                raise serializers.ValidationError({name: detail}) from e
        return out

    def to_representation(self, value: Any) -> Any:
        return {name: exchange_to_dict(x) for name, x in value.items()}


#: What a deal that was not played leaves out (DealIn.validate).
NOT_PLAYED_NONE = ("declarer", "bid", "trump", "muli_breaker", "stayed_home", "tricks",
                   "exchanged", "exchanges", "trump_delayed")


class DealIn(Shape):
    schema_extra = {"oneOf": [
        {"properties": {"kind": {"type": "string", "pattern": "^played$"},
                        "declarer": {"type": "string"}, "bid": {"type": "integer"},
                        "trump": {"type": "string"}},
         "required": ["declarer", "bid", "trump"]},
        {"properties": {"kind": {"type": "string", "pattern": "^(collapsed|passed)$"}},
         "required": ["kind"],
         "not": {"anyOf": [{"required": [name]} for name in NOT_PLAYED_NONE]}},
    ]}

    kind = serializers.ChoiceField(["played", "collapsed", "passed"], default="played")
    knocked = StrictBooleanField(default=False)
    declarer = NameField(required=False, allow_null=True)
    bid = StrictIntegerField(required=False, allow_null=True, min_value=-99, max_value=99)
    trump = StrictCharField(required=False, allow_null=True, max_length=20)
    stayed_home = UniqueNamesField(required=False, default=list)
    tricks = CountsField(minimum=-99, required=False, default=dict)
    exchanged = CountsField(minimum=0, required=False, allow_null=True, default=None)
    muli_breaker = NameField(required=False, allow_null=True, default=None)
    auction = serializers.ListField(
        child=CallIn(), required=False, allow_null=True, default=None, max_length=60
    )
    exchanges = ExchangesField(required=False, allow_null=True, default=None)
    trump_delayed = StrictBooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == "played":
            missing = {
                name: [gettext_lazy("is required for a played deal")]
                for name in ("declarer", "bid", "trump")
                if attrs.get(name) is None
            }
            if missing:
                raise serializers.ValidationError(missing)
        else:
            extra = {
                name: [gettext_lazy("a deal that was not played has none")]
                for name in NOT_PLAYED_NONE
                if attrs.get(name)
            }
            if extra:
                raise serializers.ValidationError(extra)
        return attrs


class SessionDealIn(DealIn):
    """A deal of a session: as the referee's, without the bidding (not kept)."""

    schema_extra = {**DealIn.schema_extra, "not": {"required": ["auction"]}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs.get("auction"):
            raise serializers.ValidationError(
                {"auction": [gettext_lazy("is not kept by the scorepad; check it with the "
                                          "referee.")]}
            )
        return attrs


DEAL_KEYS = ("kind", "knocked", "declarer", "bid", "trump", "stayed_home", "tricks",
             "exchanged", "muli_breaker", "exchanges", "trump_delayed")


def parse_deal(data: object) -> dict[str, Any]:
    """The deal's fields, checked (InputError naming each bad field), names as given."""
    checked = SessionDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {k: v for k, v in checked.validated_data.items() if k in DEAL_KEYS}


# --- playing ---------------------------------------------------------------------------


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    frozen = mulatschak_rules(preset or "salzburg", overrides or {})
    return GameRules(frozen.name, frozen.as_params(), frozen.players_min, frozen.players_max)


def game_json(game: GameSummary) -> dict[str, Any]:
    return {"number": game.number, "final_scores": dict(game.final_scores),
            "winners": list(game.winners)}


def state_to_json(state: SessionState, before: Mapping[str, Any] | None = None
                  ) -> dict[str, Any]:
    """The state as stored: every finished game has a row of its own (FinishedGame); the
    state lists the most recent ``RECENT_GAMES`` and counts them all (``games_total``).
    ``before``: the stored state ``state`` was played on (its games only the new ones)."""
    finished = [game_json(g) for g in state.games]
    total = len(finished)
    if before is not None:
        total += int(before.get("games_total", 0))
        finished = list(before.get("games", [])) + finished
    return {
        "game_number": state.game_number,
        "scores": dict(state.scores),
        "dealer": state.dealer,
        "collapses": state.collapses,
        "previous_stayed_home": sorted(state.previous_stayed_home),
        "game_over": state.game_over,
        "winners": list(state.winners),
        "games": finished[-RECENT_GAMES:],
        "games_total": total,
        "deals": state.deals,
        "knocks": state.knocks,
    }


def state_from_json(data: Mapping[str, Any]) -> SessionState:
    """The referee's state of a stored one, without the finished games (the referee only
    appends to them; the new ones are what a deal adds)."""
    return SessionState(
        game_number=data["game_number"],
        scores=dict(data["scores"]),
        dealer=data["dealer"],
        collapses=data["collapses"],
        previous_stayed_home=frozenset(data["previous_stayed_home"]),
        game_over=data["game_over"],
        winners=tuple(data["winners"]),
        deals=data["deals"],
        knocks=data.get("knocks", 0),  # states stored before knocks carried over have none
    )


def outcome_to_json(outcome: DealOutcome) -> dict[str, Any]:
    r = outcome.result
    return {
        "dealer": outcome.dealer,
        "game_number": outcome.game_number,
        "scores_before": dict(outcome.scores_before),
        "collapses_before": outcome.collapses_before,
        "multiplier": r.multiplier,
        "factors": [str(f) for f in r.factors],
        "deltas": dict(r.deltas),
        "base": dict(r.base),
        "reasons": {p: str(v) for p, v in r.reasons.items()},
        "scores_after": dict(r.scores_after),
        "declarer_made": r.declarer_made,
        "game_over": r.game_over,
        "winners": list(r.winners),
        "knocks_before": outcome.knocks_before,
        "sitting_out": r.sitting_out,
    }


def _deal(data: Mapping[str, Any]) -> Any:
    """The referee's Deal; a shape it cannot read is an InputError naming the field."""
    try:
        return deal_from_dict(data)
    except RuleError as e:
        raise InputError.from_rule_error(e) from e


def start(session: Session, seats: Sequence[str]) -> dict[str, Any]:
    return state_to_json(session_start(session_rules(session), seats,
                                       str(session.first_dealer_id)))


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    return deal_to_dict(_deal(data))


def kind(data: Mapping[str, Any]) -> str:
    return str(data["kind"])


def apply(session: Session, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        outcome, new = session_apply(session_rules(session), seats, state_from_json(state),
                                     _deal(data))
    except IllegalDeal as e:
        raise RulesBroken(e.violations) from e
    return outcome_to_json(outcome), state_to_json(new, state)


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game a deal's result ended (its FinishedGame summary), if it ended one."""
    if not result.get("game_over"):
        return None
    return {"number": result["game_number"], "final_scores": dict(result["scores_after"]),
            "winners": list(result.get("winners", []))}


class Replayer:
    """Replays deals on the referee's own state (it collects every finished game),
    converting to JSON only at the end."""

    def __init__(self, session: Session, seats: Sequence[str]) -> None:
        self.rules, self.seats = session_rules(session), seats
        self._state = session_start(self.rules, seats, str(session.first_dealer_id))

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            outcome, self._state = session_apply(self.rules, self.seats, self._state,
                                                 _deal(data))
        except IllegalDeal as e:
            raise RulesBroken(e.violations) from e
        return outcome_to_json(outcome)

    def state(self) -> dict[str, Any]:
        return state_to_json(self._state)


def replayer(session: Session, seats: Sequence[str]) -> Replayer:
    return Replayer(session, seats)


def preview(loaded: Loaded, data: Mapping[str, Any], number: int | None = None) -> DealResult:
    """What the next deal would do (``data`` with player ids), or what deal ``number``
    would do if it were recorded like this where it stands; nothing is saved."""
    session = loaded.session
    frozen = session_rules(session)
    if number is None:
        state = state_from_json(session.state)
    else:
        deals = list(session.deals.filter(number__lt=number).order_by("number"))
        state = replay(frozen, loaded.seats, str(session.first_dealer_id),
                       [deal_from_dict(d.data) for d in deals]).state
    return score_deal(table_for(frozen, loaded.seats, state), _deal(data))


# --- the scoreboard and the money ----------------------------------------------------------

BALANCES_ALWAYS = False  # only with a stake


def board(session: Session, names: Names) -> dict[str, Any]:
    state = state_from_json(session.state)
    frozen = session_rules(session)
    multiplier, factors = pending_multiplier(frozen, state)
    order = names.seats
    out = next_sitting_out(frozen, order, state)
    return {
        "game_number": state.game_number,
        "scores": {names.to_name(p): state.scores[p] for p in order},
        "next_dealer": names.to_name(state.dealer),
        "next_sitting_out": None if out is None else names.to_name(out),
        "pending_multiplier": multiplier,
        "pending_factors": list(factors),
        "game_over": state.game_over,
        "winners": [names.to_name(p) for p in state.winners],
        "games": [
            {
                "number": g["number"],
                "final_scores": {names.to_name(p): g["final_scores"][p] for p in order},
                "winners": [names.to_name(p) for p in g["winners"]],
            }
            for g in session.state.get("games", [])  # the most recent (services pages them)
        ],
        "deals": state.deals,
    }


def money(session: Session, order: Sequence[str]) -> Money:
    """At each game's end every player pays the winner the difference of their scores
    times the stake (tied winners share it)."""
    stake, currency = stake_of(session), session.currency
    payments = [
        pay for g in all_finished_games(session)
        for pay in tally.game_payments(g["final_scores"], g["winners"], stake, currency)
    ]
    balances = tally.balances_of(payments, order, currency)
    return Money(balances, [{"from": a, "to": b, "amount": str(x)} for a, b, x in payments],
                 [t.as_dict() for t in transfer_plan(balances)])


def all_finished_games(session: Session) -> list[dict[str, Any]]:
    """Every game the session finished, oldest first: one query."""
    return list(session.finished_games.order_by("number").values_list("summary", flat=True))


def settlement_details(session: Session, names: Names) -> dict[str, Any]:
    return {"games": int(session.state.get("games_total", 0))}


# --- the API's output ----------------------------------------------------------------------


class MulatschakGameOut(Shape):
    number = serializers.IntegerField()
    final_scores = serializers.DictField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.CharField())


class MulatschakScoreboardOut(Shape):
    game_number = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField())
    next_dealer = serializers.CharField()
    next_sitting_out = serializers.CharField(
        allow_null=True, help_text="who sits out the next deal (sit_out_at, /rules/#sitting-out)")
    pending_multiplier = serializers.IntegerField(
        help_text="hearts aside: collapses and knocks carried over (/rules/#knocks-and-collapses)")
    pending_factors = serializers.ListField(child=serializers.CharField())
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    games = MulatschakGameOut(
        many=True, help_text="the finished games of one page (?games_page=, default 1: "
        "the most recent), oldest first")
    games_total = serializers.IntegerField(required=False,
                                           help_text="finished games in all pages")
    games_page = serializers.IntegerField(required=False, help_text="the page shown")
    games_pages = serializers.IntegerField(required=False, help_text="pages of games")
    deals = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(), required=False,
                                     help_text="with a stake only")


class ExchangeOut(AsStored):
    form = serializers.ChoiceField([str(f) for f in Form])
    cards = serializers.IntegerField(required=False)
    face_up = serializers.IntegerField(required=False)
    face_up_kept = serializers.IntegerField(required=False, allow_null=True)
    refused = serializers.BooleanField(required=False)


class MulatschakStoredDealOut(AsStored):
    kind = serializers.CharField()
    knocked = serializers.BooleanField()
    declarer = serializers.CharField(required=False)
    bid = serializers.IntegerField(required=False)
    trump = serializers.CharField(required=False)
    stayed_home = serializers.ListField(child=serializers.CharField(), required=False)
    tricks = serializers.DictField(child=serializers.IntegerField(), required=False)
    exchanged = serializers.DictField(child=serializers.IntegerField(), required=False,
                                      allow_null=True)
    muli_breaker = serializers.CharField(required=False, allow_null=True)
    exchanges = serializers.DictField(child=ExchangeOut(), required=False, allow_null=True,
                                      help_text="by form (/rules/#exchange); only where recorded")
    trump_delayed = serializers.BooleanField(required=False, help_text="only when true")


class MulatschakSessionDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField()
    deal = MulatschakStoredDealOut()
    dealer = serializers.CharField()
    game_number = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    factors = serializers.ListField(child=serializers.CharField())
    deltas = serializers.DictField(child=serializers.IntegerField())
    scores_after = serializers.DictField(child=serializers.IntegerField())
    reasons = serializers.DictField(child=serializers.CharField())
    declarer_made = serializers.BooleanField(allow_null=True)
    game_over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    sitting_out = serializers.CharField(
        allow_null=True, help_text="who sat this deal out (/rules/#sitting-out), or null")
    created_at = utc_datetime()
    updated_at = utc_datetime()


class MulatschakSettlementOut(Shape):
    games = serializers.IntegerField(required=False, help_text="games finished (with a stake)")


class BidStatsOut(Shape):
    declared = serializers.IntegerField()
    made = serializers.IntegerField()
    fallen = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True)


class MulatschakStatsOut(Shape):
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    deals_seated = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    deals_declared = serializers.IntegerField()
    deals_made = serializers.IntegerField()
    deals_fallen = serializers.IntegerField()
    made_rate = serializers.FloatField(allow_null=True)
    by_bid = serializers.DictField(child=BidStatsOut())
    muli_tried = serializers.IntegerField()
    muli_made = serializers.IntegerField()
    stayed_home = serializers.IntegerField()
    hearts_deals = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_deal = serializers.FloatField(allow_null=True)
    biggest_multiplier_survived = serializers.IntegerField(allow_null=True)
    biggest_multiplier_played = serializers.IntegerField(allow_null=True)


#: The API's shapes of a Mulatschak session (games.Game); its deal is the referee's.
DEAL_IN, BOARD_OUT, DEAL_OUT = SessionDealIn, MulatschakScoreboardOut, MulatschakSessionDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = MulatschakSettlementOut, MulatschakStatsOut


def deal_out(row: Deal, names: Names) -> dict[str, Any]:
    result = names.deal_names(row.result)
    return {
        "number": row.number,
        "version": row.version,
        "kind": row.kind,
        "deal": names.deal_names(row.data),
        "dealer": result.get("dealer"),
        "game_number": result.get("game_number"),
        "multiplier": result.get("multiplier"),
        "factors": result.get("factors", []),
        "deltas": result.get("deltas", {}),
        "scores_after": result.get("scores_after", {}),
        "reasons": result.get("reasons", {}),
        "declarer_made": result.get("declarer_made"),
        "game_over": result.get("game_over", False),
        "winners": result.get("winners", []),
        "sitting_out": result.get("sitting_out"),
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "mulatschak"
#: Its figures in the statistics tables (the group's, and one's own).
STATS_COLUMNS = (
    Column("games", gettext_lazy("Games"), tables=("group",)),
    Column("wins", gettext_lazy("Wins"), tables=("group",)),
    Column("win_rate", gettext_lazy("Win rate"), "rate"),
    Column("points_per_deal", gettext_lazy("Points per deal"), "number"),
    Column("made_rate", gettext_lazy("Bids made"), "rate"),
    Column("muli_made", gettext_lazy("Muli made"), tables=("group",)),
    Column("stayed_home", gettext_lazy("Stayed home"), tables=("group",)),
)
#: Its figures on the player pages (``s``: the player's figures, ``s.<STATS_KEY>`` its own).
FIGURES_TEMPLATE = f"scorepad/_figures_{NAME}.html"


def finished_games(record: SessionRecord) -> list[tuple[dict[str, int], list[str]]]:
    """(final scores, winners) of each game a deal ended."""
    return [
        (dict(d.result["scores_after"]), list(d.result.get("winners", [])))
        for d in record.deals
        if d.result.get("game_over")
    ]


def summary(record: SessionRecord) -> dict[str, Any]:
    games = finished_games(record)
    name = record.names.get
    return {"games": len(games),
            "winners": [", ".join(str(name(w, w)) for w in winners) for _, winners in games]}


def stats_empty() -> dict[str, Any]:
    """A player's figures before any session. ``deals_played`` counts played deals the
    player took part in (not staying home); ``stayed_home`` the played deals they stayed
    home from. ``points`` is the sum of the player's score changes (lower is better: scores
    count down to 0), and ``points_per_deal`` divides it by the played deals the player
    was seated at (played or stayed home). ``games`` are finished games (a deal ended them)
    at the player's table, ``wins`` the ones the player won (a tie shares the win). A bid
    of 5 is the Muli. ``hearts_deals``: played deals with hearts trump the player took
    part in. ``biggest_multiplier_survived``: the largest multiplier of a deal the player
    declared and made (null if never); ``biggest_multiplier_played``: the largest of any
    deal the player took part in."""
    return {
        "sessions": 0, "games": 0, "wins": 0, "deals_seated": 0, "deals_played": 0,
        "deals_declared": 0, "deals_made": 0, "muli_tried": 0, "muli_made": 0,
        "stayed_home": 0, "hearts_deals": 0, "points": 0,
        "biggest_multiplier_survived": None, "biggest_multiplier_played": None,
        "_bids": {k: {"declared": 0, "made": 0} for k in BID_KEYS},
    }


def stats_add(pid: str, record: SessionRecord, mul: dict[str, Any]) -> None:
    bids = mul["_bids"]
    mul["sessions"] += 1
    for d in record.deals:
        result = d.result
        if result.get("game_over"):
            mul["games"] += 1
            mul["wins"] += int(pid in result.get("winners", []))
        if d.kind != "played" or result.get("sitting_out") == pid:
            continue
        data = d.data
        mul["deals_seated"] += 1
        mul["points"] += int(result["deltas"].get(pid, 0))
        if pid in data.get("stayed_home", []):
            mul["stayed_home"] += 1
            continue
        multiplier = int(result.get("multiplier", 1))
        mul["deals_played"] += 1
        mul["hearts_deals"] += int(data.get("trump") == "hearts")
        mul["biggest_multiplier_played"] = max(mul["biggest_multiplier_played"] or 0,
                                               multiplier)
        if data.get("declarer") != pid:
            continue
        bid = int(data["bid"])
        made = bool(result.get("declarer_made"))
        key = "muli" if bid == MULI else str(bid)
        mul["deals_declared"] += 1
        mul["deals_made"] += int(made)
        bids[key]["declared"] += 1
        bids[key]["made"] += int(made)
        if bid == MULI:
            mul["muli_tried"] += 1
            mul["muli_made"] += int(made)
        if made:
            mul["biggest_multiplier_survived"] = max(
                mul["biggest_multiplier_survived"] or 0, multiplier)


def stats_finish(acc: dict[str, Any]) -> dict[str, Any]:
    mul = dict(acc)
    bids = mul.pop("_bids")
    declared = mul["deals_declared"]
    return mul | {
        "deals_fallen": declared - mul["deals_made"],
        "made_rate": rate(mul["deals_made"], declared),
        "win_rate": rate(mul["wins"], mul["games"]),
        "points_per_deal": (None if not mul["deals_seated"] else
                            round(as_figure(Fraction(mul["points"], mul["deals_seated"])), 2)),
        "by_bid": {k: v | {"fallen": v["declared"] - v["made"],
                           "rate": rate(v["made"], v["declared"])}
                   for k, v in bids.items()},
    }


def stats_contract(acc: dict[str, Any]) -> dict[str, int]:
    """This family's part of the API's top-level figures."""
    return {k: acc[k] for k in ("games", "wins", "deals_played", "deals_declared",
                                "deals_made", "muli_tried", "muli_made", "stayed_home")}


def won_games(record: SessionRecord) -> dict[str, int]:
    """Games won per player in this session (for the groups' chart of games won)."""
    won: dict[str, int] = {}
    for _scores, winners in finished_games(record):
        for w in winners:
            won[w] = won.get(w, 0) + 1
    return won


def session_points(pid: str, record: SessionRecord) -> int:
    """The player's sum of score changes in the session (lower is better)."""
    return sum(int(d.result.get("deltas", {}).get(pid, 0)) for d in record.deals)


def factors_text(factors: Sequence[str], multiplier: int) -> str:
    """The multiplier as a product of its factors: "♥ hearts × collapse = ×4"; "×1"."""
    if not factors:
        return "×1"
    runs: list[tuple[str, int]] = []
    for f in factors:
        if runs and runs[-1][0] == f:
            runs[-1] = (f, runs[-1][1] + 1)
        else:
            runs.append((f, 1))
    # a long run of one factor as a power ("collapse¹²"): a thousand collapses before a
    # deal stay one short line (docs/rules.md, "Scores have a limit")
    labels = " × ".join(
        " × ".join([str(FACTOR_LABELS.get(f, f))] * n) if n < RUN_AS_POWER
        else f"{FACTOR_LABELS.get(f, f)}{str(n).translate(SUPERSCRIPT)}"
        for f, n in runs)
    return f"{labels} = ×{multiplier}"


#: From this many equal factors in a row on, they are written as a power.
RUN_AS_POWER = 4
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def sheet_rows(record: SessionRecord) -> list[dict[str, Any]]:
    names = record.names
    rows: list[dict[str, Any]] = []
    for d in record.deals:
        result, data = d.result, d.data
        home = set(data.get("stayed_home", []))
        multiplier = result.get("multiplier", 1)
        cells = []
        for p in record.seats:
            cells.append({
                "delta": result.get("deltas", {}).get(p) if d.kind == "played" else None,
                "score": (result.get("scores_after") or result.get("scores_before", {})).get(p),
                "home": p in home,
                "declarer": data.get("declarer") == p,
                "winner": bool(result.get("game_over")) and p in result.get("winners", []),
            })
        rows.append({
            "number": d.number,
            "game_number": result.get("game_number"),
            "dealer": names.get(result.get("dealer", ""), ""),
            "kind": d.kind,
            "declarer": names.get(data.get("declarer") or "", ""),
            "bid": data.get("bid"),
            "trump": data.get("trump"),
            "trump_name": SUITS["german"].get(data.get("trump") or "", ""),
            "made": result.get("declarer_made"),
            "knocked": data.get("knocked"),
            # the sheet notes only what doubled the deal
            "notes": "" if multiplier == 1 else factors_text(result.get("factors", []),
                                                              multiplier),
            "cells": cells,
            "game_over": bool(result.get("game_over")),
            "winners": [names.get(w, w) for w in result.get("winners", [])],
        })
    return rows


def chart_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    """The score after each deal, a new segment (from the start score) for each new game,
    the game boundaries, and the start score and game-end target as reference lines."""
    s = record.session
    series: dict[str, list[list[tuple[float, float]]]] = {}
    boundaries: list[float] = []
    references: list[tuple[float, str]] = []
    start_score = int(s.rules.get("start_score", 0))
    target = s.rules.get("target_score")
    references.append((as_figure(start_score), "start"))
    if target is not None:
        references.append((as_figure(int(target)), "target"))
    for p in record.seats:
        series[p] = [[(0.0, as_figure(start_score))]]
    for i, d in enumerate(record.deals, start=1):
        before = d.result.get("scores_before", {})
        after = d.result.get("scores_after") or before
        if i > 1 and record.deals[i - 2].result.get("game_over"):
            boundaries.append(float(i - 1))
            for p in record.seats:
                series[p].append([(float(i - 1), as_figure(before.get(p, start_score)))])
        for p in record.seats:
            series[p][-1].append((float(i), as_figure(after.get(p, 0))))
    return series, boundaries, references


def csv_rows(names: Names, deals: Sequence[Deal]) -> list[list[object]]:
    order = names.seats
    header: list[object] = [_("deal"), _("game"), _("dealer")]
    for name in (names.to_name(p) for p in order):
        header += [name, f"{name} {_('score')}"]
    rows: list[list[object]] = [[*header, _("multiplier"), _("notes")]]
    for d in deals:
        r = d.result
        row: list[object] = [d.number, r.get("game_number"), names.to_name(r.get("dealer", ""))]
        for p in order:
            row += [r.get("deltas", {}).get(p), r.get("scores_after", {}).get(p)]
        rows.append([*row, r.get("multiplier"), _csv_note(d, names)])
    return rows


def _csv_note(deal: Deal, names: Names) -> str:
    data = deal.data
    if data.get("kind") != "played":
        return str(data.get("kind", ""))
    note = f"{names.to_name(str(data.get('declarer')))} {data.get('bid')} {data.get('trump')}"
    if deal.result.get("game_over"):
        note += " · " + _("game over")
    return note


def history_detail(seats: list[str], data: dict[str, Any]) -> None:
    return None


# --- the pages: scoreboard, the deal form and its live check -----------------------------------

SESSION_TEMPLATE = "scorepad/session.html"
FORM_FRAGMENT = "scorepad/session.html#dealform"
EDIT_TEMPLATE = "scorepad/deal_edit.html"
#: The game's parts of the pages every game shares: the scoreboard, the paper sheet (it
#: extends scorepad/sheet.html) and the settlement's words on the rules of money.
BOARD_TEMPLATE = "scorepad/_board_mulatschak.html"
SHEET_TEMPLATE = "scorepad/sheet_mulatschak.html"
SUMMARY_TEMPLATE = f"scorepad/_deal_summary_{NAME}.html"
SESSION_LINE_TEMPLATE = f"scorepad/_session_line_{NAME}.html"
MONEY_RULES_TEMPLATE = "scorepad/_money_rules_mulatschak.html"
MODES = ("",)
RECENT_DEALS = 8


def recorded_message(number: int) -> str:
    return _("Deal %(n)s recorded.") % {"n": number}


def start_parts(form: Any) -> dict[str, Any]:
    """The start form's presets and house rules."""
    from .startform import rules_table

    return {"rules_legend": _("Rules (Mulatschak)"), "house_rules": rules_table(form)}


def again_rules(session: Session) -> tuple[str, list[tuple[str, str]]]:
    """The session's preset and the house rules that differ from it, as the start form
    takes them (a preset that is no more: the form's default, no house rules)."""
    if session.preset not in PRESETS:
        return "", []
    preset = PRESETS[session.preset].as_params()
    return session.preset, [(f"rule_{name}", json.dumps(value))
                            for name, value in (session.rules or {}).items()
                            if name in preset and preset[name] != value]


def form_rules(cleaned: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any] | None]:
    """The preset and house rules chosen on the form that starts a session."""
    return cleaned["preset"], cleaned["overrides"]


def keeps_typing(post: Any) -> bool:
    """Does a sent form hold what somebody typed (a played deal), worth keeping when
    another phone recorded its deal first? Collapsed and all passed are one tap."""
    return (post.get("kind") or "played") not in ("collapsed", "passed")


def form_shows_errors(mode: str) -> bool:
    return True


class DealEntry:
    """The deal form's data, parsed from POST (or GET) parameters.

    Field names: ``kind``, ``declarer``, ``bid`` (1–5), ``trump``, ``home`` (repeatable),
    ``knocked``, ``t_<seat>`` tricks, ``x_<seat>`` cards exchanged, ``breaker``, and
    ``step`` (``<seat>:+1`` / ``<seat>:-1``) from the trick steppers.
    """

    def __init__(self, data: Any, seats: list[str], out: str | None = None) -> None:
        self.seats = seats
        #: Who sits out this deal (docs/rules.md, "Sitting out"): no row, no tricks, no part in it.
        self.out = out if out in seats else None
        self.kind = data.get("kind") or "played"
        if self.kind not in ("played", "collapsed", "passed"):
            self.kind = "played"
        self.declarer = data.get("declarer") if data.get("declarer") in seats else None
        bid = parse_count(data.get("bid"))
        self.bid = bid if bid is not None and 1 <= bid <= MULI else None
        trump = data.get("trump")
        self.trump = trump if trump in dict(TRUMPS) else None
        home = data.getlist("home") if hasattr(data, "getlist") else data.get("home", [])
        self.home = [p for i, p in enumerate(seats) if str(i) in home]
        self.knocked = data.get("knocked") in ("1", "on", "true")
        self.tricks: dict[str, int | None] = {}
        self.exchanged: dict[str, int | None] = {}
        #: The exchange part (docs/rules.md, "Exchange"): each player's form ("" = plain), an
        #: on-sight card refused, a bridge's face-up cards (None: 1); the declarer's chain on sight.
        self.forms: dict[str, str] = {}
        self.refused: dict[str, bool] = {}
        self.face_up: dict[str, int | None] = {}
        for i, p in enumerate(seats):
            self.tricks[p] = parse_count(data.get(f"t_{i}"))
            self.exchanged[p] = parse_count(data.get(f"x_{i}"))
            form = data.get(f"xf_{i}") or ""
            self.forms[p] = form if form in SPECIAL_FORMS else ""
            self.refused[p] = data.get(f"xr_{i}") in ("1", "on", "true")
            self.face_up[p] = parse_count(data.get(f"xu_{i}"))
        self.chain_up = parse_count(data.get("chain_up"))
        self.chain_kept = parse_count(data.get("chain_kept"))
        self.trump_delayed = data.get("trump_delayed") in ("1", "on", "true")
        breaker = data.get("breaker")
        self.breaker = breaker if breaker in seats else None
        tapped = step(data.get("step") or "", seats, ("", "x", "xu"))
        if tapped is not None:
            prefix, player, delta = tapped
            playing = self.playing_tricks()
            if prefix == "" and player in playing:
                stepped_count(playing, player, delta, inferred(playing, MULI), MULI)
                self.tricks[player] = playing[player]
            elif prefix == "x":
                self.exchanged[player] = _stepped(self.exchanged[player], delta, 0, HAND)
            elif prefix == "xu":
                self.face_up[player] = _stepped(self.face_up[player], delta, 0, TALON_MOST,
                                                start=1)
        chain = (data.get("step") or "").partition(":")
        if chain[0] in ("chain_up", "chain_kept") and chain[2] in ("+1", "-1"):
            value = _stepped(getattr(self, chain[0]), int(chain[2]), 0, TALON_MOST)
            setattr(self, chain[0], value)
        #: Blank tricks that can only be one number (the last player's: the remainder).
        self.auto = inferred(self.playing_tricks(), MULI)

    def playing_tricks(self) -> dict[str, int | None]:
        return {p: n for p, n in self.tricks.items() if p not in self.home and p != self.out}

    def tricks_total(self) -> int:
        return sum(n or 0 for n in self.playing_tricks().values())

    def tricks_left(self) -> int:
        return MULI - self.tricks_total() - sum(self.auto.values())

    def missing(self) -> dict[str, Any]:
        """What must be chosen before the referee can judge a played deal."""
        if self.kind != "played":
            return {}
        out: dict[str, Any] = {}
        if self.declarer is None:
            out["declarer"] = _("Who declared?")
        if self.bid is None:
            out["bid"] = _("How many tricks were bid?")
        if self.trump is None:
            out["trump"] = _("Which suit is trump?")
        return out

    def as_deal(self) -> dict[str, Any]:
        """The referee's deal object, with names."""
        # a knock on a thrown-in deal may carry over (docs/rules.md, "Knocks and collapses")
        if self.kind != "played":
            return {"kind": self.kind, "knocked": self.knocked}
        tricks = {p: n if n is not None else self.auto[p]
                  for p, n in self.playing_tricks().items() if n is not None or p in self.auto}
        exchanged = {p: n for p, n in self.exchanged.items() if n and p != self.out}
        exchanges = self.exchanges()
        for p in exchanges:
            exchanged.pop(p, None)
        return {
            "kind": "played",
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": self.trump,
            "stayed_home": list(self.home),
            "tricks": tricks,
            "knocked": self.knocked,
            "exchanged": exchanged or None,
            "muli_breaker": self.breaker,
            **({"exchanges": exchanges} if exchanges else {}),
            **({"trump_delayed": True} if self.trump_delayed else {}),
        }

    def exchanges(self) -> dict[str, dict[str, Any]]:
        """The exchanges by form (docs/rules.md, "Recording exchanges"): every special form
        tapped, and the declarer's plain exchange when a chain on sight follows it. Plain
        counts stay in ``exchanged``, the shape of deals recorded before the forms."""
        out: dict[str, dict[str, Any]] = {}
        for p, form in self.forms.items():
            if p == self.out or not form:
                continue
            entry: dict[str, Any] = {"form": form}
            if form == "on_sight":
                entry["refused"] = self.refused[p]
            elif form == "bridge":
                entry["face_up"] = 1 if self.face_up[p] is None else self.face_up[p]
            out[p] = entry
        if (self.declarer is not None and self.declarer not in out and self.chain_up):
            out[self.declarer] = {
                "form": "plain", "cards": self.exchanged.get(self.declarer) or 0,
                "face_up": self.chain_up,
                "face_up_kept": self.chain_up if self.chain_kept is None else self.chain_kept,
            }
        return out


#: The exchange forms besides the plain one, each behind its switch (docs/rules.md, "Exchange").
SPECIAL_FORMS = {
    "on_sight": ("exchange_on_sight", gettext_lazy("On sight")),
    "ace_five": ("exchange_ace_five", gettext_lazy("Five on the ace")),
    "seven_six": ("exchange_seven_six", gettext_lazy("Six on the seven")),
    "bridge": ("exchange_bridge", gettext_lazy("Bridge")),
}
HAND = 5
#: The most cards a talon can hold (german36 with two players), for the steppers.
TALON_MOST = 26


def _stepped(value: int | None, delta: int, low: int, high: int, start: int = 0) -> int:
    """A count's stepper without JavaScript: from the shown number (``start`` for a blank),
    kept inside ``low``..``high``."""
    current = start if value is None else value
    return max(low, min(high, current + delta))


def allowed_forms(frozen: MulatschakRules) -> list[tuple[str, Any]]:
    """The special forms these rules allow, as (form, label); a delayed trump brings the
    declarer's bridge (docs/rules.md, "Delayed trump")."""
    return [(form, label) for form, (switch, label) in SPECIAL_FORMS.items()
            if getattr(frozen, switch) or (form == "bridge" and frozen.delayed_trump)]


def form_deal(post: Any, names: Names) -> dict[str, Any] | None:
    """The deal a sent form records (names); None while it lacks what the referee needs."""
    seats = list(names.by_id.values())
    entry = DealEntry(post, seats, _posted_out(post, seats))
    return None if entry.missing() else entry.as_deal()


def _posted_out(post: Any, seats: list[str]) -> str | None:
    """Who the form says sits out (its hidden ``out``, a seat index); the referee still
    checks the deal against the session's own rotation."""
    index = parse_count(post.get("out"))
    return seats[index] if index is not None and index < len(seats) else None


def sitting_out_of(loaded: Loaded, number: int | None) -> str | None:
    """The player id who sits out the next deal, or deal ``number`` (docs/rules.md,
    "Sitting out"); one query for a correction, none at tables where nobody sits out."""
    session = loaded.session
    frozen = session_rules(session)
    if not frozen.sits_out(len(loaded.seats)):
        return None
    if number is None:
        return next_sitting_out(frozen, loaded.seats, state_from_json(session.state))
    result = session.deals.filter(number=number).values_list("result", flat=True).first()
    return None if result is None else result.get("dealer")


def form_values(deal: dict[str, Any], seats: list[str]) -> tuple[QueryDict, str]:
    """A recorded deal (names) as the form that records it (for corrections)."""
    q = QueryDict(mutable=True)
    q["kind"] = deal.get("kind", "played")
    for key in ("declarer", "bid", "trump"):
        if deal.get(key) is not None:
            q[key] = str(deal[key])
    if deal.get("muli_breaker"):
        q["breaker"] = deal["muli_breaker"]
    if deal.get("knocked"):
        q["knocked"] = "1"
    q.setlist("home", [str(seats.index(p) if p in seats else -1)
                       for p in deal.get("stayed_home") or []])
    for i, p in enumerate(seats):
        if p in (deal.get("tricks") or {}):
            q[f"t_{i}"] = str(deal["tricks"][p])
        if (deal.get("exchanged") or {}).get(p):
            q[f"x_{i}"] = str(deal["exchanged"][p])
        entry = (deal.get("exchanges") or {}).get(p)
        if not isinstance(entry, dict):
            continue
        if entry.get("form") == "plain":
            q[f"x_{i}"] = str(entry.get("cards", 0))
            if entry.get("face_up"):
                q["chain_up"] = str(entry["face_up"])
                q["chain_kept"] = str(entry.get("face_up_kept", entry["face_up"]))
            continue
        q[f"xf_{i}"] = str(entry.get("form", ""))
        if entry.get("refused"):
            q[f"xr_{i}"] = "1"
        if "face_up" in entry:
            q[f"xu_{i}"] = str(entry["face_up"])
    if deal.get("trump_delayed"):
        q["trump_delayed"] = "1"
    return q, ""


def recent(loaded: Loaded) -> list[dict[str, Any]]:
    names = loaded.names
    out = []
    for row in loaded.session.deals.order_by("-number")[:RECENT_DEALS]:
        result = names.deal_names(row.result)
        changes = []
        for pid, name in names.by_id.items():
            delta = row.result.get("deltas", {}).get(pid)
            reason = row.result.get("reasons", {}).get(pid)
            changes.append({"player": name, "delta": delta, "reason": reason_label(reason)})
        out.append({
            "number": row.number,
            "kind": row.kind,
            "deal": names.deal_names(row.data),
            "dealer": result.get("dealer"),
            "sitting_out": result.get("sitting_out"),
            "game_number": result.get("game_number"),
            "multiplier": result.get("multiplier", 1),
            "factors": factors_text(result.get("factors", []), result.get("multiplier", 1)),
            "changes": changes,
            "game_over": result.get("game_over"),
            "winners": result.get("winners", []),
        })
    return out


def board_context(loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]:
    session = loaded.session
    return {
        "scores": [{"player": name, "score": board["scores"][name]}
                   for name in loaded.names.by_id.values()],
        "pending": factors_text(board["pending_factors"], board["pending_multiplier"]),
        "rules": session_rules(session),
        "recent": recent(loaded),
        "muli_name": MULI_NAMES.get(session.preset, "Muli"),
    }


#: Where a violation is shown on the deal form.
VIOLATION_FIELDS = {
    "bid_out_of_range": "bid",
    "bid_forbidden_low_score": "declarer",
    "trump_invalid": "trump",
    "declarer_stayed_home": "home",
    "stay_home_forbidden_hearts": "home",
    "stay_home_forbidden_muli": "home",
    "stay_home_forbidden_low_score": "home",
    "no_opponent": "home",
    "stay_home_twice": "home",
    "tricks_missing": "tricks",
    "tricks_for_absent": "tricks",
    "tricks_out_of_range": "tricks",
    "tricks_sum": "tricks",
    "exchange_forbidden_muli": "exchanged",
    "exchange_forbidden_low_score": "exchanged",
    "exchange_too_many": "exchanged",
    "exchange_exceeds_talon": "exchanged",
    "exchange_form_not_allowed": "exchanged",
    "exchange_recorded_twice": "exchanged",
    "exchange_by_absent": "exchanged",
    "seven_six_not_bells": "exchanged",
    "face_up_chain_invalid": "exchanged",
    "delayed_trump_without_bridge": "exchanged",
    "player_sitting_out": "exchanged",
    "knock_not_allowed": "knocked",
    "muli_breaker_required": "breaker",
}


#: Not an error while the deal is being entered, only once it is saved: said as a hint.
STILL_TO_ENTER = {"tricks_missing"}


def entry_context(loaded: Loaded, post: Any, *, number: int | None = None, mode: str = "",
                  submitted: bool = False) -> dict[str, Any]:
    """The deal form: choices, what is missing, the referee's violations and a preview."""
    import secrets

    session, names = loaded.session, loaded.names
    seats = list(names.by_id.values())
    out_id = sitting_out_of(loaded, number)
    out = None if out_id is None else names.to_name(out_id)
    entry = DealEntry(post or QueryDict(), seats, out)
    frozen = session_rules(session)
    missing = entry.missing()
    violations: list[dict[str, Any]] = []
    preview_rows: list[dict[str, Any]] = []
    multiplier_text = ""
    if not missing:
        try:
            result = preview(loaded, names.deal_ids(entry.as_deal()), number)
        except InputError as e:
            violations.append({"code": e.code, "player": None, "field": None,
                               "message": input_error_message(e)})
        else:
            for v in result.violations:
                v = names.violation(v)
                violations.append(
                    {"code": v.code, "player": v.player, "field": VIOLATION_FIELDS.get(v.code),
                     "message": violation_message(v)}
                )
            if result.legal and entry.kind == "played":
                multiplier_text = factors_text([str(f) for f in result.factors],
                                               result.multiplier)
                for pid, name in names.by_id.items():
                    preview_rows.append(
                        {"player": name, "delta": result.deltas[pid],
                         "reason": reason_label(str(result.reasons[pid]))}
                    )
    by_field: dict[str, list[str]] = {}
    by_player: dict[str, list[str]] = {}
    to_enter = [] if submitted else [v["player"] for v in violations
                                     if v["code"] in STILL_TO_ENTER and v["player"]]
    shown = [v for v in violations if submitted or v["code"] not in STILL_TO_ENTER]
    if to_enter:
        missing = {**missing, "tricks": _("Tricks still to enter: %(names)s.")
                   % {"names": ", ".join(to_enter)}}
    for v in shown:  # each message in one place: a player's row, or its field
        if v["player"] and v["field"] in (None, "tricks", "home"):
            by_player.setdefault(v["player"], []).append(v["message"])
        elif v["field"]:
            by_field.setdefault(v["field"], []).append(v["message"])
    return {
        "entry": entry,
        "seat_rows": [
            {
                "index": i,
                "name": name,
                "home": name in entry.home,
                "tricks": entry.tricks.get(name),
                "auto": entry.auto.get(name),
                "exchanged": entry.exchanged.get(name),
                "form": entry.forms.get(name, ""),
                "refused": entry.refused.get(name, False),
                "face_up": entry.face_up.get(name),
                "errors": by_player.get(name, []),
            }
            for i, name in enumerate(seats)
            if name != out
        ],
        "sitting_out": out,
        "sitting_out_index": None if out is None else seats.index(out),
        "trumps": TRUMPS,
        "bids": [1, 2, 3, 4, 5],
        "missing": missing,
        "violations": violations,
        "field_errors": by_field,
        "general_errors": [v["message"] for v in shown if not v["field"] and not v["player"]],
        "preview": preview_rows,
        "preview_factors": multiplier_text,
        "legal": not missing and not violations,
        "knock_allowed": frozen.knock_doubles,
        "knock_carries": frozen.knock_doubles and frozen.knock_survives_collapse,
        "exchange_forms": allowed_forms(frozen),
        "chain_allowed": frozen.declarer_on_sight_chain,
        "delayed_allowed": frozen.delayed_trump,
        "breaker_needed": frozen.muli_fail_mode == "breaker",
        "number": number,
        "muli_name": MULI_NAMES.get(session.preset, "Muli"),
        "idempotency_key": secrets.token_urlsafe(24),
    }
