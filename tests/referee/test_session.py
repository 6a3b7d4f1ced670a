"""Replaying a session: dealers, pending collapses, game ends and new games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.deal import Deal
from referee.rules import mulatschak_rules
from referee.session import IllegalDeal, apply, pending_multiplier, replay, start

from ..strength import examples

SALZBURG = mulatschak_rules("salzburg")
SEATS = ("Anna", "Bert", "Cilli", "Dominik")


def acorns(declarer: str, tricks: dict[str, int], bid: int = 2, **kw) -> Deal:
    return Deal.played(declarer=declarer, bid=bid, trump="acorns", tricks=tricks, **kw)


def test_the_dealer_rotates_clockwise_and_stays_after_a_collapse():
    deals = [
        acorns("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}),
        Deal.collapsed(),
        Deal.passed(),
    ]
    r = replay(SALZBURG, SEATS, "Dominik", deals)
    assert [o.dealer for o in r.outcomes] == ["Dominik", "Anna", "Anna"]
    assert r.state.dealer == "Bert"


def test_a_collapse_doubles_the_next_played_deal_and_is_then_used_up():
    deals = [
        Deal.collapsed(),
        Deal.collapsed(),
        acorns("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}),
        acorns("Bert", {"Anna": 2, "Bert": 2, "Cilli": 1, "Dominik": 0}),
    ]
    r = replay(SALZBURG, SEATS, "Dominik", deals)
    assert r.outcomes[2].result.multiplier == 4
    assert r.outcomes[3].result.multiplier == 1


def test_the_pending_multiplier_is_shown_before_the_deal():
    state = start(SALZBURG, SEATS, "Dominik")
    _, state = apply(SALZBURG, SEATS, state, Deal.collapsed())
    assert pending_multiplier(SALZBURG, state, knocked=True) == (4, ("collapse", "knock"))


def test_an_all_pass_keeps_pending_collapses_with_plain_redeal():
    r = replay(SALZBURG, SEATS, "Dominik", [Deal.collapsed(), Deal.passed()])
    assert r.state.collapses == 1


def test_an_all_pass_doubles_with_redeal_double():
    rules = mulatschak_rules("salzburg", {"all_pass": "redeal_double"})
    r = replay(rules, SEATS, "Dominik", [Deal.passed(), Deal.passed()])
    assert r.state.collapses == 2


def test_a_game_ends_and_the_next_deal_starts_a_new_game_from_the_start_score():
    rules = mulatschak_rules("salzburg", {"start_score": 3, "no_bid_at_or_below": None,
                                          "must_play_at_or_below": None,
                                          "no_exchange_at_or_below": None})
    deals = [
        acorns("Anna", {"Anna": 3, "Bert": 1, "Cilli": 1, "Dominik": 0}),
        acorns("Bert", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}),
    ]
    r = replay(rules, SEATS, "Dominik", deals)
    first, second = r.outcomes
    assert first.result.game_over and first.result.winners == ("Anna",)
    assert first.game_number == 1 and second.game_number == 2
    assert dict(second.scores_before) == dict.fromkeys(SEATS, 3)
    assert second.dealer == "Anna"
    assert [g.number for g in r.state.games] == [1]
    assert dict(r.state.games[0].final_scores) == {"Anna": 0, "Bert": 2, "Cilli": 2,
                                                   "Dominik": 8}


def test_replay_stops_at_a_deal_that_is_illegal_where_it_stands():
    rules = mulatschak_rules("salzburg", {"no_stay_home_twice": True})
    deals = [
        acorns("Anna", {"Anna": 2, "Bert": 2, "Dominik": 1}, stayed_home=["Cilli"]),
        acorns("Bert", {"Anna": 1, "Bert": 3, "Dominik": 1}, stayed_home=["Cilli"]),
    ]
    r = replay(rules, SEATS, "Dominik", deals)
    assert len(r.outcomes) == 1
    assert isinstance(r.illegal, IllegalDeal)
    assert r.illegal.number == 2
    assert [v.code for v in r.illegal.violations] == ["stay_home_twice"]


def test_staying_home_twice_counts_played_deals_only():
    rules = mulatschak_rules("salzburg", {"no_stay_home_twice": True})
    deals = [
        acorns("Anna", {"Anna": 2, "Bert": 2, "Dominik": 1}, stayed_home=["Cilli"]),
        Deal.collapsed(),
        acorns("Bert", {"Anna": 1, "Bert": 3, "Dominik": 1}, stayed_home=["Cilli"]),
    ]
    assert replay(rules, SEATS, "Dominik", deals).illegal is not None


@st.composite
def a_deal(draw, players):
    kind = draw(st.sampled_from(["played", "played", "played", "collapsed", "passed"]))
    if kind == "collapsed":
        return Deal.collapsed()
    if kind == "passed":
        return Deal.passed()
    declarer = draw(st.sampled_from(players))
    bid = draw(st.integers(1, 5))
    trump = draw(st.sampled_from(["acorns", "leaves", "hearts", "bells"]))
    split = draw(st.lists(st.integers(0, 5), min_size=len(players), max_size=len(players)))
    tricks = dict.fromkeys(players, 0)
    left = 5
    for p, n in zip(players, split, strict=True):
        take = min(n, left)
        tricks[p] = take
        left -= take
    tricks[players[0]] += left
    return Deal.played(declarer=declarer, bid=bid, trump=trump, tricks=tricks,
                       knocked=draw(st.booleans()))


@st.composite
def sessions(draw):
    players = SEATS[: draw(st.integers(2, 4))]
    deals = draw(st.lists(a_deal(players), max_size=25))
    return players, deals


@settings(max_examples=examples(150), deadline=None)
@given(sessions())
def test_replay_equals_applying_deal_by_deal(case):
    players, deals = case
    r = replay(SALZBURG, players, players[-1], deals)
    state = start(SALZBURG, players, players[-1])
    for outcome in r.outcomes:
        again, state = apply(SALZBURG, players, state, outcome.deal)
        assert again == outcome
    assert state == r.state


@settings(max_examples=examples(150), deadline=None)
@given(sessions())
def test_every_score_is_the_start_plus_the_deltas_of_its_game(case):
    players, deals = case
    r = replay(SALZBURG, players, players[-1], deals)
    totals = dict.fromkeys(players, SALZBURG.start_score)
    game = 1
    for o in r.outcomes:
        if o.game_number != game:
            game, totals = o.game_number, dict.fromkeys(players, SALZBURG.start_score)
        assert dict(o.scores_before) == totals
        totals = {p: totals[p] + o.result.deltas[p] for p in players}
    assert dict(r.state.scores) == totals


@pytest.mark.parametrize("first", SEATS)
def test_the_first_dealer_is_whoever_the_table_chose(first):
    r = replay(SALZBURG, SEATS, first, [Deal.passed()])
    assert r.outcomes[0].dealer == first
