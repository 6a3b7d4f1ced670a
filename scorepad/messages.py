"""Violation and input-error codes mapped to messages in the user's language.

Where the referee's codes become words: the words every game shares are here, each game
brings its own (its ``WORDING``, ``scorepad/games/<game>/words.py``), and
``violation_message`` fills the one its violation's parameters choose. Templates use
``{name}`` placeholders filled from the violation's player and parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from string import Formatter
from typing import Any, Protocol

from django.utils.translation import gettext_lazy as _

from referee.violations import RuleError, Violation

#: The codes more than one game reports (the table, the cards, the tricks) and the app's
#: own; a code only one game reports is worded by that game (its ``WORDING``).
VIOLATIONS: dict[str, Any] = {
    # the table
    "players_count": _("This game is for {min} to {max} players, not {count}."),
    "unknown_player": _("{player} is not seated at this table."),
    "dealer_not_seated": _("The dealer {player} is not seated at this table."),
    # the cards and the tricks
    "card_not_in_hand": _("{player} does not hold {card}."),
    "card_not_in_pack": _("{card} is not a card of this pack."),
    "card_played_twice": _("{card} was played twice."),
    "wrong_number_of_plays": _("{player} played the wrong number of cards."),
    "must_follow_suit": _("{player} must follow suit."),
    "tricks_missing": _("How many tricks did {player} take?"),
    "tricks_sum": _("The tricks add up to {total}; a deal has exactly {expected}."),
    # a tournament's table (docs/tournaments.md)
    "table_finished": _("This table has finished its round: no more deals here."),
}

#: Codes the referee reports with different parameters depending on the game or check:
#: the first template whose every placeholder is given (a player only when named) is used.
VARIANTS: dict[str, list[Any]] = {
    "players_count": [
        VIOLATIONS["players_count"],  # count, min, max
        _("This game is for {min} to {max} players, not {actual}."),  # min, max, actual
        _("This game is for exactly {expected} players, not {actual}."),  # expected, actual
    ],
}


def lazy_words(texts: Mapping[str, str]) -> dict[str, Any]:
    """English written where it belongs outside the pages (a rule's help beside the rule in
    the referee), each translated when shown, from the catalogue that holds its text."""
    return {name: _(text) for name, text in texts.items()}


@dataclass(frozen=True)
class Wording:
    """A game's words for the codes its rules report (docs/rules.md lists them), beside
    the shared ones above, which it may word its own way: each code's sentence, and how
    ``violation_message`` chooses another by the parameters given."""

    #: code → its sentence, with ``{name}`` placeholders for the player and parameters
    codes: Mapping[str, Any]
    #: code → other sentences: the first whose every placeholder is given is used
    variants: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    #: code → (a parameter, {its value: sentence}) (``"*"``: whenever it is given), tried
    #: before the variants and the code's own sentence
    by_value: Mapping[str, tuple[str, Mapping[Any, Any]]] = field(default_factory=dict)
    #: code → (the parameter that is a count, its sentence in singular and plural)
    plurals: Mapping[str, tuple[str, Any]] = field(default_factory=dict)
    #: a parameter → {a coded value: its words} (an exchange form, a suit...)
    values: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @cached_property
    def merged(self) -> Wording:
        """These words over the shared ones."""
        return Wording({**SHARED.codes, **self.codes}, {**SHARED.variants, **self.variants},
                       {**SHARED.by_value, **self.by_value}, {**SHARED.plurals, **self.plurals},
                       {**SHARED.values, **self.values})


#: The words every game shares.
SHARED = Wording(VIOLATIONS, VARIANTS)


INPUT_ERRORS: dict[str, Any] = {
    "not_int": _("must be a whole number"),
    "too_small": _("must be at least {min}"),
    "too_large": _("must be at most {max}"),
    "not_bool": _("must be true or false"),
    "not_choice": _("must be one of {choices}"),
    "bad_payout": _('must be an object {{"declarer": <number>, "others": <number>}}'),
    "empty": _("must not be empty"),
    "bad_key": _("keys must be numbers of players"),
    "unknown_preset": _("unknown preset {preset}; known: {known}"),
    "unknown_parameter": _("is not a parameter of these rules"),
    "min_over_max": _("must not exceed players_max"),
    "pack_too_small": _("{players} players need more cards than the {pack} pack has"),
    "seated_twice": _("a name is seated twice"),
    "bad_call": _("must be a number of tricks, 'pass', 'hold' or 'muli'"),
    "card_twice": _("lists a card twice"),
    "not_a_card": _("{text} is not a card code like 'hearts-ober'"),
    "bad_card": _("{card} is not a card code like 'hearts-ober'"),
    "card_not_in_pack": _("is not a card of the {pack} pack"),
    "not_string": _("must be text"),
    "not_list": _("must be a list"),
    "not_name": _("must be a player's name"),
    "not_object": _("must be an object"),
    "missing": _("is required"),
    "unknown_field": _("is not a field here"),
    "unknown_currency": _("{currency} is not a known ISO 4217 currency code"),
    "not_decimal": _("must be a plain decimal like '0.50'"),
    "too_precise": _("must have at most {places} decimal places in this currency"),
    "bad_penalty": _("must be an object with mura and zeros"),
    "not_zero_sum": _("must add up to exactly zero"),
    "too_long": _("must be at most {max} characters"),
    "name_taken": _("{name} is already on the roster"),
    "not_between": _("must be a whole number from {min} to {max}"),
    "bad_character": _("must not contain invisible or control characters ({char})"),
    "too_many_digits": _("must have at most {digits} digits before the decimal point"),
    "players_count": _("seat {min} to {max} players"),
    "scores_missing": _("names no score for {players}"),
    "not_seated": _("must be one of the seated players"),
    "not_member": _("is not a member of this group"),
    "last_owner": _("a group needs at least one owner"),
    "already_linked": _("{username} is already {name} in this group"),
    "username_taken": _("This username is taken."),
    "not_form_field": _("is not a field of the {form} form"),
    "knocks_over_collapses": _(
        "must be at most {max}: the knocked deals are among the collapses before"
    ),
    "card_or_pick_up": _('give either a card or "pick_up": true'),
    "too_short": _("must name at least {min}"),
    "not_date": _("must be a date like 2025-11-23"),
    # tournaments (docs/tournaments.md)
    "already_registered": _("{name} is already registered"),
    "not_registered": _("{name} is not registered"),
    "not_seated_here": _("{name} is not seated at this table"),
    "rank_points_needed": _("is required with combined scoring"),
    "rank_points_list": _("must be a list of 1 to {most} numbers"),
    "not_number_between": _("must be a number from {min} to {max}"),
    "tiebreaks_list": _("must be a list of {choices}, each at most once"),
    "not_money": _("must be a plain decimal like '5.00'"),
    "prize_kind": _('must have a "place" and one of "percent", "amount" and "item"'),
    "prize_place_twice": _("place {place} has a prize already"),
    "not_percent": _("must be a number more than 0 and at most 100"),
    "percents_over_100": _("the percents add up to {total}, more than 100"),
    # seasons (docs/tournaments.md, "Seasons")
    "cup_points_list": _("must be a list of 1 to {most} numbers"),
    "end_before_start": _("must not be before the start"),
}

CONFLICTS: dict[str, Any] = {
    "number_taken": _(
        "Deal {number} was recorded on another phone meanwhile; here is the fresh scoreboard."
    ),
    "session_changed": _("The session was changed on another phone meanwhile; try again."),
    "deal_changed": _("Deal {number} was corrected on another phone meanwhile."),
    "session_closed": _("This session is closed; reopen it to record or correct deals."),
    # tournaments (docs/tournaments.md)
    "round_closed": _("Round {number} is closed already."),
    "round_open": _("Round {number} is still open; close it first."),
    "all_rounds_drawn": _("All {rounds} rounds are drawn."),
    "registration_closed": _("Registering is closed: the last round is drawn."),
    "tournament_finished": _("The tournament is over."),
    "cannot_seat": _("{players} players cannot be seated at tables of {size} with these "
                     "rules."),
    "tables_unfinished": _("These tables are still playing: {tables}. Close the round "
                           "when they are finished, or force it."),
    "tables_unconfirmed": _("Nobody at these tables has confirmed the result yet: {tables}. "
                            "Close the round when they have, or force it."),
    "confirm_first": _("This cannot be undone: confirm it with the second button."),
    "formats_fixed": _("The tournament's format can be changed only until round 1 is "
                       "drawn."),
    "final_too_few": _("{players} players are too few for a final table of {size}."),
    "entrant_played": _("{name} has been drawn to a table already: withdraw them instead."),
    "table_not_finished": _("Table {table} has not finished yet: its result can be "
                            "confirmed once it has."),
}


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def fill(template: Any, values: Mapping[str, Any]) -> str:
    """``template`` with its placeholders filled ("?" for one not given)."""
    return str(template).format_map(_Defaulting(values))


def _fields(template: Any) -> set[str]:
    return {name for _text, name, _spec, _conv in Formatter().parse(str(template)) if name}


def _fits(template: Any, values: Mapping[str, Any]) -> bool:
    return all(name in values and values[name] not in ("", None)
               for name in _fields(template))


def violation_message(violation: Violation, wording: Wording) -> str:
    """The violation in the user's language, in the words of the game that reported it
    (its ``WORDING``, over the shared ones): the sentence its parameters choose."""
    words = wording.merged
    template = words.codes[violation.code]  # each has its words: tests/scorepad/test_words.py
    raw: dict[str, Any] = {"player": violation.player or "", **violation.params}
    values = {name: str(words.values[name].get(value, value))
              if isinstance(value, str) and name in words.values else value
              for name, value in raw.items()}  # coded values as words
    by = words.by_value.get(violation.code)
    if by is not None and by[0] in raw:
        choices = by[1]
        value = raw[by[0]]  # the code itself, not its words
        chosen = choices.get(value) if isinstance(value, str | int) else None
        chosen = chosen if chosen is not None else choices.get("*")
        if chosen is not None and _fits(chosen, values):
            return fill(chosen, values)
    plural = words.plurals.get(violation.code)
    if plural and isinstance(values.get(plural[0]), int) and _fits(
            str(template), values):  # every placeholder has its value
        return str(plural[1].format(**values))
    for variant in words.variants.get(violation.code, ()):
        if _fits(variant, values):
            return fill(variant, values)
    return fill(template, values)


def violation_words(wording: Wording) -> dict[str, Any]:
    """Every template violation_message() chooses from for a game, in the user's language,
    for the phone's scorer to word the violations it finds as the server would
    (static/scorer.js, ``worded``): the codes, their worded parameter values, plural forms
    by CLDR category (``one``, ``other``: de, en and hu have those two), the variants and
    the coded values of parameters as words."""
    words = wording.merged

    def one_other(name: str, template: Any) -> dict[str, str]:
        # a lazy plural picks its form by the count it is given (its text has no %)
        return {"one": str(template % {name: 1}), "other": str(template % {name: 2})}

    return {
        "codes": {code: str(text) for code, text in words.codes.items()},
        "by_value": {code: [name, {str(value): str(text) for value, text in choices.items()}]
                     for code, (name, choices) in words.by_value.items()},
        "plurals": {code: [name, one_other(name, template)]
                    for code, (name, template) in words.plurals.items()},
        "variants": {code: [str(text) for text in texts]
                     for code, texts in words.variants.items()},
        "values": {name: {value: str(text) for value, text in texts.items()}
                   for name, texts in words.values.items()},
    }


def violation_json(violation: Violation, wording: Wording) -> dict[str, Any]:
    out = violation.as_dict()
    out["message"] = violation_message(violation, wording)
    return out


class _CodedError(Protocol):
    code: str
    message: str
    params: Mapping[str, Any]


def input_error_message(error: RuleError | _CodedError) -> str:
    """The error (an InputError's first problem, or one problem) in the user's language;
    the referee's English when no template fits."""
    if getattr(error, "worded", False):
        return error.message
    problems = getattr(error, "problems", None)
    if problems:
        return input_error_message(problems[0])
    template = INPUT_ERRORS.get(error.code)
    if template is None:
        return error.message
    try:
        return str(template).format_map(dict(error.params))
    except (KeyError, IndexError):
        return error.message


def input_errors(error: Any) -> dict[str, list[str]]:
    """Every problem of an InputError by its field, in the user's language."""
    out: dict[str, list[str]] = {}
    for problem in error.problems:
        out.setdefault(problem.field, []).append(input_error_message(problem))
    return out


def conflict_message(reason: str, **params: Any) -> str:
    template = CONFLICTS.get(reason)
    return reason if template is None else fill(template, params)
