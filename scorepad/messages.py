"""Violation and input-error codes mapped to messages in the user's language.

The one place where the referee's codes become words. Templates use ``{name}``
placeholders filled from the violation's player and parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any, Protocol

from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from referee.violations import RuleError, Violation

VIOLATIONS: dict[str, Any] = {
    # table
    "players_count": _("This game is for {min} to {max} players, not {count}."),
    "unknown_player": _("{player} is not seated at this table."),
    "dealer_not_seated": _("The dealer {player} is not seated at this table."),
    # bids
    "bid_out_of_range": _("A bid must be from {min} to {max} tricks; {bid} is not possible."),
    "bid_forbidden_low_score": _(
        "{player} has {score} points (at or below {threshold}) and may only pass."
    ),
    "trump_invalid": _("Trump must be acorns, leaves, hearts or bells."),
    "declarer_stayed_home": _("{player} declared and cannot stay home."),
    "stay_home_forbidden_hearts": _(
        "Hearts are trump — nobody may stay home, so {player} must play."
    ),
    "stay_home_forbidden_muli": _(
        "A Muli is played — nobody may stay home, so {player} must play."
    ),
    "stay_home_forbidden_low_score": _(
        "{player} has {score} points (at or below {threshold}) and must play."
    ),
    "no_opponent": _("Somebody has to play against {player}: not everybody can stay home."),
    "tricks_missing": _("How many tricks did {player} take?"),
    "tricks_for_absent": _("{player} stayed home and cannot have taken tricks."),
    "tricks_out_of_range": _("{player} cannot have taken {tricks} tricks: 0 to 5."),
    "tricks_sum": _("The tricks add up to {total}; a deal has exactly {expected}."),
    "exchange_forbidden_muli": _("Nobody exchanges in a Muli, so {player} cannot either."),
    "exchange_forbidden_low_score": _(
        "{player} has {score} points (at or below {threshold}) and may not exchange."
    ),
    "exchange_too_many": _("{player} may take at most {max} cards, not {cards}."),
    "exchange_exceeds_talon": _("{cards} cards were taken, but the talon has only {talon}."),
    "player_sitting_out": _("{player} sits out this deal and has no part in it."),
    "exchange_recorded_twice": _(
        "{player}'s exchange is recorded twice: give it in exchanged or in exchanges, not both."
    ),
    "exchange_by_absent": _("{player} stayed home and cannot exchange."),
    "exchange_form_not_allowed": _("{player}: {form} is not allowed in these rules."),
    "seven_six_not_bells": _("{player}: six on the seven needs bells as trump, not {trump}."),
    "face_up_chain_invalid": _("The face-up cards of {player}'s exchange do not add up."),
    "delayed_trump_without_bridge": _(
        "With a delayed trump, {player} as the declarer takes a bridge."
    ),
    "knock_not_allowed": _("Knocking does not count in these rules."),
    "stay_home_twice": _("{player} stayed home last deal and must play this one."),
    "muli_breaker_required": _(
        "The Muli failed: name who broke it — an opponent who took a trick."
    ),
    "score_out_of_range": _(
        "This deal would take {player}'s score beyond ±{limit}, the largest score Schreiber "
        "can keep."
    ),
    # auction
    "bid_not_higher": _("{player} must bid more than {highest}, or pass."),
    "hold_not_dealer": _("Only the dealer may hold a bid."),
    "hold_not_allowed": _("Holding a bid is not allowed in these rules."),
    "hold_without_bid": _("There is no bid to hold."),
    "not_your_turn": _("It is not {player}'s turn; {expected} calls next."),
    "auction_over": _("The auction is already over; {player} cannot call any more."),
    "auction_incomplete": _("The auction is not over yet: {player} calls next."),
    # tricks
    "must_follow_suit": _("{player} must follow suit."),
    "must_trump": _("{player} cannot follow suit and must play a trump."),
    "must_head_trick": _("{player} must beat the best card in the trick if able."),
    "card_not_in_hand": _("{player} does not hold {card}."),
    "card_not_in_pack": _("{card} is not a card of this pack."),
    "card_played_twice": _("{card} was played twice."),
    "wrong_number_of_plays": _("{player} played the wrong number of cards."),
    "wrong_leader": _("The trick was led by the wrong player."),
    "auction_mismatch": _("The bidding makes {declarer} declare {bid}, not what the deal says."),
    # counts of figures
    "figures_missing": _("How many figures did {player} take?"),
    "figures_out_of_range": _("{player} cannot have {figures} figures."),
    "figures_too_few": _("{player} cannot have only {figures} figures with {tricks} tricks."),
    # a finishing order, beating a card
    "player_listed_twice": _("{player} is listed twice in the finishing order."),
    "player_missing": _("{player} is missing from the finishing order."),
    "loser_not_last": _("The loser {player} must be the last in the finishing order."),
    "does_not_serve": _("{player} cannot serve {top} with {card}: {reason}."),
    "pick_up_empty_pile": _("{player} cannot pick up: the pile is empty."),
    "play_after_complete": _("The pile is complete; {player} cannot play on it."),
    "figures_sum": _("The figures add up to {total}; a deal has an even number from 16 to 24."),
    "figures_without_tricks": _("{player} took no trick and cannot have figures."),
    "figures_too_many": _("{player} cannot have {figures} figures with {tricks} tricks."),
    # a tournament's table (docs/tournaments.md)
    "table_finished": _("This table has finished its round: no more deals here."),
}

#: Messages with a count in them: the right plural in every language ("has 1 point").
#: Each names the parameter that is the count; VIOLATIONS keeps a fallback.
PLURALS: dict[str, tuple[str, Any]] = {
    "bid_forbidden_low_score": ("score", ngettext_lazy(
        "{player} has {score} point (at or below {threshold}) and may only pass.",
        "{player} has {score} points (at or below {threshold}) and may only pass.", "score")),
    "stay_home_forbidden_low_score": ("score", ngettext_lazy(
        "{player} has {score} point (at or below {threshold}) and must play.",
        "{player} has {score} points (at or below {threshold}) and must play.", "score")),
    "exchange_forbidden_low_score": ("score", ngettext_lazy(
        "{player} has {score} point (at or below {threshold}) and may not exchange.",
        "{player} has {score} points (at or below {threshold}) and may not exchange.",
        "score")),
}

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

BEAT_REASONS: dict[str, Any] = {
    "higher_same_suit": _("Yes: a higher card of the same suit beats it."),
    "higher_trump": _("Yes: a higher trump beats a trump."),
    "trump_beats_non_trump": _("Yes: any trump beats a card that is not a trump."),
    "not_higher": _("No: a card of the same suit must be higher to beat it."),
    "trump_only_beaten_by_higher_trump": _("No: a trump is only beaten by a higher trump."),
    "different_suit_not_trump": _(
        "No: a card of another suit beats it only if it is a trump."
    ),
    "same_card": _("No: the same card (from the second pack) does not beat it."),
}


#: Codes worded by the value of one parameter (``"*"``: whenever it is given), tried before
#: VARIANTS and the code's own template.
BY_VALUE: dict[str, tuple[str, dict[Any, Any]]] = {
    "player_sitting_out": ("field", {
        "declarer": _("{player} sits out this deal and cannot declare."),
        "stayed_home": _("{player} sits out this deal, which is not staying home."),
        "tricks": _("{player} sits out this deal and has no trick count, not even 0."),
        "exchanged": _("{player} sits out this deal and does not exchange."),
        "exchanges": _("{player} sits out this deal and does not exchange."),
        "muli_breaker": _("{player} sits out this deal and cannot have broken the Muli."),
        "calls": _("{player} deals and sits out, so {player} does not bid."),
    }),
    "exchange_form_not_allowed": ("form", {
        "on_sight_chain": _(
            "{player} cannot take cards on sight after the exchange: only the declarer may, "
            "where these rules allow it."
        ),
        "delayed_trump": _("A delayed trump (Weiß ich noch nicht) is not allowed in these rules."),
    }),
    "face_up_chain_invalid": ("form", {
        "bridge": _(
            "The face-up cards of {player}'s bridge do not add up: it turns up cards until one "
            "is not a trump (with a delayed trump the first one sets trump and counts as one), "
            "unless the talon runs out."
        ),
        "on_sight_chain": _(
            "The cards {player} got on sight do not add up: every one but the last was a trump "
            "that was kept, and there are none without an exchange."
        ),
    }),
    "knock_not_allowed": ("knocks_before", {
        "*": _("A knock does not carry over a collapse in these rules: knocks_before must be 0, "
               "not {knocks_before}."),
    }),
    "not_your_turn": ("play", {"*": _("It is not {player}'s turn; {expected} plays next.")}),
    "wrong_leader": ("trick", {
        1: _("{expected} sits to the dealer's right and leads the first trick."),
    }),
}

#: Exchange forms (docs/rules.md, "Exchange") as words inside messages.
FORM_LABELS: dict[str, Any] = {
    "plain": _("a plain exchange"),
    "on_sight": _("one card on sight"),
    "ace_five": _("five on the ace"),
    "seven_six": _("six on the seven"),
    "bridge": _("the bridge"),
    "on_sight_chain": _("cards on sight after the exchange"),
    "delayed_trump": _("a delayed trump"),
}

#: Why a card does not serve a second-life pile (the reasons of /beat), inside a message.
SERVE_REASONS: dict[str, Any] = {
    "not_higher": _("a card of the same suit must be higher"),
    "trump_only_beaten_by_higher_trump": _("a trump is served only by a higher trump"),
    "different_suit_not_trump": _("a card of another suit serves only if it is a trump"),
    "same_card": _("the same card does not serve"),
}


def _words(code: str, values: dict[str, Any]) -> dict[str, Any]:
    """Parameter values that are codes themselves, as words of the user's language."""
    out = dict(values)
    if isinstance(out.get("form"), str):
        out["form"] = str(FORM_LABELS.get(out["form"], out["form"]))
    if code == "does_not_serve" and isinstance(out.get("reason"), str):
        out["reason"] = str(SERVE_REASONS.get(out["reason"], out["reason"]))
    if code == "seven_six_not_bells" and isinstance(out.get("trump"), str):
        from .cardnames import suit_name

        out["trump"] = suit_name(out["trump"], "german36")
    return out


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _fill(template: Any, values: Mapping[str, Any]) -> str:
    return str(template).format_map(_Defaulting(values))


def _fields(template: Any) -> set[str]:
    return {name for _text, name, _spec, _conv in Formatter().parse(str(template)) if name}


def _fits(template: Any, values: Mapping[str, Any]) -> bool:
    return all(name in values and values[name] not in ("", None)
               for name in _fields(template))


def violation_message(violation: Violation) -> str:
    template = VIOLATIONS.get(violation.code)
    values = {"player": violation.player or "", **violation.params}
    if template is None:
        return gettext("Rule broken: {code}").format(code=violation.code)
    raw, values = values, _words(violation.code, values)
    by = BY_VALUE.get(violation.code)
    if by is not None and by[0] in raw:
        choices = by[1]
        value = raw[by[0]]  # the code itself, not its words
        chosen = choices.get(value) if isinstance(value, str | int) else None
        chosen = chosen if chosen is not None else choices.get("*")
        if chosen is not None and _fits(chosen, values):
            return _fill(chosen, values)
    plural = PLURALS.get(violation.code)
    if plural and isinstance(values.get(plural[0]), int) and _fits(
            str(template), values):  # every placeholder has its value
        return str(plural[1].format(**values))
    for variant in VARIANTS.get(violation.code, ()):
        if _fits(variant, values):
            return _fill(variant, values)
    return _fill(template, values)


def violation_words() -> dict[str, Any]:
    """Every template violation_message() chooses from, in the user's language, for the
    phone's scorer to word the violations it finds as the server would
    (static/provisional.js, ``words``): the codes, their worded parameter values, plural
    forms by CLDR category (``one``, ``other``: de, en and hu have those two), the
    variants, the exchange forms and the trumps (as _words names them)."""
    from .cardnames import SUITS, suit_name

    def one_other(name: str, template: Any) -> dict[str, str]:
        # a lazy plural picks its form by the count it is given (its text has no %)
        return {"one": str(template % {name: 1}), "other": str(template % {name: 2})}

    return {
        "codes": {code: str(text) for code, text in VIOLATIONS.items()},
        "unknown": gettext("Rule broken: {code}"),
        "by_value": {code: [name, {str(value): str(text) for value, text in choices.items()}]
                     for code, (name, choices) in BY_VALUE.items()},
        "plurals": {code: [name, one_other(name, template)]
                    for code, (name, template) in PLURALS.items()},
        "variants": {code: [str(text) for text in texts] for code, texts in VARIANTS.items()},
        "forms": {name: str(text) for name, text in FORM_LABELS.items()},
        "suits": {suit: suit_name(suit, "german36") for suit in SUITS["german"]},
    }


def violation_json(violation: Violation) -> dict[str, Any]:
    out = violation.as_dict()
    out["message"] = violation_message(violation)
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
    return reason if template is None else _fill(template, params)


def beat_reason(code: str) -> str:
    return str(BEAT_REASONS.get(code, code))


FACTOR_LABELS: dict[str, Any] = {
    "hearts": _("♥ hearts"),
    "collapse": _("collapse"),
    "knock": _("knock"),
}

REASON_LABELS: dict[str, Any] = {
    "stayed_home": _("stayed home"),
    "declarer_made": _("made the bid"),
    "declarer_fell": _("declarer fell"),
    "no_trick": _("no trick"),
    "tricks": _("tricks"),
    "muli_made": _("Muli made"),
    "muli_made_other": _("Muli made against"),
    "muli_failed": _("Muli failed"),
    "muli_broken": _("Muli broken"),
    "muli_failed_other": _("Muli failed, no payment"),
    "sitting_out": _("sits out"),
    "none": "",
}


def reason_label(code: str | None) -> str:
    return str(REASON_LABELS.get(code or "none", code or ""))


#: The meaning of every rule parameter (docs/rules.md, "House rules"), for the house-rules form.
PARAMETER_HELP: dict[str, Any] = {
    "pack": _("cards used (german36, or german33 without the sixes but the Weli)"),
    "players_min": _("fewest players at the table"),
    "players_max": _("most players at the table"),
    "start_score": _("everybody starts here"),
    "target_score": _("reaching it or less ends the game"),
    "trick_value": _("minus points per trick taken"),
    "no_trick_penalty": _("plus points for a player who played and took no trick"),
    "declarer_fail_penalty": _("plus points for a declarer short of the bid"),
    "failed_declarer_counts_tricks": _("a failed declarer also gets minus points for tricks"),
    "stay_home_penalty": _("plus points for staying home"),
    "min_bid": _("lowest bid that is not a pass"),
    "min_bid_hearts": _("lowest bid when the declarer then names hearts"),
    "dealer_may_hold": _("the dealer may take over the highest bid (bei mir)"),
    "no_bid_at_or_below": _("a player at or below this score may only pass (null: off)"),
    "must_play_at_or_below": _("a player at or below this score may not stay home"),
    "no_exchange_at_or_below": _("a player at or below this score may not exchange"),
    "max_exchange": _('most cards one player may take (a number, or {"4": 3} per players)'),
    "exchange_capped_by_declarer": _("opponents may not take more cards than the declarer"),
    "hearts_double": _("hearts trump doubles the deal"),
    "hearts_all_play": _("hearts trump: nobody may stay home"),
    "collapse_doubles": _("each collapse doubles the next played deal"),
    "weli_prevents_whiteout": _("the Weli saves a hand from a whiteout"),
    "knock_doubles": _("knocking doubles the deal"),
    "multiplier_cap": _("largest multiplier (null: 2^40, the cap that keeps scores in range)"),
    "muli_all_play": _("Muli: nobody may stay home"),
    "muli_no_exchange": _("Muli: nobody exchanges"),
    "muli_win": _("a Muli that comes off, before multipliers"),
    "muli_fail": _("a Muli that fails, before multipliers"),
    "muli_fail_mode": _("who pays for a failed Muli: all, breaker or trick_takers"),
    "last_player_must_play": _("the declarer may not be left without an opponent"),
    "must_follow_suit": _("Farbzwang: follow suit"),
    "must_trump": _("void in the suit led: must trump"),
    "must_head_trick": _("Stichzwang: must beat the trick if able"),
    "all_pass": _("everybody passed: redeal, or redeal_double"),
    "no_stay_home_twice": _("nobody may stay home in two played deals in a row"),
    "score_floor": _("scores never go below this (null: no floor)"),
    "exchange_on_sight": _("one card on sight: refuse it and take the next one face down"),
    "exchange_ace_five": _("five on the ace: holding the trump ace, take five and return one"),
    "exchange_bridge": _("the bridge (Packerl): five new cards, then face up while trumps"),
    "exchange_seven_six": _("six on the seven: bells trump, keep the bells seven, take six"),
    "delayed_trump": _("the declarer may delay trump (Weiß ich noch nicht) and take a bridge"),
    "declarer_on_sight_chain": _("the declarer's exchange goes on with cards on sight while "
                                 "they are trumps"),
    "knock_survives_collapse": _("a knock on a deal that collapses doubles the next played "
                                 "deal too"),
    "sit_out_at": _("from this many players on, the dealer sits out every deal (null: never)"),
}


#: Card-by-card violations, as shown next to the trick or card they concern: the
#: same codes as VIOLATIONS, worded for a trick on screen (cards by their names).
CARD_ENTRY: dict[str, Any] = {
    "card_played_twice": _("{card} was already played in trick {first_trick}."),
    "card_not_in_pack": _("{card} is not a card of this pack."),
    "trick_cards": _("Trick {trick} needs {expected} cards, one from each player; it has {cards}."),
    "deal_tricks": _("{tricks} of {expected} tricks entered."),
    "wrong_leader": _("{expected} won the trick before, so {expected} leads trick {trick}."),
    "first_leader": _("{expected} sits to the dealer's right and leads the first trick."),
    "leader_missing": _("Who led trick {trick}?"),
    "must_follow_suit": _(
        "{player} did not follow {suit} here but plays {card} in trick {later_trick}: a revoke."
    ),
}

#: Codes the referee reports with different parameters depending on the game or check:
#: the first template whose every placeholder is given (a player only when named) is used.
VARIANTS: dict[str, list[Any]] = {
    "players_count": [
        VIOLATIONS["players_count"],  # count, min, max
        _("This game is for {min} to {max} players, not {actual}."),  # min, max, actual
        _("This game is for exactly {expected} players, not {actual}."),  # expected, actual
    ],
    "tricks_out_of_range": [
        VIOLATIONS["tricks_out_of_range"],  # tricks
        _("{player} cannot have taken {value} tricks: {min} to {max}."),  # value, min, max
    ],
    "figures_out_of_range": [
        VIOLATIONS["figures_out_of_range"],
        _("{player} cannot have {value} figures: {min} to {max}."),  # value, min, max
    ],
    "wrong_number_of_plays": [
        VIOLATIONS["wrong_number_of_plays"],  # one player's plays in a trick
        CARD_ENTRY["trick_cards"],  # a trick card by card: trick, cards, expected
        CARD_ENTRY["deal_tricks"],  # a deal card by card: tricks, expected
    ],
}


def card_violation_message(violation: Violation, pack: str) -> str:
    """A card-by-card violation with card and suit names of ``pack``, not codes."""
    from .cardnames import card_name, suit_name

    values: dict[str, Any] = {"player": violation.player or "", **violation.params}
    if isinstance(values.get("card"), str):
        code = values["card"]
        suit, _sep, rank = code.partition("-")
        values["card"] = card_name(code, pack)
        if values["card"] == code and rank:  # a card of another pack: name it anyway
            values["card"] = f"{suit_name(suit, pack)} {rank}"
    if isinstance(values.get("suit"), str):
        values["suit"] = suit_name(values["suit"], pack)
    code = violation.code
    if code == "wrong_number_of_plays":
        code = "trick_cards" if "trick" in values else "deal_tricks"
    elif code == "wrong_leader" and values.get("trick") == 1:
        code = "first_leader"
    elif code == "unknown_player" and not violation.player and values.get("field") == "leader":
        code = "leader_missing"
    template = CARD_ENTRY.get(code)
    if template is None:
        return violation_message(violation)
    return _fill(template, values)


# --- the Referee page (scorepad/games/<game>/disputes.py) ---------------------------------

#: Each code the Referee page explains: the rule in one sentence and its section of
#: docs/rules.md (the anchor ``/rules/#...`` links to).
RULE_SENTENCES: dict[str, tuple[Any, str]] = {
    # a trick (docs/rules.md, "Tricks")
    "must_follow_suit": (_("A player who holds a card of the suit led must play one."),
                         "following-suit"),
    "must_trump": (_("A player who cannot follow suit but holds a trump must play one."),
                   "trumping"),
    "must_head_trick": (_("A player must beat the best card in the trick when able: with "
                          "the suit led, or else with a trump."), "heading-the-trick"),
    "weli": (_("The Weli (Bells 6) is the second-best trump: it follows a trump lead and "
               "never a bell lead, unless bells are trump."), "the-weli-in-play"),
    "trick_winner": (_("The best trump takes the trick; without a trump, the best card of "
                       "the suit led does."), "trump-order"),
    "no_hand": (_("Without her hand the referee checks the cards, not the duties."),
                "tricks"),
    # the auction (docs/rules.md, "Auction" and "Sitting out")
    "not_your_turn": (_("Players call in turn, clockwise from the dealer's left; only a "
                        "Muli may be called out of turn."), "auction"),
    "duel": (_("After a hold only the dealer and the player whose bid was held call, until "
               "one of them passes or the dealer bids higher."), "holding-and-the-duel"),
    "bid_forbidden_low_score": (_("A player whose score is at or below the limit may only "
                                  "pass."), "auction"),
    "bid_not_higher": (_("A bid must be higher than every bid so far."), "auction"),
    "bid_out_of_range": (_("A bid is a number of tricks from the lowest bid up to 5."),
                         "auction"),
    "hold_not_dealer": (_("Only the dealer may hold: take over the highest bid at the same "
                          "number."), "holding-and-the-duel"),
    "hold_not_allowed": (_("Holding a bid is switched off in these rules."),
                         "holding-and-the-duel"),
    "hold_without_bid": (_("The dealer holds only a bid somebody else made."),
                         "holding-and-the-duel"),
    "auction_over": (_("The dealer's call ends the first round; a bid of 5 ends the "
                       "auction at once."), "auction"),
    "player_sitting_out": (_("At a table where the dealer sits out, the dealer has no part "
                             "in the deal."), "sitting-out"),
    "muli": (_("A Muli does not wait for the player's turn: anybody may call it before the "
               "auction ends."), "muli-out-of-turn"),
    "sitting_out": (_("The dealer sits out; the player on the dealer's right calls last and "
                      "has the dealer's rights."), "sitting-out"),
    # a trick card by card, no trumps
    "mura_winner": (_("The best card of the suit led takes the trick (10, 9, ace, king, "
                      "ober, unter, 8, 7); Mura has no trumps."), "mura-play"),
    "mura_revoke": (_("A player must follow the suit led when able; showing out and "
                      "playing that suit later is a revoke."), "mura-play"),
    "first_lead": (_("The player to the dealer's right, next after the dealer in the order "
                     "of play, leads to the first trick."), "first-lead"),
    # beating, sleeping, swapping, drawing, the second-life pile
    "beat": (_("A card is beaten by a higher card of its suit, or by any trump if it is not "
               "a trump; a trump only by a higher trump."), "beating"),
    "sleep": (_("Holding enough trumps, a player may put them to sleep while the stock "
                "lasts; once it is empty, one or two trumps are enough."), "sleeping"),
    "swap": (_("While the stock lasts, the holder of the lowest trump may take the "
               "turned-up card for it on their turn."), "swapping-the-lowest-trump"),
    "draw": (_("A hand below its size draws up to it from the stock, as long as it "
               "lasts."), "drawing"),
    "does_not_serve": (_("Each card must beat the top card: a higher card of its suit, or a "
                         "trump (on a trump only a higher one); else pick up the top "
                         "card."), "the-second-life-pile"),
    "pile_turn": (_("After the lead, the next player on the left who still holds cards "
                    "acts."), "the-second-life-pile"),
    "pick_up_empty_pile": (_("Only a card on the pile can be picked up."),
                           "the-second-life-pile"),
    "play_after_complete": (_("A pile is full with one card from each player; its last "
                              "card wins it."), "the-second-life-pile"),
}

#: The broken duty of a play, as the Referee page's verdict.
DUTY_VERDICTS: dict[str, Any] = {
    "must_follow_suit": _("Not legal: the player had to follow suit."),
    "must_trump": _("Not legal: the player had to play a trump."),
    "must_head_trick": _("Not legal: the player had to beat the best card (head the trick)."),
}

#: Why a hand may not swap the lowest trump (referee HandState.swap_refused).
SWAP_REFUSALS: dict[str, Any] = {
    "stock_empty": _("No swap: the stock is used up."),
    "turned_up_is_lowest": _("Nothing to swap: the turned-up card is {card} itself."),
    "no_lowest_trump": _("No swap: only the holder of {card} may take the turned-up card."),
}


def rule_sentence(code: str) -> tuple[str, str]:
    """The rule behind ``code`` in one sentence and its anchor in docs/rules.md."""
    sentence, anchor = RULE_SENTENCES.get(code, ("", ""))
    return str(sentence), anchor
