"""Places, points and the ranking of a tournament (docs/tournaments.md, "Places, points
and the ranking"): pure functions over the tables' results, exact (``Fraction``), so
that a shared place or a third of a point never rounds before the end.

- A table's places: the higher round score the better; players with equal scores share
  the places they cover, numbered as in sport (1, 2, 2, 4).
- ``placement``: place k at a table of n earns 3 × (n − k) / (n − 1); players sharing
  places share the mean of those places' points. ``score``: the points are the score.
- The ranking: by points, then score, then wins (rounds at place 1, shared or not), all
  descending and exact; players equal in all three share a place (1, 2, 2, 4).
- Figures are shown as decimal strings with two places, rounded half away from zero.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

PLACEMENT = "placement"
SCORE = "score"
#: The points of place 1 under ``placement``.
TOP = 3


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


@dataclass(frozen=True)
class Seated(Generic[P]):
    """One player's round at a table."""

    round: int
    table: int
    place: int
    points: Fraction
    score: Fraction


def table_rounds(round_number: int, table: int, scores: Mapping[P, Fraction],
                 scoring: str) -> dict[P, Seated[P]]:
    """Each player's place, points and score at one table of one round."""
    at = places(scores)
    sharing: dict[int, int] = {}
    for place in at.values():
        sharing[place] = sharing.get(place, 0) + 1
    out = {}
    for p, score in scores.items():
        place = at[p]
        points = (place_points(place, sharing[place], len(scores)) if scoring == PLACEMENT
                  else Fraction(score))
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
    """A registered player: their id, name and start number."""

    player: P
    name: str
    number: int


@dataclass
class Standing(Generic[P]):
    """A player's line of the ranking."""

    entry: Entry[P]
    points: Fraction = Fraction(0)
    score: Fraction = Fraction(0)
    wins: int = 0
    rounds: list[Seated[P]] = field(default_factory=list)
    place: int = 0

    @property
    def key(self) -> tuple[Fraction, Fraction, int]:
        """What the ranking compares (higher is better)."""
        return (self.points, self.score, self.wins)

    def as_json(self) -> dict[str, object]:
        return {
            "place": self.place, "name": self.entry.name, "number": self.entry.number,
            "points": two_places(self.points), "score": two_places(self.score),
            "wins": self.wins,
            "rounds": [{"round": r.round, "table": r.table, "place": r.place,
                        "points": two_places(r.points), "score": two_places(r.score)}
                       for r in self.rounds],
        }


def ranking(entries: Sequence[Entry[P]], tables: Sequence[TableResult[P]],
            scoring: str) -> list[Standing[P]]:
    """Every registered player (withdrawn ones with what they played), best first, each
    with a sport place; equal players in start-number order."""
    lines = {e.player: Standing(e) for e in entries}
    for table in sorted(tables, key=lambda t: (t.round, t.table)):
        for p, seated in table_rounds(table.round, table.table, table.scores,
                                      scoring).items():
            line = lines.get(p)
            if line is None:
                continue
            line.points += seated.points
            line.score += seated.score
            line.wins += seated.place == 1
            line.rounds.append(seated)
    ordered = sorted(lines.values(), key=lambda s: (tuple(-x for x in s.key), s.entry.number))
    for index, line in enumerate(ordered):
        before = ordered[index - 1] if index else None
        line.place = before.place if before is not None and before.key == line.key \
            else index + 1
    return ordered


def standing_keys(lines: Sequence[Standing[P]]) -> list[tuple[P, tuple[Fraction, Fraction, int]]]:
    """(player, standing key) best first: what a swiss draw orders by."""
    return [(line.entry.player, line.key) for line in lines]
