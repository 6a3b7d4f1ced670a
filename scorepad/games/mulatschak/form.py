"""Mulatschak's pages: the scoreboard's context, the deal form (a state machine on the
sent fields, steppers without JavaScript) and its live check by the referee."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee.deal import MULI
from referee.rules import PRESETS, MulatschakRules
from referee.session import next_sitting_out

from ...cardnames import TRUMP_NAMES
from ...errors import InputError
from ...ids import parse_count
from ...loaded import Loaded, Names
from ...messages import input_error_message, violation_message
from ..base import inferred, step, stepped_count
from .play import MULI_NAMES, NAME, factors_text, preview, session_rules, state_from_json
from .words import WORDING, reason_label

if TYPE_CHECKING:
    from ...models import Session


# --- the pages: scoreboard, the deal form and its live check -----------------------------------

SESSION_TEMPLATE = "scorepad/session_game.html"
FORM_FRAGMENT = "scorepad/session_game.html#gameform"
#: The form itself, which session_game.html's ``gameform`` includes, and the head of the
#: entry panel above the deals not sent yet.
FORM_PART = "scorepad/_form_mulatschak.html"
ENTRY_HEAD = "scorepad/_entry_head_mulatschak.html"
EDIT_TEMPLATE = "scorepad/deal_edit.html"
#: The game's parts of the pages every game shares: the scoreboard, the paper sheet (it
#: extends scorepad/sheet.html) and the settlement's words on the rules of money.
BOARD_TEMPLATE = "scorepad/_board_mulatschak.html"
SHEET_TEMPLATE = "scorepad/sheet_mulatschak.html"
SUMMARY_TEMPLATE = f"scorepad/_deal_summary_{NAME}.html"
SESSION_LINE_TEMPLATE = f"scorepad/_session_line_{NAME}.html"
MONEY_RULES_TEMPLATE = "scorepad/_money_rules_mulatschak.html"
MODES = ("",)
#: The trump suits the form offers, with their names.
TRUMPS = TRUMP_NAMES
#: The deals the scoreboard lists below the scores.
RECENT_DEALS = 8


def recorded_message(number: int) -> str:
    return _("Deal %(n)s recorded.") % {"n": number}


def start_parts(form: Any) -> dict[str, Any]:
    """The start form's presets and house rules."""
    from .startform import rules_table

    return {"rules_legend": _("Rules (Mulatschak)"), "house_rules": rules_table(form)}


def again_rules(session: Session) -> tuple[str, list[tuple[str, str]]]:
    """The session's preset and the house rules that differ from it, as the start form
    takes them (a preset that is no more: the form's default, no house rules)."""
    if session.preset not in PRESETS:
        return "", []
    preset = PRESETS[session.preset].as_params()
    return session.preset, [(f"rule_{name}", json.dumps(value))
                            for name, value in (session.rules or {}).items()
                            if name in preset and preset[name] != value]


def form_rules(cleaned: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any] | None]:
    """The preset and house rules chosen on the form that starts a session."""
    return cleaned["preset"], cleaned["overrides"]


def keeps_typing(post: Any) -> bool:
    """Does a sent form hold what somebody typed (a played deal), worth keeping when
    another phone recorded its deal first? Collapsed and all passed are one tap."""
    return (post.get("kind") or "played") not in ("collapsed", "passed")


def form_shows_errors(mode: str) -> bool:
    return True


class DealEntry:
    """The deal form's data, parsed from POST (or GET) parameters.

    Field names: ``kind``, ``declarer``, ``bid`` (1–5), ``trump``, ``home`` (repeatable),
    ``knocked``, ``t_<seat>`` tricks, ``x_<seat>`` cards exchanged, ``breaker``, and
    ``step`` (``<seat>:+1`` / ``<seat>:-1``) from the trick steppers.
    """

    def __init__(self, data: Any, seats: list[str], out: str | None = None) -> None:
        self.seats = seats
        #: Who sits out this deal (docs/rules.md, "Sitting out"): no row, no tricks, no part in it.
        self.out = out if out in seats else None
        self.kind = data.get("kind") or "played"
        if self.kind not in ("played", "collapsed", "passed"):
            self.kind = "played"
        self.declarer = data.get("declarer") if data.get("declarer") in seats else None
        bid = parse_count(data.get("bid"))
        self.bid = bid if bid is not None and 1 <= bid <= MULI else None
        trump = data.get("trump")
        self.trump = trump if trump in dict(TRUMPS) else None
        home = data.getlist("home") if hasattr(data, "getlist") else data.get("home", [])
        self.home = [p for i, p in enumerate(seats) if str(i) in home]
        self.knocked = data.get("knocked") in ("1", "on", "true")
        self.tricks: dict[str, int | None] = {}
        self.exchanged: dict[str, int | None] = {}
        #: The exchange part (docs/rules.md, "Exchange"): each player's form ("" = plain), an
        #: on-sight card refused, a bridge's face-up cards (None: 1); the declarer's chain on sight.
        self.forms: dict[str, str] = {}
        self.refused: dict[str, bool] = {}
        self.face_up: dict[str, int | None] = {}
        for i, p in enumerate(seats):
            self.tricks[p] = parse_count(data.get(f"t_{i}"))
            self.exchanged[p] = parse_count(data.get(f"x_{i}"))
            form = data.get(f"xf_{i}") or ""
            self.forms[p] = form if form in SPECIAL_FORMS else ""
            self.refused[p] = data.get(f"xr_{i}") in ("1", "on", "true")
            self.face_up[p] = parse_count(data.get(f"xu_{i}"))
        self.chain_up = parse_count(data.get("chain_up"))
        self.chain_kept = parse_count(data.get("chain_kept"))
        self.trump_delayed = data.get("trump_delayed") in ("1", "on", "true")
        breaker = data.get("breaker")
        self.breaker = breaker if breaker in seats else None
        tapped = step(data.get("step") or "", seats, ("", "x", "xu"))
        if tapped is not None:
            prefix, player, delta = tapped
            playing = self.playing_tricks()
            if prefix == "" and player in playing:
                stepped_count(playing, player, delta, inferred(playing, MULI), MULI)
                self.tricks[player] = playing[player]
            elif prefix == "x":
                self.exchanged[player] = _stepped(self.exchanged[player], delta, 0, HAND)
            elif prefix == "xu":
                self.face_up[player] = _stepped(self.face_up[player], delta, 0, TALON_MOST,
                                                start=1)
        chain = (data.get("step") or "").partition(":")
        if chain[0] in ("chain_up", "chain_kept") and chain[2] in ("+1", "-1"):
            value = _stepped(getattr(self, chain[0]), int(chain[2]), 0, TALON_MOST)
            setattr(self, chain[0], value)
        #: Blank tricks that can only be one number (the last player's: the remainder).
        self.auto = inferred(self.playing_tricks(), MULI)

    def playing_tricks(self) -> dict[str, int | None]:
        return {p: n for p, n in self.tricks.items() if p not in self.home and p != self.out}

    def tricks_total(self) -> int:
        return sum(n or 0 for n in self.playing_tricks().values())

    def tricks_left(self) -> int:
        return MULI - self.tricks_total() - sum(self.auto.values())

    def missing(self) -> dict[str, Any]:
        """What must be chosen before the referee can judge a played deal."""
        if self.kind != "played":
            return {}
        out: dict[str, Any] = {}
        if self.declarer is None:
            out["declarer"] = _("Who declared?")
        if self.bid is None:
            out["bid"] = _("How many tricks were bid?")
        if self.trump is None:
            out["trump"] = _("Which suit is trump?")
        return out

    def as_deal(self) -> dict[str, Any]:
        """The referee's deal object, with names."""
        # a knock on a thrown-in deal may carry over (docs/rules.md, "Knocks and collapses")
        if self.kind != "played":
            return {"kind": self.kind, "knocked": self.knocked}
        tricks = {p: n if n is not None else self.auto[p]
                  for p, n in self.playing_tricks().items() if n is not None or p in self.auto}
        exchanged = {p: n for p, n in self.exchanged.items() if n and p != self.out}
        exchanges = self.exchanges()
        for p in exchanges:
            exchanged.pop(p, None)
        return {
            "kind": "played",
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": self.trump,
            "stayed_home": list(self.home),
            "tricks": tricks,
            "knocked": self.knocked,
            "exchanged": exchanged or None,
            "muli_breaker": self.breaker,
            **({"exchanges": exchanges} if exchanges else {}),
            **({"trump_delayed": True} if self.trump_delayed else {}),
        }

    def exchanges(self) -> dict[str, dict[str, Any]]:
        """The exchanges by form (docs/rules.md, "Recording exchanges"): every special form
        tapped, and the declarer's plain exchange when a chain on sight follows it. Plain
        counts stay in ``exchanged``, the shape of deals recorded before the forms."""
        out: dict[str, dict[str, Any]] = {}
        for p, form in self.forms.items():
            if p == self.out or not form:
                continue
            entry: dict[str, Any] = {"form": form}
            if form == "on_sight":
                entry["refused"] = self.refused[p]
            elif form == "bridge":
                entry["face_up"] = 1 if self.face_up[p] is None else self.face_up[p]
            out[p] = entry
        if (self.declarer is not None and self.declarer not in out and self.chain_up):
            out[self.declarer] = {
                "form": "plain", "cards": self.exchanged.get(self.declarer) or 0,
                "face_up": self.chain_up,
                "face_up_kept": self.chain_up if self.chain_kept is None else self.chain_kept,
            }
        return out


#: The exchange forms besides the plain one, each behind its switch (docs/rules.md, "Exchange").
SPECIAL_FORMS = {
    "on_sight": ("exchange_on_sight", gettext_lazy("On sight")),
    "ace_five": ("exchange_ace_five", gettext_lazy("Five on the ace")),
    "seven_six": ("exchange_seven_six", gettext_lazy("Six on the seven")),
    "bridge": ("exchange_bridge", gettext_lazy("Bridge")),
}
HAND = 5
#: The most cards a talon can hold (german36 with two players), for the steppers.
TALON_MOST = 26


def _stepped(value: int | None, delta: int, low: int, high: int, start: int = 0) -> int:
    """A count's stepper without JavaScript: from the shown number (``start`` for a blank),
    kept inside ``low``..``high``."""
    current = start if value is None else value
    return max(low, min(high, current + delta))


def allowed_forms(frozen: MulatschakRules) -> list[tuple[str, Any]]:
    """The special forms these rules allow, as (form, label); a delayed trump brings the
    declarer's bridge (docs/rules.md, "Delayed trump")."""
    return [(form, label) for form, (switch, label) in SPECIAL_FORMS.items()
            if getattr(frozen, switch) or (form == "bridge" and frozen.delayed_trump)]


def form_deal(post: Any, names: Names) -> dict[str, Any] | None:
    """The deal a sent form records (names); None while it lacks what the referee needs."""
    seats = list(names.by_id.values())
    entry = DealEntry(post, seats, _posted_out(post, seats))
    return None if entry.missing() else entry.as_deal()


def _posted_out(post: Any, seats: list[str]) -> str | None:
    """Who the form says sits out (its hidden ``out``, a seat index); the referee still
    checks the deal against the session's own rotation."""
    index = parse_count(post.get("out"))
    return seats[index] if index is not None and index < len(seats) else None


def sitting_out_of(loaded: Loaded, number: int | None) -> str | None:
    """The player id who sits out the next deal, or deal ``number`` (docs/rules.md,
    "Sitting out"); one query for a correction, none at tables where nobody sits out."""
    session = loaded.session
    frozen = session_rules(session)
    if not frozen.sits_out(len(loaded.seats)):
        return None
    if number is None:
        return next_sitting_out(frozen, loaded.seats, state_from_json(session.state))
    result = session.deals.filter(number=number).values_list("result", flat=True).first()
    return None if result is None else result.get("dealer")


def form_values(deal: dict[str, Any], seats: list[str]) -> tuple[QueryDict, str]:
    """A recorded deal (names) as the form that records it (for corrections)."""
    q = QueryDict(mutable=True)
    q["kind"] = deal.get("kind", "played")
    for key in ("declarer", "bid", "trump"):
        if deal.get(key) is not None:
            q[key] = str(deal[key])
    if deal.get("muli_breaker"):
        q["breaker"] = deal["muli_breaker"]
    if deal.get("knocked"):
        q["knocked"] = "1"
    q.setlist("home", [str(seats.index(p) if p in seats else -1)
                       for p in deal.get("stayed_home") or []])
    for i, p in enumerate(seats):
        if p in (deal.get("tricks") or {}):
            q[f"t_{i}"] = str(deal["tricks"][p])
        if (deal.get("exchanged") or {}).get(p):
            q[f"x_{i}"] = str(deal["exchanged"][p])
        entry = (deal.get("exchanges") or {}).get(p)
        if not isinstance(entry, dict):
            continue
        if entry.get("form") == "plain":
            q[f"x_{i}"] = str(entry.get("cards", 0))
            if entry.get("face_up"):
                q["chain_up"] = str(entry["face_up"])
                q["chain_kept"] = str(entry.get("face_up_kept", entry["face_up"]))
            continue
        q[f"xf_{i}"] = str(entry.get("form", ""))
        if entry.get("refused"):
            q[f"xr_{i}"] = "1"
        if "face_up" in entry:
            q[f"xu_{i}"] = str(entry["face_up"])
    if deal.get("trump_delayed"):
        q["trump_delayed"] = "1"
    return q, ""


def recent(loaded: Loaded) -> list[dict[str, Any]]:
    names = loaded.names
    out = []
    for row in loaded.session.deals.order_by("-number")[:RECENT_DEALS]:
        result = names.deal_names(row.result)
        changes = []
        for pid, name in names.by_id.items():
            delta = row.result.get("deltas", {}).get(pid)
            reason = row.result.get("reasons", {}).get(pid)
            changes.append({"player": name, "delta": delta, "reason": reason_label(reason)})
        out.append({
            "number": row.number,
            "kind": row.kind,
            "deal": names.deal_names(row.data),
            "dealer": result.get("dealer"),
            "sitting_out": result.get("sitting_out"),
            "game_number": result.get("game_number"),
            "multiplier": result.get("multiplier", 1),
            "factors": factors_text(result.get("factors", []), result.get("multiplier", 1)),
            "changes": changes,
            "game_over": result.get("game_over"),
            "winners": result.get("winners", []),
        })
    return out


def board_context(loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]:
    session = loaded.session
    return {
        "scores": [{"player": name, "score": board["scores"][name]}
                   for name in loaded.names.by_id.values()],
        "pending": factors_text(board["pending_factors"], board["pending_multiplier"]),
        "rules": session_rules(session),
        "recent": recent(loaded),
        "muli_name": MULI_NAMES.get(session.preset, "Muli"),
    }


#: Where a violation is shown on the deal form.
VIOLATION_FIELDS = {
    "bid_out_of_range": "bid",
    "bid_forbidden_low_score": "declarer",
    "trump_invalid": "trump",
    "declarer_stayed_home": "home",
    "stay_home_forbidden_hearts": "home",
    "stay_home_forbidden_muli": "home",
    "stay_home_forbidden_low_score": "home",
    "no_opponent": "home",
    "stay_home_twice": "home",
    "tricks_missing": "tricks",
    "tricks_for_absent": "tricks",
    "tricks_out_of_range": "tricks",
    "tricks_sum": "tricks",
    "exchange_forbidden_muli": "exchanged",
    "exchange_forbidden_low_score": "exchanged",
    "exchange_too_many": "exchanged",
    "exchange_exceeds_talon": "exchanged",
    "exchange_form_not_allowed": "exchanged",
    "exchange_recorded_twice": "exchanged",
    "exchange_by_absent": "exchanged",
    "seven_six_not_bells": "exchanged",
    "face_up_chain_invalid": "exchanged",
    "delayed_trump_without_bridge": "exchanged",
    "player_sitting_out": "exchanged",
    "knock_not_allowed": "knocked",
    "muli_breaker_required": "breaker",
}


#: Not an error while the deal is being entered, only once it is saved: said as a hint.
STILL_TO_ENTER = {"tricks_missing"}


def entry_context(loaded: Loaded, post: Any, *, number: int | None = None, mode: str = "",
                  submitted: bool = False) -> dict[str, Any]:
    """The deal form: choices, what is missing, the referee's violations and a preview."""
    import secrets

    session, names = loaded.session, loaded.names
    seats = list(names.by_id.values())
    out_id = sitting_out_of(loaded, number)
    out = None if out_id is None else names.to_name(out_id)
    entry = DealEntry(post or QueryDict(), seats, out)
    frozen = session_rules(session)
    missing = entry.missing()
    violations: list[dict[str, Any]] = []
    preview_rows: list[dict[str, Any]] = []
    multiplier_text = ""
    if not missing:
        try:
            result = preview(loaded, names.deal_ids(entry.as_deal()), number)
        except InputError as e:
            violations.append({"code": e.code, "player": None, "field": None,
                               "message": input_error_message(e)})
        else:
            for v in result.violations:
                v = names.violation(v)
                violations.append(
                    {"code": v.code, "player": v.player, "field": VIOLATION_FIELDS.get(v.code),
                     "message": violation_message(v, WORDING)}
                )
            if result.legal and entry.kind == "played":
                multiplier_text = factors_text([str(f) for f in result.factors],
                                               result.multiplier)
                for pid, name in names.by_id.items():
                    preview_rows.append(
                        {"player": name, "delta": result.deltas[pid],
                         "reason": reason_label(str(result.reasons[pid]))}
                    )
    by_field: dict[str, list[str]] = {}
    by_player: dict[str, list[str]] = {}
    # What is missing is said when Save is tapped, or for a field left behind (one after
    # it was filled in: declarer, bid, trump, the tricks); a form nobody touched says
    # nothing (issue 33: an orange list on every new deal before the first tap).
    filled = [entry.declarer is not None, entry.bid is not None, entry.trump is not None,
              any(n is not None for n in entry.tricks.values()) or bool(entry.home)]
    last = max((k for k, done in enumerate(filled) if done), default=-1)
    said = {key: text for key, text in missing.items()
            if submitted or ["declarer", "bid", "trump"].index(key) < last}
    to_enter = [] if submitted or not filled[3] else [
        v["player"] for v in violations if v["code"] in STILL_TO_ENTER and v["player"]]
    shown = [v for v in violations if submitted or v["code"] not in STILL_TO_ENTER]
    if to_enter:
        said["tricks"] = _("Tricks still to enter: %(names)s.") % {"names": ", ".join(to_enter)}
    for v in shown:  # each message in one place: a player's row, or its field
        if v["player"] and v["field"] in (None, "tricks", "home"):
            by_player.setdefault(v["player"], []).append(v["message"])
        elif v["field"]:
            by_field.setdefault(v["field"], []).append(v["message"])
    return {
        "entry": entry,
        "seat_rows": [
            {
                "index": i,
                "name": name,
                "home": name in entry.home,
                "tricks": entry.tricks.get(name),
                "auto": entry.auto.get(name),
                "exchanged": entry.exchanged.get(name),
                "form": entry.forms.get(name, ""),
                "refused": entry.refused.get(name, False),
                "face_up": entry.face_up.get(name),
                "errors": by_player.get(name, []),
                # who sits out has no part in the deal: the page keeps the seat's parts
                # out of the form (a <template>), for the phone to bring back when the
                # next deal kept offline has another one sit out (static/phone.js)
                "out": name == out,
            }
            for i, name in enumerate(seats)
        ],
        "sitting_out": out,
        "sitting_out_index": None if out is None else seats.index(out),
        "trumps": TRUMPS,
        "bids": [1, 2, 3, 4, 5],
        "missing": said,
        "violations": violations,
        "field_errors": by_field,
        "general_errors": [v["message"] for v in shown if not v["field"] and not v["player"]],
        "preview": preview_rows,
        "preview_factors": multiplier_text,
        "legal": not missing and not violations,
        "knock_allowed": frozen.knock_doubles,
        "knock_carries": frozen.knock_doubles and frozen.knock_survives_collapse,
        "exchange_forms": allowed_forms(frozen),
        "chain_allowed": frozen.declarer_on_sight_chain,
        "delayed_allowed": frozen.delayed_trump,
        "breaker_needed": frozen.muli_fail_mode == "breaker",
        "number": number,
        "muli_name": MULI_NAMES.get(session.preset, "Muli"),
        "idempotency_key": secrets.token_urlsafe(24),
        "game_form": FORM_PART,
        "entry_head": ENTRY_HEAD,
    }
