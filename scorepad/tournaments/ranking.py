"""Places, points and the ranking of a tournament (docs/tournaments.md, "Places, points
and the ranking" and "Tournament formats"): pure functions over the tables' results,
exact (``Fraction``), so that a shared place or a third of a point never rounds before
the end.

- A table's places: the higher round score the better; players with equal scores share
  the places they cover, numbered as in sport (1, 2, 2, 4).
- ``placement``: place k at a table of n earns 3 × (n − k) / (n − 1); ``score``: the
  points are the score; ``combined``: the score plus ``rank_points[k − 1]`` (0 beyond
  the list). Players sharing places share the mean of those places' points.
- The ranking: by points, then the tie-breaks in their order (``score``, ``wins``:
  rounds at place 1, shared or not; ``best_round``: the best single round's points;
  ``lot``: the draw by lot, 1 the best), all exact; players equal in all share a place
  (1, 2, 2, 4). With ``lot`` every place is distinct.
- The final (``with_final``): its players first, by final table and their place there;
  everybody else after them in the order of the qualifying rounds.
- Figures are shown as decimal strings with two places, rounded half away from zero.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

P = TypeVar("P", bound=Hashable)

PLACEMENT = "placement"
SCORE = "score"
COMBINED = "combined"
#: The points of place 1 under ``placement``.
TOP = 3

#: The tie-breaks a tournament may compare after points, and the default.
WINS = "wins"
BEST_ROUND = "best_round"
LOT = "lot"
TIEBREAKS = (SCORE, WINS, BEST_ROUND, LOT)
DEFAULT_TIEBREAKS = (SCORE, WINS)


@dataclass(frozen=True)
class Format:
    """How a tournament makes points of places and orders its ranking."""

    scoring: str = PLACEMENT
    rank_points: tuple[Fraction, ...] = ()
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS


def format_of(scoring: str | Format) -> Format:
    return scoring if isinstance(scoring, Format) else Format(scoring)


def two_places(value: Fraction) -> str:
    """``value`` as a decimal string with two places, half away from zero ("-0.00" never)."""
    hundredths = abs(value) * 100
    whole = int(hundredths)  # floor of a non-negative value
    if hundredths - whole >= Fraction(1, 2):
        whole += 1
    sign = "-" if value < 0 and whole else ""
    return f"{sign}{whole // 100}.{whole % 100:02d}"


def places(scores: Mapping[P, Fraction]) -> dict[P, int]:
    """Sport places by score, higher first: equal scores share the first place they
    cover (1, 2, 2, 4)."""
    ordered = sorted(scores.values(), reverse=True)
    first = {}
    for index, value in enumerate(ordered):
        first.setdefault(value, index + 1)
    return {p: first[v] for p, v in scores.items()}


def place_points(place: int, sharing: int, players: int) -> Fraction:
    """``placement`` points of a place at a table of ``players``, shared by ``sharing``
    players (the mean of the places ``place`` .. ``place + sharing − 1``)."""
    if players < 2:
        return Fraction(0)
    covered = range(place, place + sharing)
    return sum((Fraction(TOP * (players - k), players - 1) for k in covered),
               Fraction(0)) / sharing


def rank_points_of(place: int, sharing: int, rank_points: Sequence[Fraction]) -> Fraction:
    """``combined`` scoring's rank points of a place shared by ``sharing`` players: the
    mean of those places' rank points, 0 for a place beyond the list."""
    covered = range(place, place + sharing)
    return sum((rank_points[k - 1] if k <= len(rank_points) else Fraction(0)
                for k in covered), Fraction(0)) / sharing


@dataclass(frozen=True)
class Seated(Generic[P]):
    """One player's round at a table."""

    round: int
    table: int
    place: int
    points: Fraction
    score: Fraction


def table_rounds(round_number: int, table: int, scores: Mapping[P, Fraction],
                 scoring: str | Format) -> dict[P, Seated[P]]:
    """Each player's place, points and score at one table of one round."""
    how = format_of(scoring)
    at = places(scores)
    sharing: dict[int, int] = {}
    for place in at.values():
        sharing[place] = sharing.get(place, 0) + 1
    out = {}
    for p, score in scores.items():
        place = at[p]
        if how.scoring == PLACEMENT:
            points = place_points(place, sharing[place], len(scores))
        elif how.scoring == COMBINED:
            points = Fraction(score) + rank_points_of(place, sharing[place], how.rank_points)
        else:
            points = Fraction(score)
        out[p] = Seated(round_number, table, place, points, Fraction(score))
    return out


@dataclass(frozen=True)
class TableResult(Generic[P]):
    """A table's round scores (higher is better), by player."""

    round: int
    table: int
    scores: Mapping[P, Fraction]


@dataclass(frozen=True)
class Entry(Generic[P]):
    """A registered player: their id, name and start number; their draw by lot (None
    until drawn), category ("" for none) and whether they withdrew."""

    player: P
    name: str
    number: int
    lot: int | None = None
    category: str = ""
    withdrawn: bool = False


#: A tie-break's value when nothing decides it (a lot not drawn, no round played): below
#: every value that does.
_NONE = (0, Fraction(0))


@dataclass
class Standing(Generic[P]):
    """A player's line of the ranking."""

    entry: Entry[P]
    points: Fraction = Fraction(0)
    score: Fraction = Fraction(0)
    wins: int = 0
    rounds: list[Seated[P]] = field(default_factory=list)
    place: int = 0
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    #: The final: the player's table and place there (None outside the final).
    final_table: int | None = None
    final_place: int | None = None

    @property
    def best_round(self) -> Fraction | None:
        """The best single round's points; None before the player's first round."""
        return max((r.points for r in self.rounds), default=None)

    def tiebreak(self, name: str) -> Any:
        """A tie-break's value, higher is better."""
        if name == SCORE:
            return self.score
        if name == WINS:
            return self.wins
        if name == BEST_ROUND:
            best = self.best_round
            return _NONE if best is None else (1, best)
        if name == LOT:
            lot = self.entry.lot
            return _NONE if lot is None else (1, Fraction(-lot))
        raise ValueError(name)

    @property
    def key(self) -> tuple[Any, ...]:
        """What the ranking compares (higher is better): points, then the tie-breaks."""
        return (self.points, *(self.tiebreak(name) for name in self.tiebreaks))

    def as_json(self, *, lot: bool = False) -> dict[str, object]:
        """The API's ranking entry; ``lot``: the tournament draws lots (they are shown)."""
        out: dict[str, object] = {
            "place": self.place, "name": self.entry.name, "number": self.entry.number,
            "points": two_places(self.points), "score": two_places(self.score),
            "wins": self.wins,
            "rounds": [{"round": r.round, "table": r.table, "place": r.place,
                        "points": two_places(r.points), "score": two_places(r.score)}
                       for r in self.rounds],
            "final_table": self.final_table, "final_place": self.final_place,
            "category": self.entry.category or None, "withdrawn": self.entry.withdrawn,
        }
        if lot:
            out["lot"] = self.entry.lot
        return out


def _sport_places(lines: Sequence[Standing[P]], start: int = 1) -> None:
    """Places of lines in order: equal keys share the place, numbered as in sport."""
    for index, line in enumerate(lines):
        before = lines[index - 1] if index else None
        line.place = before.place if before is not None and before.key == line.key \
            else start + index


def ranking(entries: Sequence[Entry[P]], tables: Sequence[TableResult[P]],
            scoring: str | Format, final: Sequence[TableResult[P]] = ()
            ) -> list[Standing[P]]:
    """Every registered player (withdrawn ones with what they played), best first, each
    with a sport place; equal players in start-number order. ``final``: the closed
    final's tables (``with_final``); their points are not added."""
    how = format_of(scoring)
    lines = {e.player: Standing(e, tiebreaks=how.tiebreaks) for e in entries}
    for table in sorted(tables, key=lambda t: (t.round, t.table)):
        for p, seated in table_rounds(table.round, table.table, table.scores, how).items():
            line = lines.get(p)
            if line is None:
                continue
            line.points += seated.points
            line.score += seated.score
            line.wins += seated.place == 1
            line.rounds.append(seated)
    by_number = sorted(lines.values(), key=lambda s: s.entry.number)
    ordered = sorted(by_number, key=lambda s: s.key, reverse=True)  # stable: numbers
    _sport_places(ordered)
    return with_final(ordered, final) if final else ordered


def lot_order(line: Standing[P]) -> tuple[int, int]:
    """Orders players by their lot (1 first), those without one after them."""
    lot = line.entry.lot
    return (0, lot) if lot is not None else (1, line.entry.number)


def with_final(lines: Sequence[Standing[P]], final: Sequence[TableResult[P]]
               ) -> list[Standing[P]]:
    """The ranking once the final is closed (``lines``: the qualifying rounds' ranking):
    the finalists first, final table 1 before table 2, within a table by their place
    there (equal places by the qualifying place, then by lot); then everybody else in the
    qualifying order. A finalist's place is 1 + the players before it at a better final
    table or at its table with a better final place; anybody else's is 1 + the players
    ranked strictly better."""
    at: dict[P, tuple[int, int]] = {}
    for table in final:
        for p, place in places(table.scores).items():
            at[p] = (table.table, place)
    index = {line.entry.player: i for i, line in enumerate(lines)}
    finalists = [line for line in lines if line.entry.player in at]
    for line in finalists:
        line.final_table, line.final_place = at[line.entry.player]
    finalists.sort(key=lambda s: (s.final_table, s.final_place, s.place, lot_order(s),
                                  index[s.entry.player]))
    for line in finalists:
        line.place = 1 + sum(1 for other in finalists
                             if (other.final_table, other.final_place)
                             < (line.final_table, line.final_place))
    others = [line for line in lines if line.entry.player not in at]
    for line in others:
        line.place = 1 + len(finalists) + sum(1 for other in others if other.key > line.key)
    return finalists + others


def standing_keys(lines: Sequence[Standing[P]]) -> list[tuple[P, tuple[Any, ...]]]:
    """(player, standing key) best first: what a swiss draw orders by."""
    return [(line.entry.player, line.key) for line in lines]


def prize_order(lines: Sequence[Standing[P]]) -> list[Standing[P]]:
    """The ranking made strict for the prizes: by place, then by lot."""
    return sorted(lines, key=lambda s: (s.place, lot_order(s)))


def in_category(lines: Sequence[Standing[P]], key: str,
                fold: Any = str.casefold) -> list[tuple[int, Standing[P]]]:
    """(place in the category, line) for the players of one category, in the ranking's
    order: 1 + the category's players ranked strictly better (shared places stay
    shared). ``fold`` makes a category comparable (capitals aside)."""
    members = [line for line in lines if line.entry.category
               and fold(line.entry.category) == key]
    return [(1 + sum(1 for other in members if other.place < line.place), line)
            for line in members]
