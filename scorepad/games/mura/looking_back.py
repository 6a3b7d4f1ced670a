"""Looking back at Mura: statistics, the paper sheet, the chart, the CSV, a deal card by
card in the history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee import tally
from referee.violations import RuleError

from ...cardnames import card_name
from ...loaded import Names, SessionRecord
from ..base import (
    Column,
    places,
    rate,
)
from .play import NAME, PACK, seat_rules, zeros_per_mura

if TYPE_CHECKING:
    from ...models import Deal, Session


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "mura_stats"
#: Its figures in the statistics tables (the group's, and one's own).
STATS_COLUMNS = (Column("mura", gettext_lazy("Mura"), headline=True),
                 Column("zeros", gettext_lazy("Zeros"), headline=True))
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


def placings(record: SessionRecord) -> list[dict[str, int]]:
    """A closed session with deals is one finished game for the ratings (docs/rules.md
    "Ratings"; an open one is still being played): the players by their penalty points,
    mura + zeros ÷ ``zeros_per_mura`` as in the settlement, the fewest first."""
    if record.session.status != "closed" or not record.deals:
        return []
    per_mura = zeros_per_mura(record.session)
    return [places({p: Fraction(mura) + Fraction(zeros, per_mura)
                    for p, (mura, zeros) in totals(record).items()})]


def card(record: SessionRecord) -> dict[str, Any]:
    """The evening's card (scorepad/card.py): the players by penalty points, the fewest
    first (as the settlement counts them), with their mura and zeros (no line for none).
    """
    figures = totals(record)
    per_mura = zeros_per_mura(record.session)
    order = sorted(record.seats, key=lambda p: (Fraction(figures[p][0])
                                                + Fraction(figures[p][1], per_mura)))
    standings = [{"player": p,
                  "figure": ngettext("%(n)s mura", "%(n)s mura", figures[p][0])
                  % {"n": figures[p][0]},
                  "detail": ngettext("%(n)s zero", "%(n)s zeros", figures[p][1])
                  % {"n": figures[p][1]} if figures[p][1] else ""} for p in order]
    deals = len(record.deals)
    return {"standings": standings,
            "facts": [ngettext("%(n)s deal", "%(n)s deals", deals) % {"n": deals}]
            if deals else []}


def evening_places(session: Session, seats: Sequence[str],
                   games: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A season's place at the evening (docs/tournaments.md, "Seasons"): by penalty
    points, mura + zeros ÷ ``zeros_per_mura`` as in the settlement, the fewest first."""
    state = session.state if isinstance(session.state, dict) else {}
    mura, zeros = state.get("mura") or {}, state.get("zeros") or {}
    per_mura = zeros_per_mura(session)
    return places({p: Fraction(int(mura.get(p, 0))) + Fraction(int(zeros.get(p, 0)), per_mura)
                   for p in seats})


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
        result = tally.mura_check(seats, data, seat_rules(len(seats)))
    except RuleError:
        return None
    tricks = [{"number": o.number, "winner": o.winner,
               "cards": [(p, card_name(c.code, PACK)) for p, c in o.plays]}
              for o in result.tricks]
    return {"tricks": tricks, "results": dict(result.results)}
