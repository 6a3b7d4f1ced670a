"""Cup points and a season's standings (docs/tournaments.md, "Seasons"): pure functions
over each event's places, exact (``Fraction``), so that a shared place or an average never
rounds before the end.

- Place k at an event earns ``cup_points[k − 1]`` (0 beyond the list); players sharing
  places share the mean of those places' cup points.
- A player's results: one per event played; with ``best_of`` N only the N highest count
  (equal results: the earlier event first).
- ``points``: the counted results' sum; ``wins``: events at place 1 (shared or not);
  ``average``: every result's sum ÷ events played; ``qualified``: at least
  ``min_events`` events.
- The order: qualified first, then points, wins, average (all descending, exact); a place
  is 1 + the players standing strictly before (1, 2, 2, 4), counted on through the
  unqualified.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

P = TypeVar("P", bound=Hashable)


def cup_points_of(places: Mapping[P, int], cup_points: Sequence[Fraction]
                  ) -> dict[P, Fraction]:
    """Each player's cup points at one event by their place: players sharing a place
    share the mean of the places they cover."""
    sharing = Counter(places.values())
    out = {}
    for player, place in places.items():
        covered = range(place, place + sharing[place])
        total = sum((cup_points[k - 1] if k <= len(cup_points) else Fraction(0)
                     for k in covered), Fraction(0))
        out[player] = total / sharing[place]
    return out


@dataclass(frozen=True)
class Result:
    """A player's result at one event (``event``: its index in the season's events)."""

    event: int
    place: int
    points: Fraction
    counted: bool = True


@dataclass
class Line(Generic[P]):
    """A player's line of the standings."""

    player: P
    results: list[Result] = field(default_factory=list)
    points: Fraction = Fraction(0)
    wins: int = 0
    average: Fraction = Fraction(0)
    qualified: bool = True
    place: int = 0

    @property
    def events(self) -> int:
        return len(self.results)

    @property
    def key(self) -> tuple[bool, Fraction, int, Fraction]:
        """What the standings compare, higher is better."""
        return (self.qualified, self.points, self.wins, self.average)


def counted(results: Sequence[Result], best_of: int | None) -> list[Result]:
    """The results with ``counted`` set: all of them, or the ``best_of`` highest (equal
    results: the earlier event counts first)."""
    if best_of is None:
        return [Result(r.event, r.place, r.points, True) for r in results]
    best = sorted(results, key=lambda r: (-r.points, r.event))[:best_of]
    chosen = {r.event for r in best}
    return [Result(r.event, r.place, r.points, r.event in chosen) for r in results]


def standings(events: Sequence[Mapping[P, int]], cup_points: Sequence[Fraction],
              best_of: int | None = None, min_events: int = 0,
              order: Callable[[P], Any] | None = None) -> list[Line[P]]:
    """Every player of any event (``events``: each event's places by player, in the
    season's order), best first, each with a place; equal players in ``order`` (by the
    player itself when None)."""
    results: dict[P, list[Result]] = {}
    for index, places in enumerate(events):
        for player, points in cup_points_of(places, cup_points).items():
            results.setdefault(player, []).append(Result(index, places[player], points))
    lines = []
    for player, own in results.items():
        marked = counted(own, best_of)
        lines.append(Line(
            player, marked, points=sum((r.points for r in marked if r.counted), Fraction(0)),
            wins=sum(1 for r in marked if r.place == 1),
            average=sum((r.points for r in marked), Fraction(0)) / len(marked),
            qualified=len(marked) >= min_events))
    by = order or (lambda player: player)
    lines.sort(key=lambda line: by(line.player))
    lines.sort(key=lambda line: line.key, reverse=True)  # stable: equal ones stay in order
    for index, line in enumerate(lines):  # 1 + the players strictly before
        before = lines[index - 1] if index else None
        line.place = before.place if before is not None and before.key == line.key \
            else index + 1
    return lines
