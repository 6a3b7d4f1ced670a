"""Müller Matz's own words: the sentences of the codes its rules report (beside the ones
every game shares, ``messages.SHARED``), why a card beats or not, what each of its rules
means, and what the pages that speak of all the games say of it. Their German and
Hungarian are in this package's ``locale/``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from referee.muller_matz import HELP

from ...messages import Wording, lazy_words
from .play import TITLE

#: Why a card does not serve a second-life pile (the reasons of /beat), inside a message.
SERVE_REASONS: dict[str, Any] = {
    "not_higher": _("a card of the same suit must be higher"),
    "trump_only_beaten_by_higher_trump": _("a trump is served only by a higher trump"),
    "different_suit_not_trump": _("a card of another suit serves only if it is a trump"),
    "same_card": _("the same card does not serve"),
}

WORDING = Wording(
    codes={
        "not_your_turn": _("It is not {player}'s turn; {expected} plays next."),
        "player_listed_twice": _("{player} is listed twice in the finishing order."),
        "player_missing": _("{player} is missing from the finishing order."),
        "loser_not_last": _("The loser {player} must be the last in the finishing order."),
        "does_not_serve": _("{player} cannot serve {top} with {card}: {reason}."),
        "pick_up_empty_pile": _("{player} cannot pick up: the pile is empty."),
        "play_after_complete": _("The pile is complete; {player} cannot play on it."),
    },
    values={"reason": SERVE_REASONS},
)

#: Whether a card beats another, and why (the reasons of /beat and the Referee page).
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


def beat_reason(code: str) -> str:
    return str(BEAT_REASONS.get(code, code))


#: Why a hand may not swap the lowest trump (referee HandState.swap_refused).
SWAP_REFUSALS: dict[str, Any] = {
    "stock_empty": _("No swap: the stock is used up."),
    "turned_up_is_lowest": _("Nothing to swap: the turned-up card is {card} itself."),
    "no_lowest_trump": _("No swap: only the holder of {card} may take the turned-up card."),
}

#: The meaning of each of its rules, written beside the rule in the referee
#: (``referee.muller_matz.HELP``) and translated here from this package's catalogue.
RULE_HELP: dict[str, Any] = lazy_words(HELP)

#: How the home page names the game, how the start form counts its stake, its note on the
#: group's statistics (what its figures count) and the shared charts its figures are drawn
#: in (none).
ABOUT = pgettext_lazy("keeps the score of", "Müller Matz")
STAKE_UNIT = pgettext_lazy("stake per", "lost game")
STATS_NOTE = _("Müller Matz: the games a player lost.")
CHART_TITLES: dict[str, Any] = {}

#: Each question the Referee page explains: the rule in one sentence and its section of
#: docs/rules.md (the anchor ``/rules/#...`` links to).
RULE_SENTENCES: dict[str, tuple[Any, str]] = {
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


def preset_lines() -> list[tuple[str, str]]:
    """One set of rules, named like the game (the home page)."""
    return [(TITLE, str(_("the fewest games lost win")))]
