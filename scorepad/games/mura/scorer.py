"""What the phone's scorer (``static/scorer.js`` of this package) takes from the referee:
the rules, the pack and the constants of a deal, as data.

``manage.py scorer_data`` writes it into ``static/rules-data.js`` (scorepad.games.scorerdata);
the scorer's logic mirrors referee.mura and referee.tally (as .play calls them), and
tests/scorepad/test_scorer.py plays random deals through both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import ngettext

from referee.cards import ALL_RANKS, ALL_SUITS
from referee.mura import FIGURE_RANKS, MURA_RULES, WINNING_ACE_FIGURES

from .play import FIRST_LEAD

if TYPE_CHECKING:
    from ...models import Session


def scorer_data() -> dict[str, Any]:
    pack = MURA_RULES.card_pack
    return {
        # the referee's defaults: .play checks and scores every deal with the session's
        # frozen rules (play.session_rules), these for a parameter they lack; a deal has
        # pack_cards // players tricks (MuraRules.tricks_per_deal)
        "rules": MURA_RULES.as_params(),
        "pack_cards": len(pack),
        "blank_cards": MURA_RULES.blank_cards,
        "min_figures_total": MURA_RULES.min_figures_total,
        "max_figures_total": MURA_RULES.max_figures_total,
        "pack": {"name": pack.name, "suits": list(pack.suits), "ranks": list(pack.ranks),
                 "aliases": dict(pack.aliases),
                 "excluded": sorted(card.code for card in pack.excluded)},
        "all_suits": sorted(ALL_SUITS),
        "all_ranks": sorted(ALL_RANKS),
        "figure_ranks": sorted(FIGURE_RANKS),
        "winning_ace_figures": WINNING_ACE_FIGURES,
        "first_lead": FIRST_LEAD,
    }


def scorer_texts(session: Session) -> dict[str, Any]:
    """The words of the provisional board (static/phone.js) that count something, as the
    board's template says them: each in its two forms (one, other; the plural forms of
    every language here), for the phone to pick by the number."""
    return {"deals": _forms("%(n)s deal", "%(n)s deals"),
            "to_go": _forms("%(n)s to go", "%(n)s to go"),
            "to_next": _forms("%(n)s to the next mura", "%(n)s to the next mura")}


def _forms(singular: str, plural: str) -> dict[str, str]:
    return {"one": ngettext(singular, plural, 1), "other": ngettext(singular, plural, 2)}
