"""What the phone's scorer (``static/scorer.js`` of this package) takes from the referee:
the rules a game's result is checked with, as data.

``manage.py scorer_data`` writes it into ``static/rules-data.js`` (scorepad.games.scorerdata);
the scorer's logic mirrors referee.muller_matz and referee.tally (as .play calls them), and
tests/scorepad/test_scorer.py plays random games through both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import ngettext

from referee.muller_matz import MULLER_MATZ_RULES

if TYPE_CHECKING:
    from ...models import Session


def scorer_data() -> dict[str, Any]:
    # the referee's defaults: .play checks every result with the session's frozen rules
    # (play.session_rules), these for a parameter they lack, and the board counts the
    # packs with them too (packs_for)
    return {"rules": MULLER_MATZ_RULES.as_params()}


def scorer_texts(session: Session) -> dict[str, Any]:
    """The words of the provisional board (static/phone.js) that count something, as the
    board's template says them: in its two forms (one, other; the plural forms of every
    language here), for the phone to pick by the number."""
    return {"games": {"one": ngettext("%(n)s game", "%(n)s games", 1),
                      "other": ngettext("%(n)s game", "%(n)s games", 2)}}
