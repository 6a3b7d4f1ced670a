"""High Card: a toy fourth game that lives only under ``tests/`` and proves docs/games.md,
"Adding a game": one package (a Django app: ``apps.py``) with its templates and its own
words in English, German and Hungarian (``locale/``), and one line in the setting
``SCHREIBER_GAMES`` (``test_toygame.py`` registers it and walks it through everything a
user touches). Nothing outside this package knows it.

The rules: two to six players each turn up one card; whoever turned up the highest card
(several, on a tie) wins the deal and a point. A deal is recorded as
``{"winners": [players]}``. With a stake, each point is paid the stake by every other
player. The state of a session: each player's points and the number of deals.

The package provides every name of the ``Game`` protocol (``scorepad.games``): rules and
play, the scoreboard and money, the API's shapes, statistics, sheet, chart and CSV, and the
pages (the shared session page ``session_game.html`` with this game's form part, and its
own parts of the shared pages under ``templates/scorepad/``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from rest_framework import serializers

from referee.money import transfer_plan
from referee.violations import RuleError, Violation
from scorepad.errors import InputError, RulesBroken
from scorepad.fields import AsStored, NameField, Shape, rules_schema, utc_datetime
from scorepad.games.base import Column, GameRules, JsonReplayer, Money, places, rate, stake_of
from scorepad.loaded import Loaded, Names, PlayerKeys, SessionRecord
from scorepad.messages import Wording, violation_message

# --- playing ---------------------------------------------------------------------------

NAME = "high_card"  # Session.game
TITLE = "High Card"
TOURNAMENT = None  # no tournaments of High Card
#: The keys of its deals and results that hold players (``Names`` translates them).
PLAYER_KEYS = PlayerKeys(lists=("winners",), maps=("high_card_points",))
FEWEST, MOST = 2, 6


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    """One rule set, no house rules: any other preset or an override is refused."""
    if preset not in (None, NAME):
        raise RuleError("preset", f"must be {NAME}", "not_choice", choices=NAME)
    for name in overrides or {}:
        raise RuleError(f"overrides.{name}", "High Card has no house rules", "invalid")
    return GameRules(NAME, {}, FEWEST, MOST)


def start(session: Any, seats: Sequence[str]) -> dict[str, Any]:
    return {"points": dict.fromkeys(seats, 0), "deals": 0}


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    return {"winners": list(data.get("winners") or [])}


def kind(data: Mapping[str, Any]) -> str:
    return "tie" if len(data.get("winners") or []) > 1 else "deal"


# --- its words (their German and Hungarian: locale/) -------------------------------------------

#: The codes only High Card reports (``unknown_player`` is worded for every game).
WORDING = Wording(codes={
    "winner_listed_twice": gettext_lazy("{player} is ticked twice."),
    "nobody_lost": gettext_lazy("Somebody lost: not everybody can have turned up the highest "
                                "card."),
})
RULE_HELP: dict[str, Any] = {}  # no house rules
ABOUT = pgettext_lazy("keeps the score of", "High Card")
STAKE_UNIT = pgettext_lazy("stake per", "High Card point")
STATS_NOTE = ""
CHART_TITLES: dict[str, Any] = {}


def preset_lines() -> list[tuple[str, str]]:
    """One set of rules, named like the game."""
    return [(TITLE, _("one card each, the highest wins"))]


def check(seats: Sequence[str], winners: Sequence[str]) -> list[Violation]:
    """What breaks the rules in a deal's winners (player ids)."""
    out = [Violation.of("unknown_player", w) for w in winners if w not in seats]
    out += [Violation.of("winner_listed_twice", w)
            for i, w in enumerate(winners) if w in winners[:i]]
    if winners and len(set(winners)) == len(seats) and len(seats) > 1:
        out.append(Violation.of("nobody_lost"))
    return out


def apply(session: Any, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    winners = list(data.get("winners") or [])
    broken = check(seats, winners)
    if broken:
        raise RulesBroken(broken)
    points = dict(state["points"])
    for w in winners:
        points[w] += 1
    deals = state["deals"] + 1
    return ({"winners": winners, "high_card_points": points, "high_card_deal": deals},
            {"points": points, "deals": deals})


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """No list of finished games: every deal stands alone."""
    return None


def replayer(session: Any, seats: Sequence[str]) -> JsonReplayer:
    return JsonReplayer(apply, session, seats, start(session, seats))


# --- the scoreboard and the money -----------------------------------------------------------

BALANCES_ALWAYS = True


def leaders(points: Mapping[str, int]) -> list[str]:
    best = max(points.values(), default=0)
    return [p for p, n in points.items() if n == best and best > 0]


def board(session: Any, names: Names) -> dict[str, Any]:
    points = session.state["points"]
    return {"points": {names.to_name(p): points[p] for p in names.seats},
            "deals": session.state["deals"],
            "leaders": [names.to_name(p) for p in leaders(points)]}


def money(session: Any, order: Sequence[str]) -> Money:
    """Every point is paid the stake by each other player."""
    stake = stake_of(session)
    points = {p: session.state["points"][p] for p in order}
    total = sum(points.values())
    balances = {p: stake * (len(order) * n - total) for p, n in points.items()}
    return Money(balances, [], [t.as_dict() for t in transfer_plan(balances)])


def settlement_details(session: Any, names: Names) -> dict[str, Any]:
    return {}


# --- the API's shapes ------------------------------------------------------------------------

RULES_SCHEMA = rules_schema({"type": "string", "enum": [NAME]},
                            {"type": "object", "maxProperties": 0})


class HighCardDealIn(Shape):
    """A High Card deal: who turned up the highest card (several on a tie)."""

    winners = serializers.ListField(child=NameField(), min_length=1, max_length=6)


def parse_deal(data: object) -> dict[str, Any]:
    checked = HighCardDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {"winners": list(checked.validated_data["winners"])}


class HighCardScoreboardOut(Shape):
    points = serializers.DictField(child=serializers.IntegerField())
    deals = serializers.IntegerField()
    leaders = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(),
                                     help_text='every player, "0.00" without a stake')


class HighCardStoredDealOut(AsStored):
    winners = serializers.ListField(child=serializers.CharField())


class HighCardResultOut(Shape):
    winners = serializers.ListField(child=serializers.CharField())
    high_card_points = serializers.DictField(child=serializers.IntegerField())
    high_card_deal = serializers.IntegerField()


class HighCardDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField(help_text="deal or tie")
    deal = HighCardStoredDealOut()
    result = HighCardResultOut()
    created_at = utc_datetime()
    updated_at = utc_datetime()


class HighCardSettlementOut(Shape):
    """Nothing beyond the balances, pairs and transfers."""


class HighCardStatsOut(Shape):
    sessions = serializers.IntegerField()
    deals = serializers.IntegerField()
    hc_points = serializers.IntegerField()
    point_rate = serializers.FloatField(allow_null=True)


DEAL_IN, BOARD_OUT, DEAL_OUT = HighCardDealIn, HighCardScoreboardOut, HighCardDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = HighCardSettlementOut, HighCardStatsOut


def deal_out(row: Any, names: Names) -> dict[str, Any]:
    return {"number": row.number, "version": row.version, "kind": row.kind,
            "deal": names.deal_names(row.data), "result": names.deal_names(row.result),
            "created_at": row.created_at, "updated_at": row.updated_at}


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "high_card"
STATS_COLUMNS = (Column("hc_points", gettext_lazy("High Card points")),
                 Column("point_rate", gettext_lazy("High Card point rate"), "rate",
                        ("person",)))
FIGURES_TEMPLATE = "scorepad/_figures_high_card.html"


def _points(record: SessionRecord) -> dict[str, int]:
    out = dict.fromkeys(record.seats, 0)
    for d in record.deals:
        for w in d.result["winners"]:
            out[w] += 1
    return out


def summary(record: SessionRecord) -> dict[str, Any]:
    points = _points(record)
    return {"points": [{"player": record.names[p], "points": points[p]} for p in record.seats]}


def stats_empty() -> dict[str, Any]:
    return {"sessions": 0, "deals": 0, "hc_points": 0}


def stats_add(pid: str, record: SessionRecord, acc: dict[str, Any]) -> None:
    acc["sessions"] += 1
    acc["deals"] += len(record.deals)
    acc["hc_points"] += _points(record)[pid]


def stats_finish(acc: dict[str, Any]) -> dict[str, Any]:
    return acc | {"point_rate": rate(acc["hc_points"], acc["deals"])}


def stats_contract(acc: dict[str, Any]) -> dict[str, int]:
    """A deal is a game here, and a point a win."""
    return {"games": acc["deals"], "wins": acc["hc_points"]}


def won_games(record: SessionRecord) -> None:
    return None


def placings(record: SessionRecord) -> list[dict[str, int]]:
    """High Card has no game that ends: nothing to rate."""
    return []


def card(record: SessionRecord) -> dict[str, Any]:
    """The evening's card: the players by their points, the most first."""
    points = _points(record)
    return {"standings": [{"player": p, "figure": ngettext("{n} point", "{n} points",
                                                           points[p]).format(n=points[p]),
                           "detail": ""}
                          for p in sorted(record.seats, key=lambda p: -points[p])],
            "facts": [ngettext("{n} deal", "{n} deals", len(record.deals)).format(
                n=len(record.deals))]}


def evening_places(session: Any, seats: Sequence[str],
                   games: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A season's place at the evening: by points, the most first."""
    points = session.state["points"]
    return places({p: -int(points.get(p, 0)) for p in seats})


def session_points(pid: str, record: SessionRecord) -> None:
    return None


def sheet_rows(record: SessionRecord) -> list[dict[str, Any]]:
    running = dict.fromkeys(record.seats, 0)
    rows = []
    for d in record.deals:
        won = set(d.result["winners"])
        for p in won:
            running[p] += 1
        rows.append({"number": d.number, "cells": [
            {"won": p in won, "total": running[p]} for p in record.seats]})
    return rows


def chart_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    running = dict.fromkeys(record.seats, 0)
    series: dict[str, list[list[tuple[float, float]]]] = {p: [[(0.0, 0.0)]]
                                                          for p in record.seats}
    for i, d in enumerate(record.deals, start=1):
        for p in d.result["winners"]:
            running[p] += 1
        for p in record.seats:
            series[p][-1].append((float(i), float(running[p])))
    return series, [], []


def csv_rows(names: Names, deals: Sequence[Any]) -> list[list[object]]:
    order = names.seats
    rows: list[list[object]] = [[_("deal"), _("winners"),
                                 *[_("{player} points").format(player=names.to_name(p))
                                   for p in order]]]
    for d in deals:
        r = d.result
        rows.append([d.number, " + ".join(names.to_name(p) for p in r.get("winners", [])),
                     *[r.get("high_card_points", {}).get(p) for p in order]])
    return rows


def history_detail(seats: list[str], data: dict[str, Any]) -> None:
    return None


# --- the pages -------------------------------------------------------------------------------

SESSION_TEMPLATE = "scorepad/session_game.html"
FORM_FRAGMENT = "scorepad/session_game.html#gameform"
FORM_PART = "scorepad/_form_high_card.html"
EDIT_TEMPLATE = "scorepad/deal_edit_game.html"
BOARD_TEMPLATE = "scorepad/_board_high_card.html"
SHEET_TEMPLATE = "scorepad/sheet_high_card.html"
SUMMARY_TEMPLATE = "scorepad/_deal_summary_high_card.html"
SESSION_LINE_TEMPLATE = "scorepad/_session_line_high_card.html"
MONEY_RULES_TEMPLATE = "scorepad/_money_rules_high_card.html"
MODES: tuple[str, ...] = ("",)


def rules_title(preset: str) -> str:
    """One set of rules, named like the game."""
    return TITLE


def scorer_data() -> dict[str, Any]:
    """No scorer on the phone: High Card has no provisional board."""
    return {}


def scorer_texts(session: Any) -> dict[str, Any]:
    return {}


def recorded_message(number: int) -> str:
    return _("High Card deal {number} recorded.").format(number=number)


def start_parts(form: Any) -> dict[str, Any]:
    return {"note": _("High Card: two to six players, one card each.")}


def again_rules(session: Any) -> tuple[str, list[tuple[str, str]]]:
    return "", []


def form_rules(cleaned: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any] | None]:
    """The start form's presets and house rules are another game's: none here."""
    return None, None


def keeps_typing(post: Any) -> bool:
    return True


def form_shows_errors(mode: str) -> bool:
    return True


def board_context(loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]:
    rows = [{"player": name, "points": board["points"][name],
             "balance": board.get("balances", {}).get(name)}
            for name in loaded.names.by_id.values()]
    recent = [{"number": d.number, "result": loaded.names.deal_names(d.result)}
              for d in loaded.session.deals.order_by("-number")[:8]]
    return {"rows": rows, "recent": recent}


def form_deal(post: Any, names: Names) -> dict[str, Any] | None:
    """The deal a sent form records (names); None while nobody is ticked."""
    winners = [str(w) for w in post.getlist("winner") if str(w).strip()]
    return {"winners": winners} if winners else None


def form_values(deal: dict[str, Any], seats: list[str]) -> tuple[QueryDict, str]:
    post = QueryDict(mutable=True)
    post.setlist("winner", list(deal.get("winners") or []))
    return post, ""


def entry_context(loaded: Loaded, post: Any, *, number: int | None = None, mode: str = "",
                  submitted: bool = False) -> dict[str, Any]:
    """The form: a box per player, ticked for who turned up the highest card; checked by
    the rules as it is filled in."""
    names = loaded.names
    seats = list(names.by_id.values())
    ticked = [str(w) for w in (post.getlist("winner") if hasattr(post, "getlist") else [])]
    errors = [violation_message(names.violation(v), WORDING)
              for v in check(names.seats, [names.to_id(w) for w in ticked])]
    if submitted and not ticked:
        errors.append(_("Tick who turned up the highest card."))
    legal = bool(ticked) and not errors
    return {"number": number, "seats": seats, "mode": mode, "game_form": FORM_PART,
            "ticked": ticked, "general_errors": errors, "legal": legal,
            "preview": " + ".join(ticked) if legal else ""}


