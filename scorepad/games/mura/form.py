"""Mura's pages: the scoreboard's context and the deal form (counts, or card by card) with
its live check."""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import suppress
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from referee import tally
from referee.mura import MURA_RULES, MuraRules, check_counts, first_leader
from referee.violations import RuleError

from ...cardnames import card_name, pack_choices
from ...ids import parse_count
from ...loaded import Loaded, Names
from ...messages import input_error_message, violation_message
from ..base import (
    inferred,
    mode_of,
    step,
    stepped_count,
)
from .play import CARD_CODES, NAME, PACK, seat_rules, session_rules, tricks_for
from .words import WORDING, card_violation_message

if TYPE_CHECKING:
    from ...models import Session


# --- the pages: scoreboard, the deal form and its live check -----------------------------------

SESSION_TEMPLATE = "scorepad/session_game.html"
FORM_FRAGMENT = "scorepad/session_game.html#gameform"
#: The form itself, which session_game.html's ``gameform`` includes.
FORM_PART = f"scorepad/_form_{NAME}.html"
EDIT_TEMPLATE = "scorepad/deal_edit_game.html"
#: The game's parts of the pages every game shares: the scoreboard, the paper sheet (it
#: extends scorepad/sheet.html) and the settlement's words on the rules of money.
BOARD_TEMPLATE = "scorepad/_board_mura.html"
SHEET_TEMPLATE = "scorepad/sheet_mura.html"
SUMMARY_TEMPLATE = f"scorepad/_deal_summary_{NAME}.html"
SESSION_LINE_TEMPLATE = f"scorepad/_session_line_{NAME}.html"
MONEY_RULES_TEMPLATE = "scorepad/_money_rules_mura.html"
#: Counts (the default) or card by card.
MODES = ("", "cards")


def _figures_by_tricks(rules: MuraRules = MURA_RULES) -> dict[int, tuple[int, int]]:
    """For each number of tricks, the fewest and the most figures a player can have taken
    with them, as the referee judges a player's counts (asked of it, not retyped)."""
    seats = [str(i) for i in range(rules.players)]
    out = {}
    for t in range(rules.tricks_per_deal + 1):
        fine = [f for f in range(rules.max_figures_total + 1)
                if not any(v.player == seats[0] for v in
                           check_counts(seats, {seats[0]: t}, {seats[0]: f}, rules).violations)]
        out[t] = (min(fine), max(fine))
    return out


@lru_cache(maxsize=32)
def phone_rules(rules: MuraRules = MURA_RULES) -> dict[str, Any]:
    """What the phone needs to know of a session's rules, from the referee
    (static/cardpicker.js): the ranks from high to low (the best card of the suit led takes
    a trick, no trumps: the next leader is known the moment a trick is complete), the
    numbers of the pad the counts are tapped on, and the figures it offers for each number
    of tricks."""
    return {"trick_ranks": " ".join(rules.card_pack.ranks),
            "pad_numbers": range(rules.max_figures_total + 1),
            "pad_ranges": json.dumps(_figures_by_tricks(rules), separators=(",", ":"))}


#: The referee's own rules' (four players).
PHONE_RULES = phone_rules()


def recorded_message(number: int) -> str:
    return _("Deal %(n)s recorded.") % {"n": number}


def start_parts(form: Any) -> dict[str, Any]:
    """What the start form shows for this game (a note on the seats)."""
    return {"note": _("Mura: exactly four players, listed counter-clockwise (the order of "
                      "play).")}


def again_rules(session: Session) -> tuple[str, list[tuple[str, str]]]:
    """No presets, no house rules on the start form."""
    return "", []


def form_rules(cleaned: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any] | None]:
    """The start form's presets and house rules are Mulatschak's: none of them here."""
    return None, None


def keeps_typing(post: Any) -> bool:
    """Every Mura form holds what somebody typed: kept when another phone recorded its
    deal first."""
    return True


def form_shows_errors(mode: str) -> bool:
    return True


def board_context(loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]:
    names = loaded.names
    rows = []
    for name in names.by_id.values():
        row: dict[str, Any] = {"player": name, "mura": board["mura"][name],
                               "zeros": board["zeros"][name],
                               "next": board["zeros_to_next_mura"][name]}
        if "balances" in board:
            row["balance"] = board["balances"][name]
        rows.append(row)
    return {"rows": rows, "recent": recent(loaded)}


def recent(loaded: Loaded, count: int = 8) -> list[dict[str, Any]]:
    return [{"number": d.number, "result": loaded.names.deal_names(d.result), "kind": d.kind}
            for d in loaded.session.deals.order_by("-number")[:count]]


def counts_entry(post: Any, seats: list[str]) -> dict[str, dict[str, int | None]]:
    """Tricks ``t_<seat>`` and figures ``f_<seat>``, with a stepper ``step=t<seat>:+1``."""
    tricks = {p: parse_count(post.get(f"t_{i}")) for i, p in enumerate(seats)}
    figures = {p: parse_count(post.get(f"f_{i}")) for i, p in enumerate(seats)}
    tapped = step(post.get("step") or "", seats, ("t", "f"))
    if tapped is not None:
        what, player, delta = tapped
        auto = counts_auto({"tricks": tricks, "figures": figures})
        if what == "t":
            stepped_count(tricks, player, delta, auto["tricks"], tricks_for(len(seats)))
        else:
            stepped_count(figures, player, delta, auto["figures"], None)
    return {"tricks": tricks, "figures": figures}


def counts_auto(entry: dict[str, dict[str, int | None]]) -> dict[str, dict[str, int]]:
    """Blank counts that can only be one number (base.inferred): the last player's tricks
    from the remainder, and no figures for a player who took no trick."""
    tricks = inferred(entry["tricks"], tricks_for(len(entry["tricks"])))
    shown = {p: tricks.get(p) if n is None else n for p, n in entry["tricks"].items()}
    figures = {p: 0 for p, n in entry["figures"].items() if n is None and shown.get(p) == 0}
    return {"tricks": tricks, "figures": figures}


def counts_data(entry: dict[str, dict[str, int | None]]) -> dict[str, Any]:
    """The referee's counts: a blank that can only be one number is that number; any
    other blank stays missing, for the referee to name (as in Mulatschak)."""
    auto = counts_auto(entry)
    return {key: {p: auto[key][p] if n is None else n for p, n in counts.items()
                  if n is not None or p in auto[key]}
            for key, counts in entry.items()}


def cards_entry(post: Any, seats: list[str]) -> list[dict[str, Any]]:
    """The deal's tricks (eight at four players) as typed: leader ``l_<trick>`` (a seat
    index) and the card code of each seat ``c_<trick>_<seat>``; blank stays blank."""
    out = []
    for t in range(tricks_for(len(seats))):
        lead = parse_count(post.get(f"l_{t}"))
        leader = seats[lead] if lead is not None and 0 <= lead < len(seats) else None
        cards = {p: str(post.get(f"c_{t}_{i}") or "").strip() for i, p in enumerate(seats)}
        out.append({"leader": leader, "cards": cards})
    return out


def _blank(trick: dict[str, Any]) -> bool:
    return trick["leader"] is None and not any(trick["cards"].values())


def cards_data(entry: list[dict[str, Any]]) -> dict[str, Any]:
    """The referee's ``trick_cards`` (names): the tricks up to the last one begun; a blank
    card is left out and a blank leader is "" — the referee names both."""
    last = max((t for t, trick in enumerate(entry) if not _blank(trick)), default=-1)
    return {"trick_cards": [
        {"leader": trick["leader"] or "",
         "cards": {p: code for p, code in trick["cards"].items() if code}}
        for trick in entry[: last + 1]
    ]}


def _check_cards(names: Names, entry: list[dict[str, Any]], dealer: str | None = None,
                 rules: MuraRules | None = None) -> Any:
    """The referee's verdict; a blank leader after a decided trick is taken to be that
    trick's winner (the referee still checks it), so a phone fills in one leader only.
    With the ``dealer`` (a player id), the first trick's leader is checked too (docs/rules.md,
    "First lead"). ``rules``: the session's (the referee's for its seats without one)."""
    rules = rules or seat_rules(len(names.seats))
    while True:
        result = tally.mura_check(names.seats, names.deal_ids(cards_data(entry)), rules,
                                  dealer=dealer)
        filled = False
        for outcome, trick in zip(result.tricks[:-1], entry[1:], strict=False):
            if trick["leader"] is None and outcome.winner is not None and any(
                    trick["cards"].values()):
                trick["leader"] = names.to_name(outcome.winner)
                filled = True
                break
        if not filled:
            return result


def form_deal(post: Any, names: Names) -> dict[str, Any]:
    """The deal a sent form records (names)."""
    seats = list(names.by_id.values())
    if mode_of(MODES, post) == "cards":
        entry = cards_entry(post, seats)
        with suppress(RuleError):  # the service reports it
            _check_cards(names, entry)  # fills in leaders as the form shows them
        return cards_data(entry)
    return counts_data(counts_entry(post, seats))


def form_values(data: dict[str, Any], seats: list[str]) -> tuple[QueryDict, str]:
    """A recorded deal (names) as the form that records it, and that form's mode."""
    post = QueryDict(mutable=True)
    if data.get("trick_cards") is not None:
        for t, trick in enumerate(data["trick_cards"][:tricks_for(len(seats))]):
            if trick.get("leader") in seats:
                post[f"l_{t}"] = str(seats.index(trick["leader"]))
            for p, code in (trick.get("cards") or {}).items():
                if p in seats:
                    post[f"c_{t}_{seats.index(p)}"] = code
        return post, "cards"
    for i, p in enumerate(seats):
        for key, prefix in (("tricks", "t"), ("figures", "f")):
            if p in (data.get(key) or {}):
                post[f"{prefix}_{i}"] = str(data[key][p])
    return post, ""


def entry_context(loaded: Loaded, post: Any, *, number: int | None = None, mode: str = "",
                  submitted: bool = False) -> dict[str, Any]:
    """The deal form: by counts (the default) or card by card (``mode="cards"``), checked
    by the referee as it is filled in."""
    names = loaded.names
    seats = list(names.by_id.values())
    rules = session_rules(loaded.session)
    context: dict[str, Any] = {"number": number, "seats": seats, "mode": mode,
                               "game_form": FORM_PART, "tricks_per_deal": rules.tricks_per_deal,
                               # the card picker and the number pad of its form
                               # (templates/scorepad/_entry_scripts.html)
                               "entry_widgets": ("cardpicker.js",),
                               **phone_rules(rules)}
    if mode == "cards":
        return context | _cards_context(names, post, submitted, _dealer_of(loaded, number),
                                        rules)
    entry = counts_entry(post, seats)
    violations: list[dict[str, Any]] = []
    hints: list[str] = []
    results: dict[str, Any] = {}
    if post:
        try:
            result = tally.mura_check(names.seats, names.deal_ids(counts_data(entry)), rules)
        except RuleError as e:
            violations.append({"player": None, "message": input_error_message(e)})
        else:
            missing = []
            for v in result.violations:
                v = names.violation(v)
                if not submitted and v.code in ("tricks_missing", "figures_missing"):
                    missing.append(v.player)  # not an error yet while typing: a hint
                    continue
                violations.append({"player": v.player, "message": violation_message(v, WORDING)})
            if missing:
                hints.append(_("Still to enter: %(names)s.")
                             % {"names": ", ".join(dict.fromkeys(p for p in missing if p))})
            if result.legal:
                results = {names.to_name(p): r for p, r in result.results.items()}
    auto = counts_auto(entry)
    rows = [
        {"index": i, "name": p, "tricks": entry["tricks"][p], "figures": entry["figures"][p],
         "auto_tricks": auto["tricks"].get(p), "auto_figures": auto["figures"].get(p),
         "errors": [v["message"] for v in violations if v["player"] == p],
         "result": results.get(p)}
        for i, p in enumerate(seats)
    ]
    left = (rules.tricks_per_deal - sum(n or 0 for n in entry["tricks"].values())
            - sum(auto["tricks"].values()))
    return context | {
        "entry_rows": rows, "tricks_left": left, "hints": hints,
        "general_errors": [v["message"] for v in violations if not v["player"]],
        "legal": bool(post) and not violations and not hints,
    }


def _dealer_of(loaded: Loaded, number: int | None) -> str | None:
    """The dealer (id) of the next deal, or of deal ``number`` (one query) when corrected."""
    if number is None:
        return str(loaded.session.state.get("dealer") or "") or None
    result = loaded.session.deals.filter(number=number).values_list("result", flat=True).first()
    return None if result is None else result.get("dealer")


def _cards_context(names: Names, post: Any, submitted: bool = False,
                   dealer: str | None = None, rules: MuraRules | None = None
                   ) -> dict[str, Any]:
    """The deal's tricks with the referee's verdict next to each trick, leader and card,
    what each trick gave whom, and each player's derived tricks, figures and mura. With
    the ``dealer`` (an id) the first trick's leader is offered and checked (docs/rules.md,
    "First lead")."""
    seats = list(names.by_id.values())
    entry = cards_entry(post, seats)
    if dealer is not None and dealer not in names.by_id:
        dealer = None
    opening = None if dealer is None else names.to_name(first_leader(names.seats, dealer))
    by_trick: dict[tuple[int, str | None], list[str]] = {}
    general: list[str] = []
    outcomes: list[Any] = []
    results: dict[str, Any] = {}
    checked = bool(post) and (submitted or any(not _blank(t) for t in entry))
    legal = False
    if checked:
        try:
            result = _check_cards(names, entry, dealer, rules)
        except RuleError as e:
            where = e.field.split(".")  # trick_cards.<index>.cards.<player id>
            message = input_error_message(e)
            if len(where) == 4 and where[1].isdigit():
                by_trick.setdefault((int(where[1]), names.to_name(where[3])), []).append(message)
            else:
                general.append(message)
        else:
            legal = result.legal
            card_level = any(v.code in CARD_CODES for v in result.violations)
            for v in result.violations:
                if card_level and v.code not in CARD_CODES:
                    continue
                v = names.violation(v)
                message = card_violation_message(v, PACK)
                trick = v.params.get("trick")
                if not isinstance(trick, int):
                    general.append(message)
                    continue
                if (not submitted and v.code == "wrong_number_of_plays"
                        and trick == len(result.tricks)):
                    continue  # the trick being entered: the count of tricks says it
                if v.code == "wrong_leader" or v.params.get("field") == "leader":
                    key: str | None = "leader"
                elif v.code == "wrong_number_of_plays" or v.params.get("field") == "cards":
                    key = None
                else:
                    key = v.player
                by_trick.setdefault((trick - 1, key), []).append(message)
            outcomes = list(result.tricks)
            results = {names.to_name(p): r for p, r in result.results.items()}
    if entry and opening is not None and _blank(entry[0]):
        entry[0]["leader"] = opening  # who leads the first trick follows from the dealer
    tricks = []
    first_open = next((t for t, trick in enumerate(entry)
                       if trick["leader"] is None or not all(trick["cards"].values())), None)
    if first_open is not None and 0 < first_open <= len(outcomes) and _blank(entry[first_open]):
        winner = outcomes[first_open - 1].winner
        entry[first_open]["leader"] = names.to_name(winner) if winner else None
    for t, trick in enumerate(entry):
        leader = trick["leader"]
        start_at = seats.index(leader) if leader in seats else 0
        order = seats[start_at:] + seats[:start_at]
        outcome = outcomes[t] if t < len(outcomes) else None
        errors = by_trick.get((t, None), [])
        rows = [{"seat": seats.index(p), "name": p, "card": trick["cards"][p],
                 "errors": by_trick.get((t, p), [])} for p in order]
        has_errors = bool(errors or by_trick.get((t, "leader")) or any(r["errors"] for r in rows))
        tricks.append({
            "index": t, "number": t + 1, "leader": leader,
            "leader_seat": seats.index(leader) if leader in seats else None,
            "leader_errors": by_trick.get((t, "leader"), []),
            "errors": errors, "rows": rows,
            "winner": (names.to_name(outcome.winner)
                       if outcome and outcome.winner and all(trick["cards"].values()) else None),
            "figures": outcome.figures if outcome else 0,
            "open": has_errors or t == first_open,
            "summary": ", ".join(card_name(r["card"], PACK) for r in rows if r["card"]),
        })
    summary_rows = [{"name": p, "result": results.get(p)} for p in seats] if results else []
    return {"tricks": tricks, "summary": summary_rows, "general_errors": general,
            "legal": checked and legal, "pack": pack_choices(PACK)}
