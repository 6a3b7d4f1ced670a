"""Mura's own words: the sentences of the codes its rules report (beside the ones every
game shares, ``messages.SHARED``), a trick entered card by card in its own words, what each
of its rules means, and what the pages that speak of all the games say of it. Their German
and Hungarian are in this package's ``locale/``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from referee.mura import HELP
from referee.violations import Violation

from ...cardnames import card_name, suit_name
from ...messages import SHARED, Wording, fill, lazy_words, violation_message
from .play import TITLE

#: Card-by-card violations, as shown next to the trick or card they concern: the same
#: codes, worded for a trick on screen (cards by their names).
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

WORDING = Wording(
    codes={
        "tricks_out_of_range": _("{player} cannot have taken {value} tricks: {min} to {max}."),
        "figures_missing": _("How many figures did {player} take?"),
        "figures_out_of_range": _("{player} cannot have {figures} figures."),
        "figures_too_few": _("{player} cannot have only {figures} figures with {tricks} tricks."),
        "figures_sum": _("The figures add up to {total}; a deal has an even number from 16 to 24."),
        "figures_without_tricks": _("{player} took no trick and cannot have figures."),
        "figures_too_many": _("{player} cannot have {figures} figures with {tricks} tricks."),
        "wrong_leader": _("The trick was led by the wrong player."),
    },
    variants={
        "figures_out_of_range": [
            _("{player} cannot have {value} figures: {min} to {max}."),  # value, min, max
        ],
        "wrong_number_of_plays": [
            SHARED.codes["wrong_number_of_plays"],  # one player's plays in a trick
            CARD_ENTRY["trick_cards"],  # a trick card by card: trick, cards, expected
            CARD_ENTRY["deal_tricks"],  # a deal card by card: tricks, expected
        ],
    },
    by_value={
        "wrong_leader": ("trick", {
            1: _("{expected} sits to the dealer's right and leads the first trick."),
        }),
    },
)


def card_violation_message(violation: Violation, pack: str) -> str:
    """A card-by-card violation with card and suit names of ``pack``, not codes."""
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
        return violation_message(violation, WORDING)
    return fill(template, values)


#: The meaning of each of its rules, written beside the rule in the referee
#: (``referee.mura.HELP``) and translated here from this package's catalogue.
RULE_HELP: dict[str, Any] = lazy_words(HELP)

#: How the home page names the game, how the start form counts its stake, its note on the
#: group's statistics (what its figures count) and the shared charts its figures are drawn
#: in (none).
ABOUT = pgettext_lazy("keeps the score of", "Mura")
STAKE_UNIT = pgettext_lazy("stake per", "mura")
STATS_NOTE = _("Mura: the tricks taken with too few figures. Zeros: the deals without a "
               "trick.")
CHART_TITLES: dict[str, Any] = {}

#: Each question the Referee page explains: the rule in one sentence and its section of
#: docs/rules.md (the anchor ``/rules/#...`` links to).
RULE_SENTENCES: dict[str, tuple[Any, str]] = {
    "mura_winner": (_("The best card of the suit led takes the trick (10, 9, ace, king, "
                      "ober, unter, 8, 7); Mura has no trumps."), "mura-play"),
    "mura_revoke": (_("A player must follow the suit led when able; showing out and "
                      "playing that suit later is a revoke."), "mura-play"),
    "first_lead": (_("The player to the dealer's right, next after the dealer in the order "
                     "of play, leads to the first trick."), "first-lead"),
}


def preset_lines() -> list[tuple[str, str]]:
    """One set of rules, named like the game (the home page)."""
    return [(TITLE, str(_("the fewest penalty points (mura and zeros) win")))]
