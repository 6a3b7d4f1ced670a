"""Mulatschak rule sets as data (docs/rules.md, "House rules").

Every number and switch is a named parameter. A rule set is a preset plus validated
overrides; an unknown parameter or a value of the wrong type is a :class:`RuleError`
naming it (``overrides.knock_doubles``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .cards import PACKS, Pack
from .params import one_of
from .violations import RuleError

MULI_FAIL_MODES = ("all", "breaker", "trick_takers")
ALL_PASS_MODES = ("redeal", "redeal_double")
MULATSCHAK_PACKS = ("german36", "german33")
HAND_SIZE = 5
TRICKS_PER_DEAL = 5


@dataclass(frozen=True)
class Payout:
    """A Muli/Murler payout before multipliers: the declarer's and every other's change."""

    declarer: int
    others: int

    def as_dict(self) -> dict[str, int]:
        return {"declarer": self.declarer, "others": self.others}


@dataclass(frozen=True)
class MulatschakRules:
    name: str
    title: str
    pack: str
    players_min: int
    players_max: int
    start_score: int
    target_score: int
    trick_value: int
    no_trick_penalty: int
    declarer_fail_penalty: int
    failed_declarer_counts_tricks: bool
    stay_home_penalty: int
    min_bid: int
    min_bid_hearts: int
    dealer_may_hold: bool
    no_bid_at_or_below: int | None
    must_play_at_or_below: int | None
    no_exchange_at_or_below: int | None
    #: The most cards one player may take; an int, or per number of players
    #: (``((2, 5), (3, 5), (4, 3), (5, 3))``; a count not listed allows a whole hand).
    max_exchange: int | tuple[tuple[int, int], ...]
    exchange_capped_by_declarer: bool
    hearts_double: bool
    hearts_all_play: bool
    collapse_doubles: bool
    weli_prevents_whiteout: bool
    knock_doubles: bool
    multiplier_cap: int | None
    muli_all_play: bool
    muli_no_exchange: bool
    muli_win: Payout
    muli_fail: Payout
    muli_fail_mode: str
    last_player_must_play: bool
    must_follow_suit: bool
    must_trump: bool
    must_head_trick: bool
    all_pass: str
    no_stay_home_twice: bool
    score_floor: int | None
    #: The special exchange forms (docs/rules.md, "Exchange"), each behind its switch.
    exchange_on_sight: bool
    exchange_ace_five: bool
    exchange_bridge: bool
    exchange_seven_six: bool
    #: "Weiß ich noch nicht": the declarer may delay trump and take a bridge (docs/rules.md,
    #: "Delayed trump").
    delayed_trump: bool
    #: Geiser: the declarer's exchange goes on with cards on sight while trumps
    #: (docs/rules.md, "Declarer chain on sight").
    declarer_on_sight_chain: bool
    #: A knocked deal that is thrown in also doubles the next played deal (docs/rules.md,
    #: "Knocks and collapses").
    knock_survives_collapse: bool
    #: From this many seated players on, the dealer sits out every deal (docs/rules.md,
    #: "Sitting out").
    sit_out_at: int | None

    game = "mulatschak"

    @property
    def card_pack(self) -> Pack:
        return PACKS[self.pack]

    @property
    def largest_multiplier(self) -> int:
        """``multiplier_cap``, or the implicit cap where it is null (docs/rules.md,
        "Scores have a limit")."""
        if self.multiplier_cap is None:
            return IMPLICIT_MULTIPLIER_CAP
        return min(self.multiplier_cap, IMPLICIT_MULTIPLIER_CAP)

    def sits_out(self, seated: int) -> bool:
        """Whether the dealer sits out at a table of ``seated`` players (docs/rules.md,
        "Sitting out")."""
        return self.sit_out_at is not None and seated >= self.sit_out_at

    def active_count(self, seated: int) -> int:
        """The players who take part in a deal: the seated ones, less one who sits out."""
        return seated - 1 if self.sits_out(seated) else seated

    def max_exchange_for(self, players: int) -> int:
        if isinstance(self.max_exchange, int):
            return self.max_exchange
        return dict(self.max_exchange).get(players, HAND_SIZE)

    def talon_size(self, players: int) -> int:
        return len(self.card_pack) - HAND_SIZE * players

    def as_params(self) -> dict[str, Any]:
        """Every parameter by its name in docs/rules.md, "House rules", as JSON-ready data."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("name", "title"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, Payout):
                value = value.as_dict()
            elif f.name == "max_exchange" and not isinstance(value, int):
                value = {str(n): limit for n, limit in value}
            out[f.name] = value
        return out


#: What each house rule means, in a line for the forms that set it (the start form, the
#: Referee page, a tournament's settings): a new rule brings its help here, beside it, and
#: the pages translate it from the game's catalogue.
HELP: Mapping[str, str] = {
    "pack": "cards used (36, or 33: without the sixes but the Weli)",
    "players_min": "fewest players at the table",
    "players_max": "most players at the table",
    "start_score": "everybody starts here",
    "target_score": "reaching it or less ends the game",
    "trick_value": "minus points per trick taken",
    "no_trick_penalty": "plus points for a player who played and took no trick",
    "declarer_fail_penalty": "plus points for a declarer short of the bid",
    "failed_declarer_counts_tricks": "a failed declarer also gets minus points for tricks",
    "stay_home_penalty": "plus points for staying home",
    "min_bid": "lowest bid that is not a pass",
    "min_bid_hearts": "lowest bid when the declarer then names hearts",
    "dealer_may_hold": "the dealer may take over the highest bid (bei mir)",
    "no_bid_at_or_below": "a player at or below this score may only pass (null: off)",
    "must_play_at_or_below": "a player at or below this score may not stay home",
    "no_exchange_at_or_below": "a player at or below this score may not exchange",
    "max_exchange": 'most cards one player may take (a number, or {"4": 3} per players)',
    "exchange_capped_by_declarer": "opponents may not take more cards than the declarer",
    "hearts_double": "hearts trump doubles the deal",
    "hearts_all_play": "hearts trump: nobody may stay home",
    "collapse_doubles": "each collapse doubles the next played deal",
    "weli_prevents_whiteout": "the Weli saves a hand from a whiteout",
    "knock_doubles": "knocking doubles the deal",
    "multiplier_cap": "largest multiplier (null: 2^40, the cap that keeps scores in range)",
    "muli_all_play": "Muli: nobody may stay home",
    "muli_no_exchange": "Muli: nobody exchanges",
    "muli_win": "a Muli that comes off, before multipliers",
    "muli_fail": "a Muli that fails, before multipliers",
    "muli_fail_mode": "who gets the others' amount of a failed Muli",
    "last_player_must_play": "the declarer may not be left without an opponent",
    "must_follow_suit": "Farbzwang: follow suit",
    "must_trump": "void in the suit led: must trump",
    "must_head_trick": "Stichzwang: must beat the trick if able",
    "all_pass": "everybody passed: what then",
    "no_stay_home_twice": "nobody may stay home in two played deals in a row",
    "score_floor": "scores never go below this (null: no floor)",
    "exchange_on_sight": "one card on sight: refuse it and take the next one face down",
    "exchange_ace_five": "five on the ace: holding the trump ace, take five and return one",
    "exchange_bridge": "the bridge (Packerl): five new cards, then face up while trumps",
    "exchange_seven_six": "six on the seven: bells trump, keep the bells seven, take six",
    "delayed_trump": "the declarer may delay trump (Weiß ich noch nicht) and take a bridge",
    "declarer_on_sight_chain": ("the declarer's exchange goes on with cards on sight while "
                               "they are trumps"),
    "knock_survives_collapse": ("a knock on a deal that collapses doubles the next played "
                               "deal too"),
    "sit_out_at": "from this many players on, the dealer sits out every deal (null: never)",
}


PARAMETER_NAMES: tuple[str, ...] = tuple(
    f.name for f in fields(MulatschakRules) if f.name not in ("name", "title")
)

SALZBURG = MulatschakRules(
    name="salzburg",
    title="Mulatschak (Salzburg)",
    pack="german36",
    players_min=2,
    players_max=6,
    start_score=21,
    target_score=0,
    trick_value=1,
    no_trick_penalty=5,
    declarer_fail_penalty=10,
    failed_declarer_counts_tricks=False,
    stay_home_penalty=1,
    min_bid=1,
    min_bid_hearts=1,
    dealer_may_hold=True,
    no_bid_at_or_below=5,
    must_play_at_or_below=3,
    no_exchange_at_or_below=3,
    max_exchange=5,
    exchange_capped_by_declarer=False,
    hearts_double=True,
    hearts_all_play=True,
    collapse_doubles=True,
    weli_prevents_whiteout=False,
    knock_doubles=True,
    multiplier_cap=None,
    muli_all_play=True,
    muli_no_exchange=True,
    muli_win=Payout(declarer=-10, others=10),
    muli_fail=Payout(declarer=10, others=-10),
    muli_fail_mode="all",
    last_player_must_play=True,
    must_follow_suit=True,
    must_trump=True,
    must_head_trick=True,
    all_pass="redeal",
    no_stay_home_twice=False,
    score_floor=None,
    exchange_on_sight=True,
    exchange_ace_five=True,
    exchange_bridge=True,
    exchange_seven_six=True,
    delayed_trump=False,
    declarer_on_sight_chain=False,
    knock_survives_collapse=False,
    sit_out_at=None,
)

#: The exchange Geiser's rules describe, and Murln shares: the plain exchange only, the
#: declarer's going on with cards on sight (docs/rules.md, "Declarer chain on sight").
_PLAIN_EXCHANGE_WITH_CHAIN: dict[str, Any] = {
    "exchange_on_sight": False,
    "exchange_ace_five": False,
    "exchange_bridge": False,
    "exchange_seven_six": False,
    "declarer_on_sight_chain": True,
}

GEISER = replace(
    SALZBURG,
    name="geiser",
    title="Mulatschak (Geiser)",
    players_max=5,
    start_score=15,
    no_bid_at_or_below=None,
    must_play_at_or_below=5,
    exchange_capped_by_declarer=True,
    knock_doubles=False,
    muli_win=Payout(declarer=-10, others=0),
    **_PLAIN_EXCHANGE_WITH_CHAIN,
)

MURLN = replace(
    SALZBURG,
    name="murln",
    title="Murln",
    pack="german33",
    players_max=5,
    no_bid_at_or_below=None,
    must_play_at_or_below=5,
    stay_home_penalty=2,
    max_exchange=((2, 5), (3, 5), (4, 3), (5, 3)),
    exchange_capped_by_declarer=True,
    knock_doubles=False,
    muli_win=Payout(declarer=-10, others=20),
    muli_fail=Payout(declarer=20, others=-10),
    **_PLAIN_EXCHANGE_WITH_CHAIN,
)

PRESETS: dict[str, MulatschakRules] = {r.name: r for r in (SALZBURG, GEISER, MURLN)}


def _int(
    name: str, value: object, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(name, "must be a whole number", "not_int")
    if minimum is not None and value < minimum:
        raise RuleError(name, f"must be at least {minimum}", "too_small", min=minimum)
    if maximum is not None and value > maximum:
        raise RuleError(name, f"must be at most {maximum}", "too_large", max=maximum)
    return value


def _optional_int(name: str, value: object, **bounds: int) -> int | None:
    return None if value is None else _int(name, value, **bounds)


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RuleError(name, "must be true or false", "not_bool")
    return value


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise RuleError(
            name, f"must be one of {', '.join(choices)}", "not_choice", choices=", ".join(choices)
        )
    return value


def _payout(name: str, value: object) -> Payout:
    if not isinstance(value, Mapping) or set(value) != {"declarer", "others"}:
        raise RuleError(
            name, 'must be an object {"declarer": <number>, "others": <number>}', "bad_payout"
        )
    return Payout(
        declarer=_int(f"{name}.declarer", value["declarer"], minimum=-1000, maximum=1000),
        others=_int(f"{name}.others", value["others"], minimum=-1000, maximum=1000),
    )


def _max_exchange(name: str, value: object) -> int | tuple[tuple[int, int], ...]:
    if isinstance(value, Mapping):
        if not value:
            raise RuleError(name, "must name at least one number of players", "empty")
        pairs = []
        for key, limit in value.items():
            if not isinstance(key, str | int) or isinstance(key, bool) or not str(key).isdigit():
                raise RuleError(name, "keys must be numbers of players", "bad_key")
            n = int(key)
            pairs.append(
                (
                    _int(f"{name}.{key}", n, minimum=2, maximum=7),
                    _int(f"{name}.{key}", limit, minimum=0, maximum=HAND_SIZE),
                )
            )
        return tuple(sorted(pairs))
    return _int(name, value, minimum=0, maximum=HAND_SIZE)


#: The range of every whole-number parameter (and of each count of ``max_exchange``).
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "players_min": (2, 7),
    "players_max": (2, 7),
    **dict.fromkeys(("start_score", "target_score", "no_bid_at_or_below",
                     "must_play_at_or_below", "no_exchange_at_or_below", "score_floor"),
                    (-10_000, 10_000)),
    **dict.fromkeys(("trick_value", "no_trick_penalty", "declarer_fail_penalty",
                     "stay_home_penalty"), (0, 1000)),
    "min_bid": (1, TRICKS_PER_DEAL),
    "min_bid_hearts": (1, TRICKS_PER_DEAL),
    "sit_out_at": (3, 7),
    "multiplier_cap": (1, 1 << 20),
    "max_exchange": (0, HAND_SIZE),
}


#: Every score stays within ±MAX_SCORE = 2^53 − 1, the largest whole number that an IEEE
#: double (a JavaScript number, a float) holds exactly: a deal that would take a score
#: past it is ``score_out_of_range`` (docs/rules.md, "Scores have a limit").
MAX_SCORE = (1 << 53) - 1

#: The largest change one deal can make before its multiplier, from the ranges above:
#: five tricks at the highest ``trick_value`` (every penalty and payout is smaller).
MAX_BASE_CHANGE = TRICKS_PER_DEAL * INT_BOUNDS["trick_value"][1]

#: The multiplier when ``multiplier_cap`` is null: the largest power of two by which even
#: MAX_BASE_CHANGE stays within MAX_SCORE (5000 < 2^13, so 2^40: 5000 × 2^40 < 2^53), so
#: that no single deal's change passes the limit however many collapses came before.
IMPLICIT_MULTIPLIER_CAP = 1 << (MAX_SCORE.bit_length() - MAX_BASE_CHANGE.bit_length())


def _bounds(name: str) -> dict[str, int]:
    low, high = INT_BOUNDS[name]
    return {"minimum": low, "maximum": high}


def _validate_param(name: str, value: object) -> object:
    """Check one parameter's type and range; return the normalized value."""
    where = f"overrides.{name}"
    if name == "pack":
        return _choice(where, value, MULATSCHAK_PACKS)
    if name in ("players_min", "players_max", "start_score", "target_score", "trick_value",
                "no_trick_penalty", "declarer_fail_penalty", "stay_home_penalty", "min_bid",
                "min_bid_hearts"):
        return _int(where, value, **_bounds(name))
    if name in ("no_bid_at_or_below", "must_play_at_or_below", "no_exchange_at_or_below",
                "score_floor", "sit_out_at", "multiplier_cap"):
        return _optional_int(where, value, **_bounds(name))
    if name == "max_exchange":
        return _max_exchange(where, value)
    if name in ("muli_win", "muli_fail"):
        return _payout(where, value)
    if name == "muli_fail_mode":
        return _choice(where, value, MULI_FAIL_MODES)
    if name == "all_pass":
        return _choice(where, value, ALL_PASS_MODES)
    return _bool(where, value)


def _parameter_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one parameter, as _validate_param checks it."""
    if name == "pack":
        return one_of(MULATSCHAK_PACKS)
    if name in INT_BOUNDS and name != "max_exchange":
        schema: dict[str, Any] = {"type": "integer", **_bounds(name)}
        if name in ("no_bid_at_or_below", "must_play_at_or_below", "no_exchange_at_or_below",
                    "score_floor", "sit_out_at", "multiplier_cap"):
            schema["nullable"] = True
        return schema
    if name == "max_exchange":
        limit = {"type": "integer", "minimum": 0, "maximum": HAND_SIZE}
        return {"oneOf": [limit, {
            "type": "object", "minProperties": 1, "additionalProperties": False,
            "properties": {str(n): limit for n in range(2, 8)}}]}
    if name in ("muli_win", "muli_fail"):
        points = {"type": "integer", "minimum": -1000, "maximum": 1000}
        return {"type": "object", "additionalProperties": False,
                "required": ["declarer", "others"],
                "properties": {"declarer": points, "others": points}}
    if name == "muli_fail_mode":
        return one_of(MULI_FAIL_MODES)
    if name == "all_pass":
        return one_of(ALL_PASS_MODES)
    return {"type": "boolean"}


def mulatschak_rules(preset: str, overrides: Mapping[str, object] | None = None) -> MulatschakRules:
    """The preset with the overrides applied, every override checked."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RuleError(
            "preset",
            f"unknown preset {preset!r}; known: {', '.join(PRESETS)}",
            "unknown_preset",
            preset=str(preset),
            known=", ".join(PRESETS),
        )
    base = PRESETS[preset]
    if not overrides:
        return base
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in PARAMETER_NAMES:
            raise RuleError(
                f"overrides.{name}", "is not a parameter of these rules", "unknown_parameter"
            )
        changes[name] = _validate_param(name, value)
    rules = replace(base, **changes)
    if rules.players_min > rules.players_max:
        raise RuleError("overrides.players_min", "must not exceed players_max", "min_over_max")
    if rules.talon_size(rules.active_count(rules.players_max)) < 0:
        raise RuleError(
            "overrides.players_max",
            f"{rules.players_max} players need more cards than the {rules.pack} pack has",
            "pack_too_small",
            players=rules.players_max,
            pack=rules.pack,
        )
    return rules


#: The JSON Schema of the overrides mulatschak_rules takes (every check but those between
#: parameters: players_min at most players_max, enough cards for players_max).
OVERRIDES_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {name: _parameter_schema(name) for name in PARAMETER_NAMES}}
