"""What the phone's scorer (``static/scorer.js`` of this package) takes from the referee:
the presets, every parameter, the codes in their order and the constants, as data.

``manage.py scorer_data`` writes it into ``static/rules-data.js`` (scorepad.games.scorerdata);
the scorer's logic mirrors referee.deal and referee.session, and tests/scorepad/test_scorer.py
plays random deals through both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from referee.cards import GERMAN_SUITS, PACKS
from referee.deal import BELLS, CODE_ORDER, HEARTS, MULI, Factor, Reason
from referee.exchange import ACE_FIVE_CARDS, BRIDGE_CARDS, FORM_FIELDS, SEVEN_SIX_CARDS, Form
from referee.rules import (
    HAND_SIZE,
    IMPLICIT_MULTIPLIER_CAP,
    MAX_SCORE,
    MULATSCHAK_PACKS,
    PARAMETER_NAMES,
    PRESETS,
    TRICKS_PER_DEAL,
    mulatschak_rules,
)

from ..base import RECENT_GAMES
from .words import FACTOR_LABELS

if TYPE_CHECKING:
    from ...models import Session


def scorer_data() -> dict[str, Any]:
    return {
        "presets": {name: rules.as_params() for name, rules in PRESETS.items()},
        "parameters": list(PARAMETER_NAMES),
        "code_order": list(CODE_ORDER),
        "tricks_per_deal": TRICKS_PER_DEAL,
        "muli": MULI,
        "hand_size": HAND_SIZE,
        "max_score": MAX_SCORE,
        "implicit_multiplier_cap": IMPLICIT_MULTIPLIER_CAP,
        "suits": list(GERMAN_SUITS),
        "hearts": HEARTS,
        "bells": BELLS,
        "pack_sizes": {name: len(PACKS[name]) for name in MULATSCHAK_PACKS},
        "forms": {str(form): list(FORM_FIELDS[form]) for form in Form},
        "form_cards": {str(Form.ACE_FIVE): ACE_FIVE_CARDS, str(Form.SEVEN_SIX): SEVEN_SIX_CARDS,
                       str(Form.BRIDGE): BRIDGE_CARDS},
        "reasons": [str(r) for r in Reason],
        "factors": [str(f) for f in Factor],
        "recent_games": RECENT_GAMES,
    }


def scorer_texts(session: Session) -> dict[str, Any]:
    """The words of the provisional board (static/phone.js): the multiplier's factors and
    the game's end, as the board's template says them."""
    return {
        "factors": {name: str(label) for name, label in FACTOR_LABELS.items()},
        "game_over": _("Game over"),
        "winner": _("winner"),
        "new_game": _("The next deal starts a new game from %(start)s.")
        % {"start": mulatschak_rules(session.preset, session.rules).start_score},
    }
