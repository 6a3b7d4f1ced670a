"""A tournament's formats as plain functions (scorepad.tournaments.ranking, .prizes):
combined points, tie-breaks in order, the draw by lot, the final's order and places, a
category's places, and the prize list. Each expectation is computed here from the rules
as docs/tournaments.md words them ("Tournament formats"), not by the module's own key;
hypothesis checks the orderings on random tournaments."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.tournaments.prizes import Prize, awards, money, pot, remainder, share
from scorepad.tournaments.ranking import (
    Entry,
    Format,
    TableResult,
    in_category,
    prize_order,
    ranking,
    table_rounds,
)

# --- this test's own reading of the rules -------------------------------------------------


def sport(values):
    """Places as in sport: 1 + the number of values strictly better (higher)."""
    return {p: 1 + sum(1 for q in values if values[q] > v) for p, v in values.items()}


def combined_points(scores, rank_points):
    """score + the mean of the rank points of the places a player's place covers."""
    at = sport(scores)
    out = {}
    for p, k in at.items():
        sharing = sum(1 for q in at if at[q] == k)
        covered = [F(rank_points[j - 1]) if j <= len(rank_points) else F(0)
                   for j in range(k, k + sharing)]
        out[p] = F(scores[p]) + sum(covered, F(0)) / sharing
    return out


def entries(names, lots=None, categories=None):
    lots = lots or {}
    categories = categories or {}
    return [Entry(n, n, i + 1, lots.get(n), categories.get(n, "")) for i, n in enumerate(names)]


# --- combined points ------------------------------------------------------------------------


def test_combined_points_add_the_places_rank_points_to_the_score():
    scores = {"A": F(20), "B": F(10), "C": F(10), "D": F(0)}
    got = table_rounds(1, 1, scores, Format("combined", (F(60), F(40), F(20), F(0))))
    # B and C share places 2 and 3: (40 + 20) / 2 = 30 rank points each
    assert {p: s.points for p, s in got.items()} == {"A": 80, "B": 40, "C": 40, "D": 0}
    assert {p: s.score for p, s in got.items()} == scores


def test_a_place_beyond_the_rank_points_earns_none():
    scores = {"A": F(4), "B": F(3), "C": F(-2), "D": F(1)}
    got = table_rounds(1, 1, scores, Format("combined", (F(10),)))
    assert {p: s.points for p, s in got.items()} == {"A": 14, "B": 3, "C": -2, "D": 1}


@given(st.lists(st.integers(-40, 40), min_size=2, max_size=6),
       st.lists(st.integers(0, 100), min_size=1, max_size=12))
def test_combined_points_are_the_score_plus_the_shared_rank_points(scores, rank_points):
    by = {f"p{i}": F(s) for i, s in enumerate(scores)}
    got = table_rounds(1, 1, by, Format("combined", tuple(F(r) for r in rank_points)))
    assert {p: s.points for p, s in got.items()} == combined_points(by, rank_points)
    assert {p: s.place for p, s in got.items()} == sport(by)


# --- tie-breaks -----------------------------------------------------------------------------


def _rounds(*tables):
    """Round results: each a {name: score} table, round 1, 2, … at table 1."""
    return [TableResult(r, 1, {p: F(v) for p, v in t.items()})
            for r, t in enumerate(tables, 1)]


def test_the_default_tiebreaks_are_score_then_wins():
    lines = ranking(entries("ABCD"), _rounds({"A": 9, "B": 5, "C": 5, "D": 1}), "placement")
    assert [(s.entry.name, s.place) for s in lines] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]


def test_best_round_breaks_a_tie_of_points_by_the_best_single_round():
    # score scoring: A 10 + 0, B 5 + 5 → equal points; A's best round is higher
    tables = _rounds({"A": 10, "B": 5}, {"A": 0, "B": 5})
    lines = ranking(entries("AB"), tables, Format("score", (), ("best_round",)))
    assert [(s.entry.name, s.place) for s in lines] == [("A", 1), ("B", 2)]
    same = ranking(entries("AB"), tables, Format("score", (), ("score", "wins")))
    assert [s.place for s in same] == [1, 1]  # equal score, one win each


def test_the_tiebreaks_are_compared_in_their_order():
    # score scoring, equal points: A 12 (9, 2, 1), B 12 (4, 4, 4)
    tables = _rounds({"A": 9, "B": 4}, {"A": 2, "B": 4}, {"A": 1, "B": 4})
    wins_first = ranking(entries("AB"), tables, Format("score", (), ("wins", "best_round")))
    best_first = ranking(entries("AB"), tables, Format("score", (), ("best_round", "wins")))
    # wins: A won round 1, B rounds 2 and 3 → B first; best round: A's 9 → A first
    assert [s.entry.name for s in wins_first] == ["B", "A"]
    assert [s.entry.name for s in best_first] == ["A", "B"]


def test_the_lot_makes_every_place_distinct_and_one_is_the_best():
    tables = _rounds({"A": 2, "B": 2, "C": 2, "D": 2})
    lines = ranking(entries("ABCD", lots={"A": 3, "B": 1, "C": 4, "D": 2}), tables,
                    Format("placement", (), ("score", "lot")))
    assert [(s.entry.name, s.place) for s in lines] == [("B", 1), ("D", 2), ("A", 3),
                                                         ("C", 4)]


def test_a_lot_outside_the_tiebreaks_does_not_decide_the_ranking():
    tables = _rounds({"A": 2, "B": 2})
    lines = ranking(entries("AB", lots={"A": 2, "B": 1}), tables, "placement")
    assert [s.place for s in lines] == [1, 1]
    assert [s.entry.name for s in prize_order(lines)] == ["B", "A"]  # the prizes do use it


TIEBREAK = st.sampled_from(["score", "wins", "best_round", "lot"])


def _expected_key(line_rounds, lot, how):
    """This test's reading of the comparison: points, then each tie-break in order."""
    points = sum((r[0] for r in line_rounds), F(0))
    key = [points]
    for name in how:
        if name == "score":
            key.append(sum((r[1] for r in line_rounds), F(0)))
        elif name == "wins":
            key.append(sum(1 for r in line_rounds if r[2] == 1))
        elif name == "best_round":
            key.append((1, max(r[0] for r in line_rounds)) if line_rounds else (0, 0))
        else:
            key.append(-lot)
    return tuple(key)


@given(st.lists(st.lists(st.integers(-6, 6), min_size=4, max_size=4), min_size=1,
                max_size=4),
       st.lists(TIEBREAK, unique=True, max_size=4),
       st.permutations([1, 2, 3, 4]), st.sampled_from(["placement", "score"]))
def test_places_follow_points_then_the_tiebreaks_and_are_shared_as_in_sport(
        rounds, how, lots, scoring):
    names = "ABCD"
    tables = [TableResult(i + 1, 1, dict(zip(names, map(F, r), strict=True)))
              for i, r in enumerate(rounds)]
    lines = ranking(entries(names, lots=dict(zip(names, lots, strict=True))), tables,
                    Format(scoring, (), tuple(how)))
    played = {n: [] for n in names}
    for table in tables:
        for p, seated in table_rounds(table.round, 1, table.scores, scoring).items():
            played[p].append((seated.points, seated.score, seated.place))
    keys = {n: _expected_key(played[n], lots[names.index(n)], how) for n in names}
    places = sport(keys)
    assert {s.entry.name: s.place for s in lines} == places
    assert [places[s.entry.name] for s in lines] == sorted(places.values())
    if "lot" in how:
        assert sorted(places.values()) == [1, 2, 3, 4]


# --- the final ------------------------------------------------------------------------------


def test_the_finalists_rank_first_by_table_then_by_their_final_place():
    names = "ABCDEFGHIJ"
    # qualifying: A best … J worst (one table of 10, scores 10 … 1: distinct places)
    qualifying = _rounds({n: 10 - i for i, n in enumerate(names)})
    final = [TableResult(3, 1, {"A": F(0), "B": F(5), "C": F(9), "D": F(5)}),
             TableResult(3, 2, {"E": F(1), "F": F(2), "G": F(3), "H": F(4)})]
    lines = ranking(entries(names), qualifying, "placement", final)
    # table 1: C (9), then B and D sharing place 2 (B before D: better qualifying), then A
    assert [(s.entry.name, s.place, s.final_table, s.final_place) for s in lines] == [
        ("C", 1, 1, 1), ("B", 2, 1, 2), ("D", 2, 1, 2), ("A", 4, 1, 4),
        ("H", 5, 2, 1), ("G", 6, 2, 2), ("F", 7, 2, 3), ("E", 8, 2, 4),
        ("I", 9, None, None), ("J", 10, None, None)]


def test_the_finals_points_are_not_added():
    qualifying = _rounds({"A": 4, "B": 3, "C": 2, "D": 1})
    final = [TableResult(2, 1, {"A": F(0), "B": F(9), "C": F(0), "D": F(0)})]
    lines = {s.entry.name: s for s in ranking(entries("ABCD"), qualifying, "placement",
                                              final)}
    assert lines["B"].place == 1 and lines["B"].points == 2 and lines["B"].wins == 0
    assert [r.round for r in lines["B"].rounds] == [1]


def test_equal_final_places_with_equal_qualifying_places_are_ordered_by_lot():
    qualifying = _rounds({"A": 1, "B": 1, "C": 1, "D": 1})
    final = [TableResult(2, 1, {"A": F(0), "B": F(0), "C": F(0), "D": F(0)})]
    lines = ranking(entries("ABCD", lots={"A": 4, "B": 2, "C": 1, "D": 3}), qualifying,
                    "placement", final)
    assert [s.entry.name for s in lines] == ["C", "B", "D", "A"]
    assert [s.place for s in lines] == [1, 1, 1, 1]  # one final place shared by all


def test_players_outside_the_final_keep_their_order_and_share_places_after_the_finalists():
    names = "ABCDEFG"
    qualifying = _rounds({"A": 6, "B": 5, "C": 4, "D": 3, "E": 1, "F": 1, "G": 0})
    final = [TableResult(2, 1, {"A": F(1), "B": F(2), "C": F(3), "D": F(4)})]
    lines = ranking(entries(names), qualifying, "score", final)
    assert [(s.entry.name, s.place) for s in lines][4:] == [("E", 5), ("F", 5), ("G", 7)]


@given(st.integers(4, 12), st.integers(1, 2), st.data())
def test_the_final_order_and_places_follow_the_rules(count, tables, data):
    size = 2
    names = [f"p{i}" for i in range(count)]
    finalists_n = min(tables * size, count)
    qualifying_scores = data.draw(st.lists(st.integers(0, 3), min_size=count,
                                           max_size=count))
    lots = data.draw(st.permutations(range(1, count + 1)))
    final_scores = data.draw(st.lists(st.integers(0, 2), min_size=finalists_n,
                                      max_size=finalists_n))
    qualifying = [TableResult(1, 1, {n: F(v) for n, v in zip(names, qualifying_scores,
                                                                strict=True)})]
    how = Format("score", (), ("lot",))
    before = ranking(entries(names, lots=dict(zip(names, lots, strict=True))), qualifying,
                     how)
    seeded = [s.entry.name for s in before][:finalists_n]
    final = [TableResult(2, t + 1, {n: F(final_scores[i]) for i, n in
                                    enumerate(seeded) if i // size == t})
             for t in range(tables) if t * size < finalists_n]
    lines = ranking(entries(names, lots=dict(zip(names, lots, strict=True))), qualifying,
                    how, final)
    order = [s.entry.name for s in lines]
    assert set(order[:finalists_n]) == set(seeded)
    assert order[finalists_n:] == [n for n in (s.entry.name for s in before)
                                   if n not in seeded]
    at = {}
    for table in final:
        for name, place in sport(table.scores).items():
            at[name] = (table.table, place)
    assert [at[n] for n in order[:finalists_n]] == sorted(at.values())
    for line in lines[:finalists_n]:
        mine = at[line.entry.name]
        assert line.place == 1 + sum(1 for other in at.values() if other < mine)
    for index, line in enumerate(lines[finalists_n:]):
        assert line.place == finalists_n + index + 1  # the lot: no two equal


# --- categories -----------------------------------------------------------------------------


def test_a_categorys_places_count_only_its_players_and_stay_shared():
    lines = ranking(entries("ABCDE", categories={"B": "Damen", "C": "Damen", "E": "damen"}),
                    _rounds({"A": 9, "B": 5, "C": 5, "D": 3, "E": 1}), "score")
    got = [(place, line.entry.name) for place, line in in_category(lines, "damen")]
    assert got == [(1, "B"), (1, "C"), (3, "E")]


# --- prizes ---------------------------------------------------------------------------------


def test_a_percent_prize_is_rounded_down_to_the_cent():
    assert share(Decimal("35.00"), Decimal("33.3")) == Decimal("11.65")  # 11.655
    assert share(Decimal("10.00"), Decimal("33.333")) == Decimal("3.33")
    assert share(Decimal("0"), Decimal("50")) == Decimal("0")
    assert money(share(Decimal("7.00"), Decimal("100"))) == "7.00"


def test_the_pot_and_what_is_left_of_it():
    assert pot(Decimal("5.00"), 7) == Decimal("35.00")
    assert pot(None, 7) == 0
    prizes = [Prize(1, percent=Decimal("50")), Prize(2, amount=Decimal("30.00")),
              Prize(3, item="Geschenkkorb")]
    lines = ranking(entries("ABC", lots={"A": 1, "B": 2, "C": 3}),
                    _rounds({"A": 3, "B": 2, "C": 1}), "placement")
    given_out = awards(prizes, prize_order(lines), Decimal("35.00"))
    assert [(a.prize.place, a.amount, a.winner.entry.name) for a in given_out] == [
        (1, Decimal("17.50"), "A"), (2, Decimal("30.00"), "B"), (3, None, "C")]
    assert remainder(Decimal("35.00"), given_out) == Decimal("-12.50")  # may be negative


def test_a_prize_place_without_a_player_has_no_winner_and_pays_nothing_out():
    lines = ranking(entries("AB"), [], "placement")
    given_out = awards([Prize(3, amount=Decimal("10"))], prize_order(lines), Decimal("20"))
    assert given_out[0].winner is None
    assert remainder(Decimal("20"), given_out) == Decimal("20")
    assert given_out[0].as_json(name=True) == {"place": 3, "name": None, "amount": "10.00"}


@given(st.lists(st.integers(0, 3), min_size=2, max_size=9), st.data())
def test_the_prize_of_place_k_goes_to_the_kth_player_by_place_then_lot(scores, data):
    names = [f"p{i}" for i in range(len(scores))]
    lots = dict(zip(names, data.draw(st.permutations(range(1, len(names) + 1))),
                    strict=True))
    lines = ranking(entries(names, lots=lots),
                    [TableResult(1, 1, {n: F(v) for n, v in zip(names, scores, strict=True)})],
                    "score")
    places = sport(dict(zip(names, scores, strict=True)))
    strict_order = sorted(names, key=lambda n: (places[n], lots[n]))
    prizes = [Prize(k, item=f"prize {k}") for k in range(1, len(names) + 2)]
    given_out = awards(prizes, prize_order(lines), Decimal(0))
    assert [a.winner.entry.name if a.winner else None for a in given_out] == [
        *strict_order, None]


@pytest.mark.parametrize(("fee", "paid", "percent", "amount"), [
    ("5.00", 7, "50", "17.50"), ("3.50", 3, "33.3", "3.49"), ("1.00", 1, "0.5", "0.00")])
def test_percent_prizes_of_a_pot(fee, paid, percent, amount):
    # this test's own: the pot in cents times the percent, floored to whole cents
    cents = int(Decimal(fee) * 100) * paid
    exact = F(cents) * F(Decimal(percent)) / 100
    assert money(share(pot(Decimal(fee), paid), Decimal(percent))) == amount
    assert Decimal(amount) * 100 == int(exact)
