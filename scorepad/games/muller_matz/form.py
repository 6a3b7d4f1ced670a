"""Müller Matz's pages: the scoreboard's context and the game form with its check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from referee.muller_matz import MullerMatzRules, check_result, packs_for

from ...loaded import Loaded, Names
from ...messages import violation_message
from ..base import mode_of
from .play import session_rules
from .words import WORDING

if TYPE_CHECKING:
    from ...models import Session


# --- the pages: scoreboard, the game form ----------------------------------------------------

SESSION_TEMPLATE = "scorepad/session_game.html"
FORM_FRAGMENT = "scorepad/session_game.html#gameform"
#: The form itself, which session_game.html's ``gameform`` includes.
FORM_PART = "scorepad/_form_muller_matz.html"
EDIT_TEMPLATE = "scorepad/deal_edit_game.html"
#: The game's parts of the pages every game shares: the scoreboard, the paper sheet (it
#: extends scorepad/sheet.html) and the settlement's words on the rules of money.
BOARD_TEMPLATE = "scorepad/_board_matz.html"
SHEET_TEMPLATE = "scorepad/sheet_muller_matz.html"
SUMMARY_TEMPLATE = "scorepad/_deal_summary_muller_matz.html"
SESSION_LINE_TEMPLATE = "scorepad/_session_line_muller_matz.html"
MONEY_RULES_TEMPLATE = "scorepad/_money_rules_muller_matz.html"
#: The loser with one tap (the default), or the whole finishing order.
MODES = ("", "order")


def recorded_message(number: int) -> str:
    return _("Game %(n)s recorded.") % {"n": number}


def start_parts(form: Any) -> dict[str, Any]:
    """What the start form shows for this game (nothing more)."""
    return {}


def again_rules(session: Session) -> tuple[str, list[tuple[str, str]]]:
    """No presets, no house rules on the start form."""
    return "", []


def form_rules(cleaned: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any] | None]:
    """The start form's presets and house rules are Mulatschak's: none of them here."""
    return None, None


def keeps_typing(post: Any) -> bool:
    """A finishing order is typed (kept when another phone recorded its game first); the
    loser is one tap."""
    return mode_of(MODES, post) == "order"


def form_shows_errors(mode: str) -> bool:
    """The one-tap loser buttons show no errors next to them: say them as a message."""
    return mode == "order"


def board_context(loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]:
    rows = []
    for name in loaded.names.by_id.values():
        row: dict[str, Any] = {"player": name, "losses": board["losses"][name]}
        if "balances" in board:
            row["balance"] = board["balances"][name]
        rows.append(row)
    recent = [{"number": d.number, "result": loaded.names.deal_names(d.result), "kind": d.kind}
              for d in loaded.session.deals.order_by("-number")[:8]]
    return {"rows": rows, "recent": recent}


def order_entry(post: Any, seats: list[str]) -> list[str]:
    """Who went out first, second, ... last: ``o_<place>`` holds a seated name."""
    return [str(post.get(f"o_{k}") or "").strip() for k in range(len(seats))]


def form_deal(post: Any, names: Names) -> dict[str, Any]:
    """The game a sent form records (names)."""
    if post.get("mode") == "order":
        return {"finish_order": order_entry(post, list(names.by_id.values()))}
    return {"loser": post.get("loser") or ""}


def form_values(data: dict[str, Any], seats: list[str]) -> tuple[QueryDict, str]:
    """A recorded game (names) as the form that records it, and that form's mode."""
    post = QueryDict(mutable=True)
    if data.get("finish_order") is not None:
        for k, p in enumerate(data["finish_order"]):
            post[f"o_{k}"] = p
        post["loser"] = data["finish_order"][-1] if data["finish_order"] else ""
        return post, "order"
    if data.get("loser"):
        post["loser"] = data["loser"]
    return post, ""


def entry_context(loaded: Loaded, post: Any, *, number: int | None = None, mode: str = "",
                  submitted: bool = False) -> dict[str, Any]:
    """The game form: the loser's button (the default) or the finishing order."""
    names = loaded.names
    seats = list(names.by_id.values())
    context: dict[str, Any] = {"number": number, "seats": seats, "mode": mode,
                               "game_form": FORM_PART, "counts_games": True}
    if number is not None:
        context["current_loser"] = (post or {}).get("loser")
    if mode == "order":
        context |= _order_context(names, post or {}, submitted, session_rules(loaded.session))
    return context


def _order_context(names: Names, post: Any, submitted: bool,
                   rules: MullerMatzRules) -> dict[str, Any]:
    """The finishing order, checked by the referee: a player listed twice is named next to
    the place they are listed again; a blank place is named once the form was sent."""
    seats = list(names.by_id.values())
    order = order_entry(post, seats)
    errors: dict[int, list[str]] = {}
    general: list[str] = []
    given = [name for name in order if name]
    legal = False
    if given:
        ids = names.deal_ids({"finish_order": given})["finish_order"]
        result = check_result(names.seats, ids, rules=rules)
        complete = len(given) == len(order)
        legal = complete and result.legal
        for v in result.violations:
            v = names.violation(v)
            if v.code == "player_missing" and not complete:
                continue  # the blank places say it
            at = [k for k, name in enumerate(order) if name and names.to_id(name) == names.to_id(
                v.player or "")]
            if v.code == "player_listed_twice":
                at = at[1:]
            if not at:
                general.append(violation_message(v, WORDING))
            for k in at:
                errors.setdefault(k, []).append(violation_message(v, WORDING))
    if submitted:
        for k, name in enumerate(order):
            if not name:
                errors.setdefault(k, []).append(_("Who finished in this place?"))
    last = len(seats) - 1
    places = [{"index": k, "value": order[k], "errors": errors.get(k, []), "last": k == last}
              for k in range(len(seats))]
    return {"places": places, "general_errors": general, "legal": legal,
            "packs": packs_for(len(seats), rules),
            "winner": order[0] if legal else None, "loser": order[-1] if legal else None}
