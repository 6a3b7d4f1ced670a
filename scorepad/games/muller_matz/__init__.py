"""Müller Matz (docs/rules.md, "Mueller Matz"): two or more players, one loser a game,
money per loss.

A game is recorded as its whole finishing order, ``{"finish_order": [...]}``, or only its
loser, ``{"loser": player}``. The state of a session is each player's losses and the
number of games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from referee import tally
from referee.money import transfer_plan
from referee.muller_matz import OVERRIDES_SCHEMA as MULLER_MATZ_OVERRIDES
from referee.muller_matz import check_result, muller_matz_rules, packs_for

from ...errors import InputError
from ...fields import AsStored, NameField, Shape, rules_schema, utc_datetime
from ...loaded import Loaded, Names, SessionRecord
from ...messages import violation_message
from ..base import Column, GameRules, JsonReplayer, Money, mode_of, rate, stake_of, tallied

if TYPE_CHECKING:
    from ...models import Deal, Session

NAME = "muller_matz"
TITLE = "Müller Matz"
#: Any preset name: Müller Matz has one rule set, its overrides are what counts.
RULES_SCHEMA = rules_schema({"type": "string"}, MULLER_MATZ_OVERRIDES)


# --- the game's shape (the API takes it as it is; the services check it with this) --------


class MatzSessionDealIn(Shape):
    """A Müller Matz game: the whole finishing order, or only the loser."""

    schema_extra = {"oneOf": [
        {"required": ["finish_order"], "not": {"required": ["loser"]}},
        {"required": ["loser"], "not": {"required": ["finish_order"]}},
    ]}

    finish_order = serializers.ListField(child=NameField(), required=False, max_length=12)
    loser = NameField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("finish_order" in attrs) == ("loser" in attrs):
            raise serializers.ValidationError(
                {"loser": [gettext_lazy("give the finishing order or the loser, one of them")]}
            )
        return attrs


def parse_deal(data: object) -> dict[str, Any]:
    """The game's fields, checked (InputError naming each bad field), names as given."""
    checked = MatzSessionDealIn(data=data)
    if not checked.is_valid():
        raise InputError.from_details(checked.errors)
    return {k: v for k, v in checked.validated_data.items() if k in ("finish_order", "loser")}


# --- playing ---------------------------------------------------------------------------


def rules(preset: str | None, overrides: Mapping[str, object] | None) -> GameRules:
    matz = muller_matz_rules(overrides or {})
    return GameRules(NAME, dict(matz.as_params()), matz.players_min, matz.players_max)


def start(session: Session, seats: Sequence[str]) -> dict[str, Any]:
    state = tally.matz_start(seats)
    return {"losses": dict(state.losses), "games": 0}


def normalize(data: Mapping[str, Any]) -> dict[str, Any]:
    if data.get("finish_order") is not None:
        return {"finish_order": list(data["finish_order"])}
    return {"loser": data.get("loser")}


def kind(data: Mapping[str, Any]) -> str:
    return "order" if "finish_order" in data else "loser"


def apply(session: Session, seats: Sequence[str], state: Mapping[str, Any],
          data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before = tally.MatzState(dict(state["losses"]), state["games"])
    with tallied():
        result, after = tally.matz_apply(seats, before, data)
    return (
        {"loser": result.loser, "order": list(result.order), "game_number": after.games,
         "losses_after": dict(after.losses)},
        {"losses": dict(after.losses), "games": after.games},
    )


def finished_game(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """No list of finished games is kept for this game."""
    return None


def replayer(session: Session, seats: Sequence[str]) -> JsonReplayer:
    return JsonReplayer(apply, session, seats, start(session, seats))


# --- the scoreboard and the money ----------------------------------------------------------

BALANCES_ALWAYS = True


def board(session: Session, names: Names) -> dict[str, Any]:
    order = names.seats
    return {
        "losses": {names.to_name(p): session.state["losses"][p] for p in order},
        "games_played": session.state["games"],
        "packs": packs_for(len(order)),
    }


def money(session: Session, order: Sequence[str]) -> Money:
    """Every lost game, the loser pays each other player the stake."""
    state = tally.MatzState({p: session.state["losses"][p] for p in order},
                            session.state["games"])
    balances = tally.matz_balances(state, stake_of(session), session.currency)
    return Money(balances, [], [t.as_dict() for t in transfer_plan(balances)])


def settlement_details(session: Session, names: Names) -> dict[str, Any]:
    return {}


# --- the API's output ----------------------------------------------------------------------


class MatzScoreboardOut(Shape):
    losses = serializers.DictField(child=serializers.IntegerField())
    games_played = serializers.IntegerField()
    packs = serializers.IntegerField(help_text="packs of cards needed at this table")
    status = serializers.CharField()
    version = serializers.IntegerField()
    next_number = serializers.IntegerField()
    balances = serializers.DictField(child=serializers.CharField(),
                                     help_text='every player, "0.00" without a stake')


class MatzStoredDealOut(AsStored):
    finish_order = serializers.ListField(child=serializers.CharField(), required=False)
    loser = serializers.CharField(required=False)


class MatzGameResultOut(Shape):
    loser = serializers.CharField()
    order = serializers.ListField(child=serializers.CharField())
    game_number = serializers.IntegerField()
    losses_after = serializers.DictField(child=serializers.IntegerField())


class MatzSessionDealOut(Shape):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField(help_text="order or loser")
    deal = MatzStoredDealOut()
    result = MatzGameResultOut()
    created_at = utc_datetime()
    updated_at = utc_datetime()


class MatzSettlementOut(Shape):
    """Nothing beyond the balances, pairs and transfers."""


class MatzStatsOut(Shape):
    sessions = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    mm_losses = serializers.IntegerField()
    loss_rate = serializers.FloatField(allow_null=True)


#: The API's shapes of a Müller Matz session (games.Game).
DEAL_IN, BOARD_OUT, DEAL_OUT = MatzSessionDealIn, MatzScoreboardOut, MatzSessionDealOut
SETTLEMENT_DETAILS_OUT, STATS_OUT = MatzSettlementOut, MatzStatsOut


def deal_out(row: Deal, names: Names) -> dict[str, Any]:
    return {"number": row.number, "version": row.version, "kind": row.kind,
            "deal": names.deal_names(row.data), "result": names.deal_names(row.result),
            "created_at": row.created_at, "updated_at": row.updated_at}


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "muller_matz"
#: Its figures in the statistics tables (the group's, and one's own).
STATS_COLUMNS = (Column("mm_losses", gettext_lazy("Müller Matz")),)
#: Its figures on the player pages (``s``: the player's figures, ``s.<STATS_KEY>`` its own).
FIGURES_TEMPLATE = f"scorepad/_figures_{NAME}.html"


def losses(record: SessionRecord) -> dict[str, int]:
    out = dict.fromkeys(record.seats, 0)
    for d in record.deals:
        out[d.result["loser"]] += 1
    return out


def summary(record: SessionRecord) -> dict[str, Any]:
    lost = losses(record)
    return {"games": sum(lost.values()),
            "losses": [{"player": record.names[p], "losses": lost[p]} for p in record.seats]}


def stats_empty() -> dict[str, Any]:
    """A player's figures before any session: ``mm_losses`` counts the games the player
    lost (was the Müller Matz); ``wins`` counts games the player finished first (only when
    a finishing order was recorded)."""
    return {"sessions": 0, "games": 0, "wins": 0, "mm_losses": 0}


def stats_add(pid: str, record: SessionRecord, acc: dict[str, Any]) -> None:
    acc["sessions"] += 1
    for d in record.deals:
        acc["games"] += 1
        acc["mm_losses"] += int(d.result["loser"] == pid)
        order = d.data.get("finish_order") or []
        acc["wins"] += int(bool(order) and order[0] == pid)


def stats_finish(acc: dict[str, Any]) -> dict[str, Any]:
    return acc | {"loss_rate": rate(acc["mm_losses"], acc["games"])}


def stats_contract(acc: dict[str, Any]) -> dict[str, int]:
    """This family's part of the API's top-level figures."""
    return {"games": acc["games"], "wins": acc["wins"], "mm_losses": acc["mm_losses"]}


def won_games(record: SessionRecord) -> None:
    """Not part of the groups' chart of games won (that one counts Mulatschak games)."""
    return None


def session_points(pid: str, record: SessionRecord) -> None:
    return None


def sheet_rows(record: SessionRecord) -> list[dict[str, Any]]:
    running = dict.fromkeys(record.seats, 0)
    rows = []
    for d in record.deals:
        loser = d.result["loser"]
        running[loser] += 1
        order = [record.names.get(p, p) for p in d.result.get("order", [])]
        rows.append({"number": d.number, "order": order, "cells": [
            {"lost": p == loser, "total": running[p]} for p in record.seats]})
    return rows


def chart_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    """Running losses after each game."""
    running = dict.fromkeys(record.seats, 0)
    series: dict[str, list[list[tuple[float, float]]]] = {p: [[(0.0, 0.0)]] for p in record.seats}
    for i, d in enumerate(record.deals, start=1):
        running[d.result["loser"]] += 1
        for p in record.seats:
            series[p][-1].append((float(i), float(running[p])))
    return series, [], []


def csv_rows(names: Names, deals: Sequence[Deal]) -> list[list[object]]:
    order = names.seats
    rows: list[list[object]] = [[_("game"), _("loser"), _("finishing order"),
                                 *[f"{names.to_name(p)} {_('losses')}" for p in order]]]
    for d in deals:
        r = d.result
        rows.append([d.number, names.to_name(r.get("loser", "")),
                     " > ".join(names.to_name(p) for p in r.get("order", [])),
                     *[r.get("losses_after", {}).get(p) for p in order]])
    return rows


def history_detail(seats: list[str], data: dict[str, Any]) -> None:
    return None


# --- the pages: scoreboard, the game form ----------------------------------------------------

SESSION_TEMPLATE = "scorepad/session_game.html"
FORM_FRAGMENT = "scorepad/session_game.html#gameform"
#: The form itself, which session_game.html's ``gameform`` includes.
FORM_PART = f"scorepad/_form_{NAME}.html"
EDIT_TEMPLATE = "scorepad/deal_edit_game.html"
#: The game's parts of the pages every game shares: the scoreboard, the paper sheet (it
#: extends scorepad/sheet.html) and the settlement's words on the rules of money.
BOARD_TEMPLATE = "scorepad/_board_matz.html"
SHEET_TEMPLATE = "scorepad/sheet_muller_matz.html"
SUMMARY_TEMPLATE = f"scorepad/_deal_summary_{NAME}.html"
SESSION_LINE_TEMPLATE = f"scorepad/_session_line_{NAME}.html"
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
                               "game_form": FORM_PART}
    if number is not None:
        context["current_loser"] = (post or {}).get("loser")
    if mode == "order":
        context |= _order_context(names, post or {}, submitted)
    return context


def _order_context(names: Names, post: Any, submitted: bool) -> dict[str, Any]:
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
        result = check_result(names.seats, ids)
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
                general.append(violation_message(v))
            for k in at:
                errors.setdefault(k, []).append(violation_message(v))
    if submitted:
        for k, name in enumerate(order):
            if not name:
                errors.setdefault(k, []).append(_("Who finished in this place?"))
    last = len(seats) - 1
    places = [{"index": k, "value": order[k], "errors": errors.get(k, []), "last": k == last}
              for k in range(len(seats))]
    return {"places": places, "general_errors": general, "legal": legal,
            "packs": packs_for(len(seats)),
            "winner": order[0] if legal else None, "loser": order[-1] if legal else None}
