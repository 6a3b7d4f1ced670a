"""Cup points and a season's standings as plain functions (scorepad.seasons.cup): shared
places, best_of, qualification and the order, checked by hand and by hypothesis."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st

from scorepad.seasons.cup import Result, counted, cup_points_of, standings

CUP = [F(n) for n in (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)]


def test_places_earn_their_cup_points():
    assert cup_points_of({"a": 1, "b": 2, "c": 3}, CUP) == {"a": 25, "b": 20, "c": 16}


def test_players_sharing_places_share_the_mean_of_their_cup_points():
    assert cup_points_of({"a": 1, "b": 2, "c": 2, "d": 4}, CUP) == {
        "a": 25, "b": 18, "c": 18, "d": 13}


def test_a_place_beyond_the_list_earns_nothing_and_a_share_across_its_end_the_mean():
    assert cup_points_of({"a": 1, "b": 2, "c": 3, "d": 3}, [F(10), F(5), F(3)]) == {
        "a": 10, "b": 5, "c": F(3, 2), "d": F(3, 2)}


def test_best_of_counts_the_highest_and_the_earlier_of_equal_results():
    results = [Result(0, 2, F(20)), Result(1, 1, F(25)), Result(2, 2, F(20))]
    assert [r.counted for r in counted(results, 2)] == [True, True, False]
    assert [r.counted for r in counted(results, None)] == [True, True, True]


def test_the_standings_sum_the_counted_results_and_average_all_of_them():
    lines = standings([{"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 1, "b": 2}],
                      [F(10), F(4)], best_of=2)
    a, b = lines
    assert (a.player, a.points, a.wins, a.average, a.place) == ("a", 20, 2, F(8), 1)
    assert (b.player, b.points, b.wins, b.average, b.place) == ("b", 14, 1, F(6), 2)


def test_the_unqualified_stand_after_the_qualified_and_places_count_on_through_them():
    lines = standings([{"a": 1, "b": 2}, {"b": 1, "c": 2}], [F(10), F(4)], min_events=2)
    assert [(line.player, line.place, line.qualified) for line in lines] == [
        ("b", 1, True), ("a", 2, False), ("c", 3, False)]


def test_players_equal_in_everything_share_a_place_in_the_given_order():
    lines = standings([{"b": 1, "a": 1, "c": 3, "d": 3}], CUP, order=str)
    assert [(line.player, line.place) for line in lines] == [
        ("a", 1), ("b", 1), ("c", 3), ("d", 3)]


# --- properties ---------------------------------------------------------------------------

cup_lists = st.lists(st.integers(0, 50).map(F), min_size=1, max_size=20)
#: An event: each player's place as a game would give it (1 + those strictly better).
event_keys = st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 4), min_size=1)


def sport_places(keys):
    return {p: 1 + sum(1 for other in keys.values() if other < k) for p, k in keys.items()}


@given(event_keys, cup_lists)
def test_an_event_hands_out_the_first_n_entries_of_the_list_in_all(keys, cup):
    points = cup_points_of(sport_places(keys), cup)
    assert sum(points.values()) == sum(cup[:len(keys)])


@given(st.lists(event_keys, max_size=6), cup_lists, st.one_of(st.none(), st.integers(1, 4)),
       st.integers(0, 4))
def test_the_standings_follow_every_rule(events, cup, best_of, min_events):
    places = [sport_places(keys) for keys in events]
    lines = standings(places, cup, best_of, min_events)
    assert {line.player for line in lines} == {p for event in places for p in event}
    for line in lines:
        chosen = [r for r in line.results if r.counted]
        others = [r for r in line.results if not r.counted]
        assert len(chosen) == (len(line.results) if best_of is None
                               else min(best_of, len(line.results)))
        # the counted ones are the highest; among equal results the earlier counts
        assert all((c.points, -c.event) > (o.points, -o.event) for c in chosen for o in others)
        assert line.points == sum(r.points for r in chosen)
        assert line.average == sum(r.points for r in line.results) / len(line.results)
        assert line.wins == sum(1 for r in line.results if r.place == 1)
        assert line.qualified == (len(line.results) >= min_events)
        # a place is 1 + the players standing strictly before
        assert line.place == 1 + sum(1 for other in lines if other.key > line.key)
    keys = [line.key for line in lines]
    assert keys == sorted(keys, reverse=True)
    qualified = [line.qualified for line in lines]
    assert qualified == sorted(qualified, reverse=True)
