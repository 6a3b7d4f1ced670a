"""Mulatschak's own words: the sentences of the codes its rules report (beside the ones
every game shares, ``messages.SHARED``), what each house rule means, and what the pages
that speak of all the games say of it. Their German and Hungarian are in this package's
``locale/``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy, pgettext_lazy

from referee.rules import HELP, PRESETS

from ...cardnames import SUITS
from ...messages import Wording, lazy_words

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

WORDING = Wording(
    codes={
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
        "tricks_for_absent": _("{player} stayed home and cannot have taken tricks."),
        "tricks_out_of_range": _("{player} cannot have taken {tricks} tricks: 0 to 5."),
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
        "bid_not_higher": _("{player} must bid more than {highest}, or pass."),
        "hold_not_dealer": _("Only the dealer may hold a bid."),
        "hold_not_allowed": _("Holding a bid is not allowed in these rules."),
        "hold_without_bid": _("There is no bid to hold."),
        "not_your_turn": _("It is not {player}'s turn; {expected} calls next."),
        "auction_over": _("The auction is already over; {player} cannot call any more."),
        "auction_incomplete": _("The auction is not over yet: {player} calls next."),
        "must_trump": _("{player} cannot follow suit and must play a trump."),
        "must_head_trick": _("{player} must beat the best card in the trick if able."),
        "auction_mismatch": _(
            "The bidding makes {declarer} declare {bid}, not what the deal says."),
    },
    #: codes worded by the value of one parameter (``"*"``: whenever it is given)
    by_value={
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
            "delayed_trump": _(
                "A delayed trump (Weiß ich noch nicht) is not allowed in these rules."),
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
            "*": _("A knock does not carry over a collapse in these rules: knocks_before "
                   "must be 0, not {knocks_before}."),
        }),
    },
    #: messages with a count in them: the right plural in every language ("has 1 point")
    plurals={
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
    },
    values={"form": FORM_LABELS, "trump": SUITS["german"]},
)

#: The words of the values of the house rules that are one of a few (their codes are the
#: API's): what the start form offers and each preset's value.
CHOICE_WORDS: dict[str, dict[str, Any]] = {
    "pack": {"german36": _("36 cards"), "german33": _("33 cards, with the Weli")},
    "muli_fail_mode": {"all": _("all who played"), "breaker": _("the one who broke it"),
                       "trick_takers": _("those who took a trick")},
    "all_pass": {"redeal": _("deal again"),
                 "redeal_double": _("deal again, the next deal doubled")},
}

#: The meaning of every house rule, written beside the rule in the referee
#: (``referee.rules.HELP``) and translated here from this package's catalogue.
RULE_HELP: dict[str, Any] = lazy_words(HELP)

#: How the home page names the game ("Schreiber keeps the score of ..."), how the start
#: form counts its stake ("Stake per ..."), its note on the group's statistics table and the
#: titles of the shared charts its figures are drawn in (``won_games``, ``session_points``).
ABOUT = pgettext_lazy("keeps the score of", "Mulatschak, Muli and Murln")
STAKE_UNIT = pgettext_lazy("stake per", "point")
STATS_NOTE = _("Points per deal: lower is better (scores count down).")
CHART_TITLES: dict[str, Any] = {
    "wins": _("Line chart of Mulatschak games won so far"),
    "points": _("Line chart of Mulatschak points per session"),
}

#: The factors of a deal's multiplier, and why a score changed, on the pages.
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
    "muli_made_other": _("the declarer's Muli came off"),
    "muli_failed": _("Muli failed"),
    "muli_broken": _("Muli broken"),
    "muli_failed_other": _("Muli failed, no payment"),
    "sitting_out": _("sits out"),
    "none": "",
}


def reason_label(code: str | None) -> str:
    return str(REASON_LABELS.get(code or "none", code or ""))


# --- the Referee page (disputes.py) ---------------------------------------------------------

#: Each code the Referee page explains: the rule in one sentence and its section of
#: docs/rules.md (the anchor ``/rules/#...`` links to).
RULE_SENTENCES: dict[str, tuple[Any, str]] = {
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
}

#: The broken duty of a play, as the Referee page's verdict.
DUTY_VERDICTS: dict[str, Any] = {
    "must_follow_suit": _("Not legal: the player had to follow suit."),
    "must_trump": _("Not legal: the player had to play a trump."),
    "must_head_trick": _("Not legal: the player had to beat the best card (head the trick)."),
}


def preset_lines() -> list[tuple[str, str]]:
    """Each preset by its name, with the score it starts from (the home page)."""
    return [(preset.title, ngettext("start at %(n)s point", "start at %(n)s points",
                                    preset.start_score) % {"n": preset.start_score})
            for preset in PRESETS.values()]
