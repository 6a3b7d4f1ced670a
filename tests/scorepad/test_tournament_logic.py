"""The draw and the ranking of a tournament as plain functions (scorepad.tournaments.draw,
scorepad.tournaments.ranking): table sizes, no repeat meetings where the count allows,
shared places and points for both scorings, the ranking's order."""

from __future__ import annotations

import random
from fractions import Fraction as F
from itertools import combinations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scorepad.tournaments import draw
from scorepad.tournaments.ranking import (
    Entry,
    TableResult,
    place_points,
    places,
    ranking,
    table_rounds,
    two_places,
)

# --- table sizes ------------------------------------------------------------------------------


def test_sixteen_players_sit_at_four_tables_of_four():
    assert draw.table_sizes(16, 4, 2, 6) == [4, 4, 4, 4]


def test_thirteen_players_sit_at_two_tables_of_four_and_one_of_five():
    assert draw.table_sizes(13, 4, 2, 6) == [5, 4, 4]


def test_fifteen_players_sit_at_three_tables_of_four_and_one_of_three():
    assert draw.table_sizes(15, 4, 2, 6) == [4, 4, 4, 3]


def test_a_table_never_has_more_than_the_rules_allow():
    assert draw.table_sizes(13, 4, 4, 4) is None
    assert draw.table_sizes(9, 4, 3, 4) == [3, 3, 3]


def test_too_few_players_cannot_be_seated():
    assert draw.table_sizes(1, 4, 2, 6) is None
    assert draw.table_sizes(0, 4, 2, 6) is None


@given(st.integers(2, 100), st.integers(2, 6), st.integers(2, 4), st.integers(4, 8))
def test_table_sizes_seat_everybody_within_one_of_the_size_and_the_rules(n, size, low, high):
    sizes = draw.table_sizes(n, size, low, high)
    if sizes is None:
        return
    assert sum(sizes) == n
    assert all(abs(s - size) <= 1 and low <= s <= high for s in sizes)
    # as few tables off the size as any seating of the count has
    off = sum(s != size for s in sizes)
    for count in range(1, n + 1):
        diff = n - count * size
        shape = [size] * (count - abs(diff)) + [size + (diff > 0) - (diff < 0)] * abs(diff)
        if abs(diff) <= count and all(low <= s <= high for s in shape):
            assert off <= abs(diff)


# --- who sits where ---------------------------------------------------------------------------


def _round_one(n, size, seed):
    """Players 1..n, the table sizes, and round 1's tables; (players, None, None) when n
    players cannot sit at tables of ``size`` (7 at tables of 5: ``table_sizes``)."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    sizes = draw.table_sizes(n, size, 2, 6)
    if sizes is None:
        return players, None, None
    return players, sizes, draw.draw_random(players, sizes, {}, rng)


@given(st.integers(4, 100), st.integers(0, 2**32))
def test_a_round_seats_every_player_exactly_once(n, seed):
    players, sizes, tables = _round_one(n, 4, seed)
    assert sorted(p for t in tables for p in t) == players
    assert [len(t) for t in tables] == sizes


@given(st.integers(0, 2**32))
def test_sixteen_players_at_tables_of_four_meet_nobody_twice_in_round_two(seed):
    players, sizes, first = _round_one(16, 4, seed)
    second = draw.draw_random(players, sizes, draw.meetings(first), random.Random(seed + 1))
    assert draw.repeats(second, draw.meetings(first)) == 0


@given(st.integers(4, 100), st.integers(3, 5), st.integers(0, 2**32))
@example(7, 5, 0)  # no seating (one in 291 drawn pairs: full-strength runs met it)
def test_round_two_has_no_repeat_meeting_wherever_the_count_allows(n, size, seed):
    players, sizes, first = _round_one(n, size, seed)
    if sizes is None:
        return
    second_sizes = draw.table_sizes(n, size, 2, 6)
    second = draw.draw_random(players, second_sizes, draw.meetings(first),
                              random.Random(seed + 1))
    if max(len(t) for t in first) <= len(second_sizes):
        assert draw.repeats(second, draw.meetings(first)) == 0


def test_the_same_seed_draws_the_same_round():
    assert _round_one(20, 4, 7) == _round_one(20, 4, 7)


@given(st.integers(0, 2**32))
def test_seats_and_dealer_are_the_tables_players(seed):
    seats, dealer = draw.seat([1, 2, 3, 4], random.Random(seed))
    assert sorted(seats) == [1, 2, 3, 4] and dealer in seats


def test_seats_and_first_dealers_are_drawn_at_random():
    rng = random.Random(1)
    seen = {tuple(draw.seat([1, 2, 3, 4], rng)[0]) for _ in range(200)}
    dealers = {draw.seat([1, 2, 3, 4], rng)[1] for _ in range(200)}
    assert len(seen) > 20 and dealers == {1, 2, 3, 4}


def test_the_swiss_draw_seats_the_best_together():
    standing = [(p, (F(-p), F(0), 0)) for p in range(1, 9)]  # 1 the best
    tables = draw.draw_swiss(standing, [4, 4], {}, random.Random(3))
    assert sorted(tables[0]) == [1, 2, 3, 4] and sorted(tables[1]) == [5, 6, 7, 8]


def test_the_swiss_draw_trades_players_of_equal_standing_to_avoid_a_repeat_meeting():
    # 1..4 equal, 5..8 equal; 1 and 2 met before: a trade between the two groups would
    # cost standing, but inside a group it would not help either; 1 and 5 share nothing
    standing = [(p, (F(1 if p <= 4 else 0), F(0), 0)) for p in range(1, 9)]
    met = draw.meetings([[1, 5], [2, 6]])
    tables = draw.draw_swiss(standing, [4, 4], met, random.Random(5))
    assert sorted(tables[0]) == [1, 2, 3, 4]
    # equal standing across tables: 1..8 all equal, so they may trade
    flat = [(p, (F(0), F(0), 0)) for p in range(1, 9)]
    met = draw.meetings([[1, 2, 3, 4], [5, 6, 7, 8]])
    tables = draw.draw_swiss(flat, [4, 4], met, random.Random(5))
    assert draw.repeats(tables, met) == 8 - 8 + draw.repeats(tables, met)
    assert draw.repeats(tables, met) <= 4


def test_met_pairs_count_every_earlier_table():
    met = draw.meetings([[1, 2, 3], [1, 2]])
    assert met[frozenset((1, 2))] == 2 and met[frozenset((2, 3))] == 1


# --- places and points ------------------------------------------------------------------------


def test_places_are_numbered_as_in_sport():
    assert places({"a": F(5), "b": F(3), "c": F(3), "d": F(1)}) == {
        "a": 1, "b": 2, "c": 2, "d": 4}


@pytest.mark.parametrize(("players", "points"), [
    (3, ["3", "1.5", "0"]),
    (4, ["3", "2", "1", "0"]),
    (5, ["3", "2.25", "1.5", "0.75", "0"]),
])
def test_placement_points_by_table_size(players, points):
    assert [place_points(k, 1, players) for k in range(1, players + 1)] == [
        F(p) for p in points]


SHARED = [
    # (scores at the table, placement points, places)
    ([5, 5, 0], ["2.25", "2.25", "0"], [1, 1, 3]),
    ([5, 0, 0], ["3", "0.75", "0.75"], [1, 2, 2]),
    ([1, 1, 1], ["1.5", "1.5", "1.5"], [1, 1, 1]),
    ([9, 4, 4, 0], ["3", "1.5", "1.5", "0"], [1, 2, 2, 4]),
    ([9, 9, 9, 0], ["2", "2", "2", "0"], [1, 1, 1, 4]),
    ([2, 2, 2, 2], ["1.5", "1.5", "1.5", "1.5"], [1, 1, 1, 1]),
    ([7, 3, 3, 3, 1], ["3", "1.5", "1.5", "1.5", "0"], [1, 2, 2, 2, 5]),
    ([7, 7, 3, 1, 1], ["2.625", "2.625", "1.5", "0.375", "0.375"], [1, 1, 3, 4, 4]),
    ([0, 0, 0, 0, 0], ["1.5"] * 5, [1] * 5),
]


@pytest.mark.parametrize(("scores", "points", "at"), SHARED)
def test_shared_places_share_the_mean_of_their_points(scores, points, at):
    by = {f"p{i}": F(s) for i, s in enumerate(scores)}
    got = table_rounds(1, 1, by, "placement")
    assert [got[f"p{i}"].points for i in range(len(scores))] == [F(p) for p in points]
    assert [got[f"p{i}"].place for i in range(len(scores))] == at


@pytest.mark.parametrize(("scores", "points", "at"), SHARED)
def test_score_scoring_gives_the_score_as_points_and_the_same_places(scores, points, at):
    by = {f"p{i}": F(s) for i, s in enumerate(scores)}
    got = table_rounds(1, 1, by, "score")
    assert [got[f"p{i}"].points for i in range(len(scores))] == [F(s) for s in scores]
    assert [got[f"p{i}"].place for i in range(len(scores))] == at


@given(st.lists(st.integers(-30, 30), min_size=2, max_size=6))
def test_a_tables_placement_points_add_up_to_those_of_its_places(scores):
    by = {i: F(s) for i, s in enumerate(scores)}
    got = table_rounds(1, 1, by, "placement")
    n = len(scores)
    assert sum(s.points for s in got.values()) == sum(
        F(3 * (n - k), n - 1) for k in range(1, n + 1))
    for a, b in combinations(range(n), 2):
        if scores[a] > scores[b]:
            assert got[a].place < got[b].place and got[a].points > got[b].points
        if scores[a] == scores[b]:
            assert got[a].place == got[b].place and got[a].points == got[b].points


@pytest.mark.parametrize(("value", "text"), [
    (F(1, 3), "0.33"), (F(2, 3), "0.67"), (F(1, 8), "0.13"), (F(-1, 8), "-0.13"),
    (F(-1, 1000), "0.00"), (F(5, 1000), "0.01"), (F(-5, 1000), "-0.01"), (F(1234), "1234.00"),
    (F(-32, 9), "-3.56"), (F(0), "0.00"),
])
def test_figures_have_two_places_half_away_from_zero(value, text):
    assert two_places(value) == text


# --- the ranking ------------------------------------------------------------------------------


def _entries(*names):
    return [Entry(name, name, i + 1) for i, name in enumerate(names)]


def test_the_ranking_orders_by_points_then_score_then_wins():
    entries = _entries("A", "B", "C", "D")
    tables = [TableResult(1, 1, {"A": F(10), "B": F(5), "C": F(5), "D": F(0)}),
              TableResult(2, 1, {"A": F(0), "B": F(3), "C": F(8), "D": F(1)})]
    lines = ranking(entries, tables, "placement")
    # A 3+0, B 1.5+2, C 1.5+3, D 0+1
    assert [(s.entry.name, s.place, s.points) for s in lines] == [
        ("C", 1, F(9, 2)), ("B", 2, F(7, 2)), ("A", 3, F(3)), ("D", 4, F(1))]
    assert [s.wins for s in lines] == [1, 0, 1, 0]


def test_players_equal_in_points_score_and_wins_share_a_place():
    entries = _entries("A", "B", "C", "D")
    tables = [TableResult(1, 1, {"A": F(4), "B": F(2), "C": F(2), "D": F(0)})]
    lines = ranking(entries, tables, "placement")
    assert [(s.entry.name, s.place) for s in lines] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]
    assert lines[1].as_json()["points"] == "1.50"


def test_equal_points_are_split_by_score_then_by_wins():
    entries = _entries("A", "B", "C", "D", "E", "F")
    tables = [TableResult(1, 1, {"A": F(6), "B": F(2), "C": F(0)}),
              TableResult(1, 2, {"D": F(9), "E": F(1), "F": F(0)})]
    lines = ranking(entries, tables, "placement")
    assert [s.entry.name for s in lines][:2] == ["D", "A"]  # both 3 points: D's score higher
    assert lines[0].place == 1 and lines[1].place == 2


def test_a_late_arrival_and_a_withdrawn_player_rank_with_what_they_played():
    entries = _entries("A", "B", "C", "D", "E")
    tables = [TableResult(1, 1, {"A": F(4), "B": F(3), "C": F(2), "D": F(1)}),
              TableResult(2, 1, {"A": F(1), "B": F(2), "C": F(3), "E": F(4)})]
    lines = {s.entry.name: s for s in ranking(entries, tables, "placement")}
    assert lines["D"].points == 0 and len(lines["D"].rounds) == 1
    assert lines["E"].points == 3 and [r.round for r in lines["E"].rounds] == [2]


def test_without_a_closed_round_everybody_shares_place_one():
    lines = ranking(_entries("A", "B"), [], "score")
    assert [s.place for s in lines] == [1, 1]
    assert lines[0].as_json() == {"place": 1, "name": "A", "number": 1, "points": "0.00",
                                  "score": "0.00", "wins": 0, "rounds": [],
                                  "final_table": None, "final_place": None,
                                  "category": None, "withdrawn": False}


def test_score_scoring_sums_exact_fractions_before_rounding():
    entries = _entries("A", "B", "C", "D")
    third = F(-1, 3)
    tables = [TableResult(r, 1, {"A": third, "B": F(0), "C": F(-1), "D": F(-2)})
              for r in (1, 2, 3)]
    lines = {s.entry.name: s for s in ranking(entries, tables, "score")}
    assert lines["A"].points == -1 and lines["A"].as_json()["points"] == "-1.00"
    assert lines["A"].as_json()["rounds"][0]["score"] == "-0.33"


@given(st.lists(st.lists(st.integers(-20, 20), min_size=4, max_size=4), min_size=1,
                max_size=5), st.sampled_from(["placement", "score"]))
def test_the_ranking_is_sorted_and_its_places_are_sport_places(rounds, scoring):
    entries = _entries("A", "B", "C", "D")
    tables = [TableResult(i + 1, 1, dict(zip("ABCD", map(F, r), strict=True)))
              for i, r in enumerate(rounds)]
    lines = ranking(entries, tables, scoring)
    keys = [s.key for s in lines]
    assert keys == sorted(keys, reverse=True)
    for i, line in enumerate(lines):
        assert line.place == 1 + sum(k > line.key for k in keys)
        assert line.place <= i + 1
    assert sum(s.wins for s in lines) >= len(rounds)
