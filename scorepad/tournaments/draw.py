"""Drawing a tournament round (docs/tournaments.md, "How tables are drawn"): how many tables
of which size, who sits at which table, in which seat, and who deals first.

Pure functions: no Django, no clock; the randomness is the ``random.Random`` passed in, so
a test can draw the same round again. Players are any hashable values (the services pass
entrant ids).

What the draw promises:

- every player who is drawn sits exactly once; tables have ``table_size`` players, and
  where the count does not divide, as few tables as possible have one more or one fewer
  (one more where both come to the same count), never fewer than the rules' fewest nor
  more than their most (``table_sizes``);
- ``random``: from round 2 on, the seating with the fewest repeat meetings the search
  finds (a pair that met twice counts twice). The search starts from a greedy seating
  (each player to the table where they met the fewest) and swaps players between tables
  while that lowers the count, from ``RESTARTS`` starting points; it stops at once when
  nobody meets anybody again. In round 2 it always finds a seating without a repeat
  meeting where one exists because every table of round 1 has no more players than
  round 2 has tables (16 at tables of 4: nobody twice), as the tests check for every
  count up to 100; later rounds get the fewest repeats it finds, not always the fewest
  there could be;
- ``swiss``: the players in order of standing, the best at table 1; players of equal
  standing (points, score and wins all equal) may trade tables to avoid repeat
  meetings, nobody else (that would cost standing);
- seats and the first dealer of every table are drawn at random.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

#: Starting points of the search for the fewest repeat meetings.
RESTARTS = 40
#: Passes of swaps from one starting point, at most.
PASSES = 30


def table_sizes(players: int, size: int, fewest: int, most: int) -> list[int] | None:
    """The sizes of the tables for ``players`` at tables of ``size``: as many as possible
    of ``size``, the others one more or one fewer (as few of those as possible; one more
    where it is a tie), each within ``fewest``..``most``. None when they cannot be seated
    so; tables with more players first."""
    if players <= 0 or size <= 0:
        return None
    best: tuple[int, int, list[int]] | None = None
    for count in range(1, players + 1):
        diff = players - count * size
        if abs(diff) > count:
            continue
        sizes = ([size + 1] * diff + [size] * (count - diff) if diff >= 0
                 else [size] * (count + diff) + [size - 1] * (-diff))
        if not all(fewest <= s <= most for s in sizes):
            continue
        key = (abs(diff), 0 if diff >= 0 else 1)
        if best is None or key < best[:2]:
            best = (*key, sizes)
    return None if best is None else best[2]


def pair(a: P, b: P) -> frozenset[P]:
    return frozenset((a, b))


def meetings(tables: Sequence[Sequence[P]]) -> dict[frozenset[P], int]:
    """How often each pair sat at one table, over ``tables`` (all earlier rounds')."""
    out: dict[frozenset[P], int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            key = pair(a, b)
            out[key] = out.get(key, 0) + 1
    return out


def repeats(tables: Sequence[Sequence[P]], met: Mapping[frozenset[P], int]) -> int:
    """The repeat meetings of a seating: every pair at one table, by how often it met."""
    return sum(met.get(pair(a, b), 0) for table in tables for a, b in combinations(table, 2))


def _cost_with(table: Sequence[P], player: P, met: Mapping[frozenset[P], int],
               but: P | None = None) -> int:
    return sum(met.get(pair(player, other), 0) for other in table
               if other != player and other != but)


def _greedy(players: list[P], sizes: Sequence[int], met: Mapping[frozenset[P], int],
            rng: random.Random) -> list[list[P]]:
    tables: list[list[P]] = [[] for _ in sizes]
    for player in players:
        free = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        costs = {i: _cost_with(tables[i], player, met) for i in free}
        low = min(costs.values())
        tables[rng.choice([i for i in free if costs[i] == low])].append(player)
    return tables


def _improve(tables: list[list[P]], met: Mapping[frozenset[P], int], rng: random.Random,
             may_swap: Mapping[P, Hashable] | None = None) -> int:
    """Swap players between tables while that lowers the repeat meetings; the count left.
    ``may_swap``: only players with the same value there may trade places."""
    cost = repeats(tables, met)
    for _pass in range(PASSES):
        if cost == 0:
            return 0
        improved = False
        order = [(i, j) for i in range(len(tables)) for j in range(i + 1, len(tables))]
        rng.shuffle(order)
        for i, j in order:
            for a_index in range(len(tables[i])):
                for b_index in range(len(tables[j])):
                    a, b = tables[i][a_index], tables[j][b_index]
                    if may_swap is not None and may_swap[a] != may_swap[b]:
                        continue
                    delta = (_cost_with(tables[j], a, met, but=b)
                             + _cost_with(tables[i], b, met, but=a)
                             - _cost_with(tables[i], a, met) - _cost_with(tables[j], b, met))
                    if delta < 0:
                        tables[i][a_index], tables[j][b_index] = b, a
                        cost += delta
                        improved = True
        if not improved:
            break
    return cost


def draw_random(players: Sequence[P], sizes: Sequence[int],
                met: Mapping[frozenset[P], int], rng: random.Random) -> list[list[P]]:
    """Tables of ``sizes`` for ``players`` (as many as the sizes add up to) with the
    fewest repeat meetings the search finds (none, in round 1: ``met`` is empty)."""
    assert sum(sizes) == len(players)
    best: tuple[int, list[list[P]]] | None = None
    for _start in range(RESTARTS if met else 1):
        order = list(players)
        rng.shuffle(order)
        tables = _greedy(order, sizes, met, rng) if met else _cut(order, sizes)
        cost = _improve(tables, met, rng) if met else 0
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost == 0:
            break
    assert best is not None
    return best[1]


def _cut(order: Sequence[P], sizes: Sequence[int]) -> list[list[P]]:
    tables, at = [], 0
    for size in sizes:
        tables.append(list(order[at:at + size]))
        at += size
    return tables


def draw_swiss(standing: Sequence[tuple[P, Hashable]], sizes: Sequence[int],
               met: Mapping[frozenset[P], int], rng: random.Random) -> list[list[P]]:
    """Tables of ``sizes`` by standing: ``standing`` lists (player, standing key) best
    first; the best at table 1, and so on. Players of equal standing are shuffled, then
    trade tables where that avoids repeat meetings (players of different standing never
    do)."""
    assert sum(sizes) == len(standing)
    groups: list[list[tuple[P, Hashable]]] = []
    for entry in standing:
        if groups and groups[-1][0][1] == entry[1]:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    order: list[P] = []
    for group in groups:
        rng.shuffle(group)
        order += [p for p, _key in group]
    tables = _cut(order, sizes)
    keys = dict(standing)
    _improve(tables, met, rng, may_swap=keys)
    return tables


def seat(table: Sequence[P], rng: random.Random) -> tuple[list[P], P]:
    """The table's seats in the order of play, drawn at random, and its first dealer."""
    seats = list(table)
    rng.shuffle(seats)
    return seats, rng.choice(seats)
