"""Looking back at Müller Matz: statistics, the paper sheet, the chart, the CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ...loaded import Names, SessionRecord
from ..base import Column, places, rate

if TYPE_CHECKING:
    from ...models import Deal, Session


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "muller_matz"
#: Its figures in the statistics tables (the group's, and one's own).
STATS_COLUMNS = (Column("mm_losses", gettext_lazy("Müller Matz"), headline=True),)
#: Its figures on the player pages (``s``: the player's figures, ``s.<STATS_KEY>`` its own).
FIGURES_TEMPLATE = "scorepad/_figures_muller_matz.html"


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


def placings(record: SessionRecord) -> list[dict[str, int]]:
    """Every recorded game is a finished game for the ratings (docs/rules.md "Ratings"):
    its finishing order where it was recorded, else the loser last and the others
    sharing the first place."""
    out = []
    for d in record.deals:
        order = list(d.result.get("order") or [])
        if order:
            out.append(places({p: order.index(p) for p in record.seats}))
        else:
            out.append(places({p: p == d.result["loser"] for p in record.seats}))
    return out


def card(record: SessionRecord) -> dict[str, Any]:
    """The evening's card (scorepad/card.py): the players by games lost, the fewest
    first, with the games they finished first in (no line for none)."""
    lost = losses(record)
    first: dict[str, int] = dict.fromkeys(record.seats, 0)
    for d in record.deals:
        order = d.result.get("order") or []
        if order:
            first[order[0]] += 1
    standings = [{"player": p,
                  "figure": ngettext("%(n)s game lost", "%(n)s games lost", lost[p])
                  % {"n": lost[p]},
                  "detail": ngettext("first out %(n)s time", "first out %(n)s times",
                                     first[p]) % {"n": first[p]} if first[p] else ""}
                 for p in sorted(record.seats, key=lambda p: (lost[p], -first[p]))]
    played = len(record.deals)
    return {"standings": standings,
            "facts": [ngettext("%(n)s game played", "%(n)s games played", played)
                      % {"n": played}] if played else []}


def evening_places(session: Session, seats: Sequence[str],
                   games: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A season's place at the evening (docs/tournaments.md, "Seasons"): by games lost,
    the fewest first."""
    state = session.state if isinstance(session.state, dict) else {}
    lost = state.get("losses") or {}
    return places({p: int(lost.get(p, 0)) for p in seats})


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
