"""Looking back at Mulatschak: statistics, the paper sheet, the chart, the CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee.deal import MULI

from ...cardnames import SUITS
from ...charts import as_figure
from ...loaded import Names, SessionRecord
from ..base import Column, places, rate
from .play import MULI_NAMES, NAME, factors_text

if TYPE_CHECKING:
    from ...models import Deal, Session


# --- looking back: statistics, the paper sheet, the chart, the CSV ----------------------------

STATS_KEY = "mulatschak"
#: Its figures in the statistics tables (the group's, and one's own).
STATS_COLUMNS = (
    Column("games", gettext_lazy("Games"), tables=("group",)),
    Column("wins", gettext_lazy("Wins"), tables=("group",), headline=True),
    Column("win_rate", gettext_lazy("Win rate"), "rate"),
    Column("points_per_deal", gettext_lazy("Points per deal"), "number", headline=True),
    Column("made_rate", gettext_lazy("Bids made"), "rate", headline=True),
    Column("muli_made", gettext_lazy("Muli made"), tables=("group",)),
    Column("stayed_home", gettext_lazy("Stayed home"), tables=("group",)),
)
#: Its figures on the player pages (``s``: the player's figures, ``s.<STATS_KEY>`` its own).
FIGURES_TEMPLATE = f"scorepad/_figures_{NAME}.html"
#: A player's declared bids are counted by these keys (a bid of five: the Muli).
BID_KEYS = ("1", "2", "3", "4", "muli")


def finished_games(record: SessionRecord) -> list[tuple[dict[str, int], list[str]]]:
    """(final scores, winners) of each game a deal ended."""
    return [
        (dict(d.result["scores_after"]), list(d.result.get("winners", [])))
        for d in record.deals
        if d.result.get("game_over")
    ]


def summary(record: SessionRecord) -> dict[str, Any]:
    games = finished_games(record)
    name = record.names.get
    return {"games": len(games),
            "winners": [", ".join(str(name(w, w)) for w in winners) for _, winners in games]}


def stats_empty() -> dict[str, Any]:
    """A player's figures before any session. ``deals_played`` counts played deals the
    player took part in (not staying home); ``stayed_home`` the played deals they stayed
    home from. ``points`` is the sum of the player's score changes (lower is better: scores
    count down to 0), and ``points_per_deal`` divides it by the played deals the player
    was seated at (played or stayed home). ``games`` are finished games (a deal ended them)
    at the player's table, ``wins`` the ones the player won (a tie shares the win). A bid
    of 5 is the Muli. ``hearts_deals``: played deals with hearts trump the player took
    part in. ``biggest_multiplier_survived``: the largest multiplier of a deal the player
    declared and made (null if never); ``biggest_multiplier_played``: the largest of any
    deal the player took part in."""
    return {
        "sessions": 0, "games": 0, "wins": 0, "deals_seated": 0, "deals_played": 0,
        "deals_declared": 0, "deals_made": 0, "muli_tried": 0, "muli_made": 0,
        "stayed_home": 0, "hearts_deals": 0, "points": 0,
        "biggest_multiplier_survived": None, "biggest_multiplier_played": None,
        "_bids": {k: {"declared": 0, "made": 0} for k in BID_KEYS},
    }


def stats_add(pid: str, record: SessionRecord, mul: dict[str, Any]) -> None:
    bids = mul["_bids"]
    mul["sessions"] += 1
    for d in record.deals:
        result = d.result
        if result.get("game_over"):
            mul["games"] += 1
            mul["wins"] += int(pid in result.get("winners", []))
        if d.kind != "played" or result.get("sitting_out") == pid:
            continue
        data = d.data
        mul["deals_seated"] += 1
        mul["points"] += int(result["deltas"].get(pid, 0))
        if pid in data.get("stayed_home", []):
            mul["stayed_home"] += 1
            continue
        multiplier = int(result.get("multiplier", 1))
        mul["deals_played"] += 1
        mul["hearts_deals"] += int(data.get("trump") == "hearts")
        mul["biggest_multiplier_played"] = max(mul["biggest_multiplier_played"] or 0,
                                               multiplier)
        if data.get("declarer") != pid:
            continue
        bid = int(data["bid"])
        made = bool(result.get("declarer_made"))
        key = "muli" if bid == MULI else str(bid)
        mul["deals_declared"] += 1
        mul["deals_made"] += int(made)
        bids[key]["declared"] += 1
        bids[key]["made"] += int(made)
        if bid == MULI:
            mul["muli_tried"] += 1
            mul["muli_made"] += int(made)
        if made:
            mul["biggest_multiplier_survived"] = max(
                mul["biggest_multiplier_survived"] or 0, multiplier)


def stats_finish(acc: dict[str, Any]) -> dict[str, Any]:
    mul = dict(acc)
    bids = mul.pop("_bids")
    declared = mul["deals_declared"]
    return mul | {
        "deals_fallen": declared - mul["deals_made"],
        "made_rate": rate(mul["deals_made"], declared),
        "win_rate": rate(mul["wins"], mul["games"]),
        "points_per_deal": (None if not mul["deals_seated"] else
                            round(as_figure(Fraction(mul["points"], mul["deals_seated"])), 2)),
        "by_bid": {k: v | {"fallen": v["declared"] - v["made"],
                           "rate": rate(v["made"], v["declared"])}
                   for k, v in bids.items()},
    }


def stats_contract(acc: dict[str, Any]) -> dict[str, int]:
    """This family's part of the API's top-level figures."""
    return {k: acc[k] for k in ("games", "wins", "deals_played", "deals_declared",
                                "deals_made", "muli_tried", "muli_made", "stayed_home")}


def won_games(record: SessionRecord) -> dict[str, int]:
    """Games won per player in this session (for the groups' chart of games won)."""
    won: dict[str, int] = {}
    for _scores, winners in finished_games(record):
        for w in winners:
            won[w] = won.get(w, 0) + 1
    return won


def placings(record: SessionRecord) -> list[dict[str, int]]:
    """Each finished game's places (the ratings, docs/rules.md "Ratings"): its winners
    first, then the others by their final score, the lowest first (scores count down);
    equal scores share a place."""
    return [places({p: (p not in winners, score) for p, score in final.items()})
            for final, winners in finished_games(record)]


def card(record: SessionRecord) -> dict[str, Any]:
    """The evening's card (scorepad/card.py): the players by games won, then by their
    score now (the lowest first: scores count down); the made Mulis and the biggest
    multiplier of the evening. A line that would say nothing (no game won, none
    finished) is left out."""
    state = record.session.state if isinstance(record.session.state, dict) else {}
    start = int(record.session.rules.get("start_score", 0))
    scores = {p: int(state.get("scores", {}).get(p, start)) for p in record.seats}
    won = won_games(record)
    standings = [
        {"player": p, "figure": ngettext("%(score)s point", "%(score)s points",
                                         abs(scores[p])) % {"score": scores[p]},
         "detail": ngettext("%(n)s game won", "%(n)s games won", won[p]) % {"n": won[p]}
         if won.get(p) else ""}
        for p in sorted(record.seats, key=lambda p: (-won.get(p, 0), scores[p]))]
    name = record.names.get
    muli = MULI_NAMES.get(record.session.preset, "Muli")
    finished = len(finished_games(record))
    facts = [ngettext("%(n)s game finished", "%(n)s games finished", finished)
             % {"n": finished}] if finished else []
    biggest = None
    for d in record.deals:
        multiplier = int(d.result.get("multiplier", 1) or 1)
        if d.kind == "played" and (biggest is None or multiplier > biggest[0]):
            biggest = (multiplier, d)
        if d.kind == "played" and int(d.data.get("bid", 0)) == MULI and d.result.get(
                "declarer_made"):
            facts.append(_("%(muli)s made: %(player)s (deal %(number)s)")
                         % {"muli": muli, "player": name(d.data.get("declarer"), "?"),
                            "number": d.number})
    if biggest is not None and biggest[0] > 1:
        facts.append(_("Biggest multiplier: ×%(multiplier)s (deal %(number)s, %(player)s)")
                     % {"multiplier": biggest[0], "number": biggest[1].number,
                        "player": name(biggest[1].data.get("declarer"), "?")})
    return {"standings": standings, "facts": facts}


def evening_places(session: Session, seats: Sequence[str],
                   games: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A season's place at the evening (docs/tournaments.md, "Seasons"): by games won,
    more first (every winner of a game counts it), then by the score in the last,
    unfinished game at the close, the lowest first (scores count down; 0 for everybody
    when the last game ended)."""
    won: dict[str, int] = {}
    for game in games:
        for winner in game.get("winners") or []:
            won[winner] = won.get(winner, 0) + 1
    state = session.state if isinstance(session.state, dict) else {}
    start = int(session.rules.get("start_score", 0))
    ended = bool(state.get("game_over"))
    scores = state.get("scores") or {}
    return places({p: (-won.get(p, 0), 0 if ended else int(scores.get(p, start)))
                   for p in seats})


def session_points(pid: str, record: SessionRecord) -> int:
    """The player's sum of score changes in the session (lower is better)."""
    return sum(int(d.result.get("deltas", {}).get(pid, 0)) for d in record.deals)


def sheet_rows(record: SessionRecord) -> list[dict[str, Any]]:
    names = record.names
    rows: list[dict[str, Any]] = []
    for d in record.deals:
        result, data = d.result, d.data
        home = set(data.get("stayed_home", []))
        multiplier = result.get("multiplier", 1)
        cells = []
        for p in record.seats:
            cells.append({
                "delta": result.get("deltas", {}).get(p) if d.kind == "played" else None,
                "score": (result.get("scores_after") or result.get("scores_before", {})).get(p),
                "home": p in home,
                "declarer": data.get("declarer") == p,
                "winner": bool(result.get("game_over")) and p in result.get("winners", []),
            })
        rows.append({
            "number": d.number,
            "game_number": result.get("game_number"),
            "dealer": names.get(result.get("dealer", ""), ""),
            "kind": d.kind,
            "declarer": names.get(data.get("declarer") or "", ""),
            "bid": data.get("bid"),
            "trump": data.get("trump"),
            "trump_name": SUITS["german"].get(data.get("trump") or "", ""),
            "made": result.get("declarer_made"),
            "knocked": data.get("knocked"),
            # the sheet notes only what doubled the deal
            "notes": "" if multiplier == 1 else factors_text(result.get("factors", []),
                                                              multiplier),
            "cells": cells,
            "game_over": bool(result.get("game_over")),
            "winners": [names.get(w, w) for w in result.get("winners", [])],
        })
    return rows


def chart_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    """The score after each deal, a new segment (from the start score) for each new game,
    the game boundaries, and the start score and game-end target as reference lines."""
    s = record.session
    series: dict[str, list[list[tuple[float, float]]]] = {}
    boundaries: list[float] = []
    references: list[tuple[float, str]] = []
    start_score = int(s.rules.get("start_score", 0))
    target = s.rules.get("target_score")
    references.append((as_figure(start_score), "start"))
    if target is not None:
        references.append((as_figure(int(target)), "target"))
    for p in record.seats:
        series[p] = [[(0.0, as_figure(start_score))]]
    for i, d in enumerate(record.deals, start=1):
        before = d.result.get("scores_before", {})
        after = d.result.get("scores_after") or before
        if i > 1 and record.deals[i - 2].result.get("game_over"):
            boundaries.append(float(i - 1))
            for p in record.seats:
                series[p].append([(float(i - 1), as_figure(before.get(p, start_score)))])
        for p in record.seats:
            series[p][-1].append((float(i), as_figure(after.get(p, 0))))
    return series, boundaries, references


def csv_rows(names: Names, deals: Sequence[Deal]) -> list[list[object]]:
    order = names.seats
    header: list[object] = [_("deal"), _("game"), _("dealer")]
    for name in (names.to_name(p) for p in order):
        header += [name, f"{name} {_('score')}"]
    rows: list[list[object]] = [[*header, _("multiplier"), _("notes")]]
    for d in deals:
        r = d.result
        row: list[object] = [d.number, r.get("game_number"), names.to_name(r.get("dealer", ""))]
        for p in order:
            row += [r.get("deltas", {}).get(p), r.get("scores_after", {}).get(p)]
        rows.append([*row, r.get("multiplier"), _csv_note(d, names)])
    return rows


def _csv_note(deal: Deal, names: Names) -> str:
    data = deal.data
    if data.get("kind") != "played":
        return str(data.get("kind", ""))
    note = f"{names.to_name(str(data.get('declarer')))} {data.get('bid')} {data.get('trump')}"
    if deal.result.get("game_over"):
        note += " · " + _("game over")
    return note


def history_detail(seats: list[str], data: dict[str, Any]) -> None:
    return None
