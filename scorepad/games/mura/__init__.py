"""Mura (docs/rules.md, "Mura"): four players, eight tricks a deal, mura and zeros, money by
pairs.

A deal is recorded as counts, ``{"tricks": {...}, "figures": {...}}``, or card by card,
``{"trick_cards": [{"leader", "cards"}, ...]}``; referee.tally judges either. The state of
a session is each player's mura and zeros, the next dealer and the number of deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from referee import tally
from referee.money import Penalty, settle
from referee.mura import MURA_RULES, first_leader, mura_rules
from referee.mura import OVERRIDES_SCHEMA as MURA_OVERRIDES
from referee.violations import RuleError

from ...cardnames import card_name, pack_choices
from ...errors import InputError
from ...fields import (
    MAX_PLAYERS,
    AsStored,
    CardField,
    CountsField,
    NameField,
    Shape,
    rules_schema,
    utc_datetime,
)
from ...ids import parse_count
from ...loaded import Loaded, Names, SessionRecord
from ...messages import card_violation_message, input_error_message, violation_message
from ..base import (
    Column,
    GameRules,
    JsonReplayer,
    Money,
    inferred,
    mode_of,
    rate,
    stake_of,
    step,
    stepped_count,
    tallied,
)

if TYPE_CHECKING:
    from ...models import Deal, Session

NAME = "mura"
TITLE = "Mura"
#: Any preset name: Mura has one rule set, its overrides are what counts.
RULES_SCHEMA = rules_schema({"type": "string"}, MURA_OVERRIDES)
TRICKS = 8
PACK = "hungarian32"
#: Violations about single cards and tricks; the counts checks that follow them only
#: repeat the same trouble in other words, so they are shown when these are absent.
CARD_CODES = {"card_not_in_pack", "card_played_twice", "wrong_number_of_plays",
              "wrong_leader", "must_follow_suit", "unknown_player"}


def zeros_per_mura(session: Session) -> int:
    """How many zeros make a mura in this session (its frozen rules say; the referee's
    default for sessions from before the rule was frozen)."""
    return int(session.rules.get("zeros_per_mura", MURA_RULES.zeros_per_mura))


# --- the deal's shape (the API takes it as it is; the services check it with this) --------


class MuraTrickIn(Shape):
    leader = NameField()
    cards = serializers.DictField(child=CardField())

    def validate_cards(self, value: dict[str, str]) -> dict[str, str]:
        if len(value) > MAX_PLAYERS:
            raise serializers.ValidationError(gettext_lazy("names too many players"))
        return value


#: The schema of counts_or_cards.
COUNTS_OR_CARDS = {"oneOf": [
    {"required": ["tricks", "figures"], "not": {"required": ["trick_cards"]}},
    {"required": ["trick_cards"],
     "not": {"anyOf": [{"required": ["tricks"]}, {"required": ["figures"]}]}},
]}


def counts_or_cards(attrs: dict[str, Any]) -> dict[str, Any]:
    """Counts (``tricks`` and ``figures``) or, instead of both, ``trick_cards``."""
    counts = [name for name in ("tricks", "figures") if name in attrs]
    if "trick_cards" in attrs:
        if counts:
            raise serializers.ValidationError(
                {name: [gettext_lazy("give counts or trick_cards, not both")]
                 for name in counts})
    elif len(counts) != 2:
        missing = {"tricks", "figures"} - set(counts)
        raise serializers.ValidationError(
            {name: [gettext_lazy("is required (or give trick_cards instead)")]
             for name in missing})
    return attrs


class MuraSessionDealIn(Shape):
    """A Mura deal: tricks and figures per player, or instead ``trick_cards``."""

    schema_extra = COUNTS_OR_CARDS

    tricks = CountsField(minimum=-99, required=False)
    figures = CountsField(minimum=-99, required=False)
    trick_cards = serializers.ListField(child=MuraTrickIn(), required=False, max_length=16)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return counts_or_cards(attrs)


def parse_deal(data: object) -> dict[str, Any]:
    """The deal's fields, checked (InputError naming each bad field), names as given."""
    checked = MuraSessionDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {k: v for k, v in checked.validated_data.items()
            if k in ("tricks", "figures", "trick_cards")}


# --- playing ---------------------------------------------------------------------------


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    mura = mura_rules(overrides or {})
    return GameRules(NAME, dict(mura.as_params()), mura.players, mura.players)


def _json(state: tally.MuraState) -> dict[str, Any]:
    return {"mura": dict(state.mura), "zeros": dict(state.zeros), "dealer": state.dealer,
            "deals": state.deals}


def start(session: Session, seats: Sequence[str]) -> dict[str, Any]:
    return _json(tally.mura_start(seats, str(session.first_dealer_id)))


#: Marks a deal recorded card by card since sessions pass the dealer to the referee: its
#: first trick is checked to be led by the player after the dealer (docs/rules.md,
#: "First lead"). Deals stored before carry no mark and replay as they were recorded.
FIRST_LEAD = "first_lead_checked"


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    if data.get("trick_cards") is not None:
        return {"trick_cards": [dict(t) for t in data["trick_cards"]], FIRST_LEAD: True}
    return {"tricks": dict(data.get("tricks") or {}), "figures": dict(data.get("figures") or {})}


def kind(data: Mapping[str, Any]) -> str:
    return "cards" if "trick_cards" in data else "counts"


def apply(session: Session, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before = tally.MuraState(dict(state["mura"]), dict(state["zeros"]), state["dealer"],
                             state["deals"])
    with tallied():
        result, after = tally.mura_apply(seats, before, data,
                                         check_first_lead=bool(data.get(FIRST_LEAD)))
    return (
        {"dealer": before.dealer,
         "results": {p: r.as_dict() for p, r in result.results.items()},
         "mura_after": dict(after.mura), "zeros_after": dict(after.zeros)},
        _json(after),
    )


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """No list of finished games is kept for this game."""
    return None


def replayer(session: Session, seats: Sequence[str]) -> JsonReplayer:
    return JsonReplayer(apply, session, seats, start(session, seats))


# --- the scoreboard and the money ----------------------------------------------------------

BALANCES_ALWAYS = True


def board(session: Session, names: Names) -> dict[str, Any]:
    state, per = session.state, zeros_per_mura(session)
    order = names.seats
    return {
        "mura": {names.to_name(p): state["mura"][p] for p in order},
        "zeros": {names.to_name(p): state["zeros"][p] for p in order},
        "zeros_to_next_mura": {names.to_name(p): per - state["zeros"][p] % per for p in order},
        "next_dealer": names.to_name(state["dealer"]),
        "deals": state["deals"],
    }


def _penalties(session: Session, order: Sequence[str]) -> dict[str, Penalty]:
    return {p: Penalty(session.state["mura"][p], session.state["zeros"][p]) for p in order}


def money(session: Session, order: Sequence[str]) -> Money:
    """Every pair settles the difference of their penalties (referee.money.settle)."""
    result = settle(stake_of(session), session.currency, _penalties(session, order),
                    zeros_per_mura=zeros_per_mura(session))
    body = result.as_dict()
    return Money(dict(result.balances), list(body["pairs"]), list(body["transfers"]))


def settlement_details(session: Session, names: Names) -> dict[str, Any]:
    penalties = _penalties(session, names.seats)
    return {"penalties": {names.to_name(p): {"mura": x.mura, "zeros": x.zeros}
                          for p, x in penalties.items()},
            "zeros_per_mura": zeros_per_mura(session)}


# --- the API's output ----------------------------------------------------------------------


class MuraScoreboardOut(Shape):
    mura = serializers.DictField(child=serializers.IntegerField())
    zeros = serializers.DictField(child=serializers.IntegerField())
    zeros_to_next_mura = serializers.DictField(child=serializers.IntegerField())
    next_dealer = serializers.CharField()
    deals = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(),
                                     help_text='every player, "0.00" without a stake')


class MuraPlayerResultOut(Shape):
    tricks = serializers.IntegerField()
    figures = serializers.IntegerField()
    mura = serializers.IntegerField()
    zero = serializers.BooleanField()


class MuraDealResultOut(Shape):
    dealer = serializers.CharField()
    results = serializers.DictField(child=MuraPlayerResultOut())
    mura_after = serializers.DictField(child=serializers.IntegerField())
    zeros_after = serializers.DictField(child=serializers.IntegerField())


class MuraStoredTrickOut(Shape):
    leader = serializers.CharField()
    cards = serializers.DictField(child=serializers.CharField())


class MuraStoredDealOut(AsStored):
    tricks = serializers.DictField(child=serializers.IntegerField(), required=False)
    figures = serializers.DictField(child=serializers.IntegerField(), required=False)
    trick_cards = MuraStoredTrickOut(many=True, required=False)
    first_lead_checked = serializers.BooleanField(
        required=False, help_text="card by card: the first lead was checked against the "
        "dealer (/rules/#first-lead); deals recorded before carry no such mark")


class MuraSessionDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField(help_text="counts or cards")
    deal = MuraStoredDealOut()
    result = MuraDealResultOut()
    created_at = utc_datetime()
    updated_at = utc_datetime()


class MuraPenaltyOut(Shape):
    mura = serializers.IntegerField()
    zeros = serializers.IntegerField()


class MuraSettlementOut(Shape):
    penalties = serializers.DictField(child=MuraPenaltyOut(), required=False,
                                      help_text="with a stake")
    zeros_per_mura = serializers.IntegerField(required=False, help_text="with a stake")


class MuraStatsOut(Shape):
    sessions = serializers.IntegerField()
    deals = serializers.IntegerField()
    mura = serializers.IntegerField()
    zeros = serializers.IntegerField()
    mura_per_deal = serializers.FloatField(allow_null=True)
    zeros_per_deal = serializers.FloatField(allow_null=True)


#: The API's shapes of a Mura session (games.Game).
DEAL_IN, BOARD_OUT, DEAL_OUT = MuraSessionDealIn, MuraScoreboardOut, MuraSessionDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = MuraSettlementOut, MuraStatsOut


def deal_out(row: Deal, names: Names) -> dict[str, Any]:
    return {"number": row.number, "version": row.version, "kind": row.kind,
            "deal": names.deal_names(row.data), "result": names.deal_names(row.result),
            "created_at": row.created_at, "updated_at": row.updated_at}


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "mura_stats"
#: Its figures in the statistics tables (the group's, and one's own).
STATS_COLUMNS = (Column("mura", gettext_lazy("Mura")), Column("zeros", gettext_lazy("Zeros")))
#: Its figures on the player pages (``s``: the player's figures, ``s.<STATS_KEY>`` its own).
FIGURES_TEMPLATE = f"scorepad/_figures_{NAME}.html"


def totals(record: SessionRecord) -> dict[str, tuple[int, int]]:
    """(mura, zeros) per player, summed over the deals."""
    out = dict.fromkeys(record.seats, (0, 0))
    for d in record.deals:
        for p, r in d.result.get("results", {}).items():
            mura, zeros = out[p]
            out[p] = (mura + int(r["mura"]), zeros + int(bool(r["zero"])))
    return out


def summary(record: SessionRecord) -> dict[str, Any]:
    figures = totals(record)
    return {"penalties": [{"player": record.names[p], "mura": figures[p][0],
                           "zeros": figures[p][1]} for p in record.seats]}


def stats_empty() -> dict[str, Any]:
    """A player's figures before any session: ``mura`` and ``zeros`` are the totals over
    the player's deals."""
    return {"sessions": 0, "deals": 0, "mura": 0, "zeros": 0}


def stats_add(pid: str, record: SessionRecord, acc: dict[str, Any]) -> None:
    acc["sessions"] += 1
    for d in record.deals:
        r = d.result["results"][pid]
        acc["deals"] += 1
        acc["mura"] += int(r["mura"])
        acc["zeros"] += int(bool(r["zero"]))


def stats_finish(acc: dict[str, Any]) -> dict[str, Any]:
    return acc | {"mura_per_deal": rate(acc["mura"], acc["deals"]),
                  "zeros_per_deal": rate(acc["zeros"], acc["deals"])}


def stats_contract(acc: dict[str, Any]) -> dict[str, int]:
    """This family's part of the API's top-level figures."""
    return {"mura": acc["mura"], "zeros": acc["zeros"]}


def won_games(record: SessionRecord) -> None:
    """Mura has no games won (the groups' chart of games won leaves it out)."""
    return None


def session_points(pid: str, record: SessionRecord) -> None:
    return None


def sheet_rows(record: SessionRecord) -> list[dict[str, Any]]:
    running = {p: [0, 0] for p in record.seats}
    rows = []
    for d in record.deals:
        cells = []
        for p in record.seats:
            r = d.result["results"][p]
            running[p][0] += int(r["mura"])
            running[p][1] += int(bool(r["zero"]))
            cells.append({"tricks": r["tricks"], "figures": r["figures"], "mura": r["mura"],
                          "zero": r["zero"], "total_mura": running[p][0],
                          "total_zeros": running[p][1]})
        rows.append({"number": d.number, "dealer": record.names.get(d.result.get("dealer", ""),
                                                                    ""), "cells": cells})
    return rows


def chart_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    """Running mura after each deal."""
    running = dict.fromkeys(record.seats, 0)
    series: dict[str, list[list[tuple[float, float]]]] = {p: [[(0.0, 0.0)]] for p in record.seats}
    for i, d in enumerate(record.deals, start=1):
        for p, r in d.result.get("results", {}).items():
            running[p] += int(r["mura"])
        for p in record.seats:
            series[p][-1].append((float(i), float(running[p])))
    return series, [], []


def csv_rows(names: Names, deals: Sequence[Deal]) -> list[list[object]]:
    order = names.seats
    header: list[object] = [_("deal"), _("dealer")]
    for name in (names.to_name(p) for p in order):
        header += [f"{name} {_('tricks')}", f"{name} {_('figures')}",
                   f"{name} {_('mura')}", f"{name} {_('zeros')}"]
    rows: list[list[object]] = [[*header, _("notes")]]
    for d in deals:
        r = d.result
        row: list[object] = [d.number, names.to_name(r.get("dealer", ""))]
        for p in order:
            res = r.get("results", {}).get(p, {})
            row += [res.get("tricks"), res.get("figures"),
                    r.get("mura_after", {}).get(p), r.get("zeros_after", {}).get(p)]
        rows.append([*row, _("by cards") if d.kind == "cards" else ""])
    return rows


def history_detail(seats: list[str], data: dict[str, Any]) -> dict[str, Any] | None:
    """A card-by-card deal (names) for the history: each trick's cards by name and who
    took it, and the counts the referee derives. None for any other deal."""
    if not isinstance(data.get("trick_cards"), list):
        return None
    try:
        result = tally.mura_check(seats, data)
    except RuleError:
        return None
    tricks = [{"number": o.number, "winner": o.winner,
               "cards": [(p, card_name(c.code, PACK)) for p, c in o.plays]}
              for o in result.tricks]
    return {"tricks": tricks, "results": dict(result.results)}


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
            stepped_count(tricks, player, delta, auto["tricks"], TRICKS)
        else:
            stepped_count(figures, player, delta, auto["figures"], None)
    return {"tricks": tricks, "figures": figures}


def counts_auto(entry: dict[str, dict[str, int | None]]) -> dict[str, dict[str, int]]:
    """Blank counts that can only be one number (base.inferred): the last player's tricks
    from the remainder, and no figures for a player who took no trick."""
    tricks = inferred(entry["tricks"], TRICKS)
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
    """Eight tricks as typed: leader ``l_<trick>`` (a seat index) and the card code of each
    seat ``c_<trick>_<seat>``; blank stays blank."""
    out = []
    for t in range(TRICKS):
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


def _check_cards(names: Names, entry: list[dict[str, Any]], dealer: str | None = None) -> Any:
    """The referee's verdict; a blank leader after a decided trick is taken to be that
    trick's winner (the referee still checks it), so a phone fills in one leader only.
    With the ``dealer`` (a player id), the first trick's leader is checked too (docs/rules.md,
    "First lead")."""
    while True:
        result = tally.mura_check(names.seats, names.deal_ids(cards_data(entry)),
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
        for t, trick in enumerate(data["trick_cards"][:TRICKS]):
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
    context: dict[str, Any] = {"number": number, "seats": seats, "mode": mode,
                               "game_form": FORM_PART}
    if mode == "cards":
        return context | _cards_context(names, post, submitted, _dealer_of(loaded, number))
    entry = counts_entry(post, seats)
    violations: list[dict[str, Any]] = []
    hints: list[str] = []
    results: dict[str, Any] = {}
    if post:
        try:
            result = tally.mura_check(names.seats, names.deal_ids(counts_data(entry)))
        except RuleError as e:
            violations.append({"player": None, "message": input_error_message(e)})
        else:
            missing = []
            for v in result.violations:
                v = names.violation(v)
                if not submitted and v.code in ("tricks_missing", "figures_missing"):
                    missing.append(v.player)  # not an error yet while typing: a hint
                    continue
                violations.append({"player": v.player, "message": violation_message(v)})
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
    left = TRICKS - sum(n or 0 for n in entry["tricks"].values()) - sum(auto["tricks"].values())
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
                   dealer: str | None = None) -> dict[str, Any]:
    """The eight tricks with the referee's verdict next to each trick, leader and card,
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
            result = _check_cards(names, entry, dealer)
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
