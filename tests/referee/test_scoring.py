"""Scoring a played Mulatschak deal, the multiplier and game end (docs/rules.md, "Scoring",
"Multiplier" and "End of a game")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.deal import (
    Deal,
    DealResult,
    Factor,
    Reason,
    Table,
    game_winners,
    multiplier_factors,
    multiplier_of,
    score_deal,
)
from referee.rules import mulatschak_rules
from referee.violations import Violation

ANNA, BERT, CILLI, DOMINIK = "Anna", "Bert", "Cilli", "Dominik"
FOUR = (ANNA, BERT, CILLI, DOMINIK)


def table(
    preset: str = "salzburg",
    overrides: dict[str, Any] | None = None,
    *,
    scores: dict[str, int] | None = None,
    collapses: int = 0,
    players: tuple[str, ...] = FOUR,
    dealer: str = DOMINIK,
) -> Table:
    return Table.of(mulatschak_rules(preset, overrides), players, dealer, scores, collapses)


def score(t: Table, **deal: Any) -> DealResult:
    result = score_deal(t, Deal.played(**deal))
    assert result.legal, result.violations
    return result


def deltas(t: Table, **deal: Any) -> dict[str, int]:
    return dict(score(t, **deal).deltas)


# A plain deal: Anna bids 2 in acorns and takes 3; Bert stays home; Cilli takes 2;
# Dominik takes none.
PLAIN: dict[str, Any] = {
    "declarer": ANNA,
    "bid": 2,
    "trump": "acorns",
    "stayed_home": [BERT],
    "tricks": {ANNA: 3, CILLI: 2, DOMINIK: 0},
}
# Anna bids 4 and takes only 2: she falls.
FELL: dict[str, Any] = {
    "declarer": ANNA,
    "bid": 4,
    "trump": "leaves",
    "tricks": {ANNA: 2, BERT: 1, CILLI: 2, DOMINIK: 0},
}
MULI_MADE: dict[str, Any] = {
    "declarer": ANNA,
    "bid": 5,
    "trump": "bells",
    "tricks": {ANNA: 5, BERT: 0, CILLI: 0, DOMINIK: 0},
}
# Bert takes the first trick from Anna, Cilli another one.
MULI_FAILED: dict[str, Any] = {
    "declarer": ANNA,
    "bid": 5,
    "trump": "bells",
    "tricks": {ANNA: 3, BERT: 1, CILLI: 1, DOMINIK: 0},
    "muli_breaker": BERT,
}


# --- the table of docs/rules.md, "Scoring", row by row -----------------------------------


def test_a_player_who_stayed_home_gets_the_stay_home_penalty():
    result = score(table(), **PLAIN)
    assert result.deltas[BERT] == 1
    assert result.reasons[BERT] is Reason.STAYED_HOME


def test_murln_staying_home_costs_two():
    assert deltas(table("murln"), **PLAIN)[BERT] == 2


def test_a_declarer_who_makes_the_bid_writes_down_every_trick():
    result = score(table(), **PLAIN)
    assert result.deltas[ANNA] == -3
    assert result.reasons[ANNA] is Reason.DECLARER_MADE
    assert result.declarer_made is True


def test_a_declarer_who_takes_exactly_the_bid_makes_it():
    d = deltas(table(), declarer=ANNA, bid=3, trump="acorns",
               tricks={ANNA: 3, BERT: 1, CILLI: 1, DOMINIK: 0})
    assert d[ANNA] == -3


def test_a_declarer_short_of_the_bid_falls_by_the_fail_penalty_only():
    result = score(table(), **FELL)
    assert result.deltas[ANNA] == 10
    assert result.reasons[ANNA] is Reason.DECLARER_FELL
    assert result.declarer_made is False


def test_failed_declarer_counts_tricks_also_writes_down_the_tricks_taken():
    t = table(overrides={"failed_declarer_counts_tricks": True})
    assert deltas(t, **FELL)[ANNA] == 10 - 2


def test_an_opponent_who_played_and_took_no_trick_gets_the_no_trick_penalty():
    result = score(table(), **PLAIN)
    assert result.deltas[DOMINIK] == 5
    assert result.reasons[DOMINIK] is Reason.NO_TRICK


def test_an_opponent_writes_down_every_trick_taken():
    result = score(table(), **PLAIN)
    assert result.deltas[CILLI] == -2
    assert result.reasons[CILLI] is Reason.TRICKS


def test_the_whole_plain_deal():
    result = score(table(), **PLAIN)
    assert dict(result.deltas) == {ANNA: -3, BERT: 1, CILLI: -2, DOMINIK: 5}
    assert dict(result.base) == dict(result.deltas)
    assert dict(result.scores_after) == {ANNA: 18, BERT: 22, CILLI: 19, DOMINIK: 26}
    assert result.multiplier == 1
    assert result.factors == ()


def test_the_whole_failed_deal():
    assert deltas(table(), **FELL) == {ANNA: 10, BERT: -1, CILLI: -2, DOMINIK: 5}


def test_the_point_values_are_parameters():
    t = table(overrides={
        "trick_value": 2,
        "no_trick_penalty": 7,
        "stay_home_penalty": 3,
        "declarer_fail_penalty": 20,
    })
    assert deltas(t, **PLAIN) == {ANNA: -6, BERT: 3, CILLI: -4, DOMINIK: 7}
    assert deltas(t, **FELL) == {ANNA: 20, BERT: -2, CILLI: -4, DOMINIK: 7}


def test_geiser_starts_from_fifteen():
    result = score(table("geiser"), **PLAIN)
    assert dict(result.scores_after) == {ANNA: 12, BERT: 16, CILLI: 13, DOMINIK: 20}


# --- the multiplier ------------------------------------------------------------------


def test_hearts_trump_doubles_every_change():
    result = score(table(), **{**PLAIN, "trump": "hearts", "stayed_home": [],
                               "tricks": {ANNA: 3, BERT: 0, CILLI: 2, DOMINIK: 0}})
    assert result.multiplier == 2
    assert result.factors == (Factor.HEARTS,)
    assert dict(result.deltas) == {ANNA: -6, BERT: 10, CILLI: -4, DOMINIK: 10}


def test_a_failed_declarer_in_hearts_falls_by_twenty():
    assert deltas(table(), **{**FELL, "trump": "hearts"})[ANNA] == 20


def test_without_hearts_double_hearts_counts_single():
    t = table(overrides={"hearts_double": False})
    result = score(t, **{**FELL, "trump": "hearts"})
    assert result.multiplier == 1
    assert result.deltas[ANNA] == 10


def test_each_collapse_before_the_deal_doubles_it_again():
    for collapses, m in [(0, 1), (1, 2), (2, 4), (3, 8)]:
        result = score(table(collapses=collapses), **PLAIN)
        assert result.multiplier == m
        assert result.factors == (Factor.COLLAPSE,) * collapses
        assert dict(result.deltas) == {ANNA: -3 * m, BERT: m, CILLI: -2 * m, DOMINIK: 5 * m}


def test_without_collapse_doubles_a_collapse_does_not_double():
    result = score(table(overrides={"collapse_doubles": False}, collapses=2), **PLAIN)
    assert result.multiplier == 1
    assert result.factors == ()


def test_a_knock_doubles_the_deal_in_salzburg():
    result = score(table(), **PLAIN, knocked=True)
    assert result.multiplier == 2
    assert result.factors == (Factor.KNOCK,)


def test_knock_doubles_can_be_switched_on_for_geiser():
    result = score(table("geiser", {"knock_doubles": True}), **PLAIN, knocked=True)
    assert result.multiplier == 2


def test_without_knock_doubles_a_knock_does_not_double():
    rules = mulatschak_rules("salzburg", {"knock_doubles": False})
    assert multiplier_factors(rules, hearts=False, collapses=0, knocked=True) == ()
    # ... and recording one is a violation (see test_deal).
    assert not score_deal(table(overrides={"knock_doubles": False}),
                          Deal.played(**PLAIN, knocked=True)).legal


def test_doublings_multiply_hearts_times_collapse_times_knock():
    result = score(table(collapses=2), **FELL | {"trump": "hearts"}, knocked=True)
    assert result.factors == (Factor.HEARTS, Factor.COLLAPSE, Factor.COLLAPSE, Factor.KNOCK)
    assert result.multiplier == 16
    assert result.deltas[ANNA] == 160
    assert dict(result.base) == {ANNA: 10, BERT: -1, CILLI: -2, DOMINIK: 5}


@pytest.mark.parametrize(("cap", "m"), [(None, 16), (8, 8), (3, 3), (1, 1), (32, 16)])
def test_multiplier_cap_limits_the_multiplier(cap, m):
    t = table(overrides={"multiplier_cap": cap}, collapses=2)
    result = score(t, **FELL | {"trump": "hearts"}, knocked=True)
    assert result.multiplier == m
    assert result.deltas[ANNA] == 10 * m
    assert len(result.factors) == 4  # the factors are still all shown


def test_without_a_cap_the_multiplier_stops_at_two_to_the_forty():
    result = score(table(collapses=1100), **FELL)
    assert result.multiplier == 2**40
    assert len(result.factors) == 1100
    assert result.deltas[ANNA] == 10 * 2**40


def test_the_implicit_cap_leaves_forty_doublings_alone_and_caps_the_forty_first():
    assert score(table(collapses=40), **FELL).multiplier == 2**40
    assert score(table(collapses=40), **FELL | {"trump": "hearts"}).multiplier == 2**40
    assert score(table(collapses=39), **FELL).multiplier == 2**39


def test_a_set_cap_counts_even_after_many_collapses():
    result = score(table(overrides={"multiplier_cap": 8}, collapses=1100), **FELL)
    assert result.multiplier == 8


def test_a_deal_that_would_take_a_score_past_the_limit_is_refused():
    limit = 2**53 - 1
    t = table(scores={BERT: limit, CILLI: limit - 5})
    result = score_deal(t, Deal.played(**FELL))  # Bert −1, Cilli −2, Dominik +5: fine
    assert result.legal
    result = score_deal(t, Deal.played(**PLAIN))  # Bert +1 (home), Dominik +5
    assert result.violations == (Violation.of("score_out_of_range", BERT, limit=limit),)
    assert dict(result.scores_after) == dict(t.scores_before)


def test_a_score_may_not_pass_the_limit_downwards_either():
    limit = 2**53 - 1
    t = table(scores={CILLI: -limit + 1}, overrides={"target_score": -10_000})
    result = score_deal(t, Deal.played(**PLAIN))  # Cilli took 2: −2
    assert [(v.code, v.player) for v in result.violations] == [("score_out_of_range", CILLI)]


def test_a_score_may_reach_the_limit_exactly():
    limit = 2**53 - 1
    result = score(table(scores={BERT: limit - 1}), **PLAIN)
    assert result.scores_after[BERT] == limit


def test_multiplier_of_is_two_to_the_number_of_factors():
    rules = mulatschak_rules("salzburg")
    assert multiplier_of(rules, ()) == 1
    assert multiplier_of(rules, (Factor.HEARTS,) * 5) == 32


def test_a_muli_is_doubled_like_any_deal():
    result = score(table(collapses=1), **MULI_MADE | {"trump": "hearts"})
    assert result.multiplier == 4
    assert dict(result.deltas) == {ANNA: -40, BERT: 40, CILLI: 40, DOMINIK: 40}


# --- Muli / Mulatschak / Murler ------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "declarer", "others"),
    [("salzburg", -10, 10), ("geiser", -10, 0), ("murln", -10, 20)],
)
def test_a_muli_that_comes_off_pays_muli_win(preset, declarer, others):
    result = score(table(preset), **MULI_MADE)
    assert dict(result.deltas) == {ANNA: declarer, BERT: others, CILLI: others, DOMINIK: others}
    assert result.declarer_made is True
    assert result.reasons[ANNA] is Reason.MULI_MADE
    assert result.reasons[BERT] is Reason.MULI_MADE_OTHER


@pytest.mark.parametrize(
    ("preset", "declarer", "others"),
    [("salzburg", 10, -10), ("geiser", 10, -10), ("murln", 20, -10)],
)
def test_a_muli_that_fails_pays_muli_fail_to_everybody(preset, declarer, others):
    result = score(table(preset), **MULI_FAILED)
    assert dict(result.deltas) == {ANNA: declarer, BERT: others, CILLI: others, DOMINIK: others}
    assert result.declarer_made is False
    assert result.reasons[ANNA] is Reason.MULI_FAILED
    assert result.reasons[DOMINIK] is Reason.MULI_BROKEN


def test_the_per_trick_rules_do_not_apply_to_a_muli():
    # Dominik took no trick but gets no +5; Bert's trick is not written down.
    d = deltas(table(), **MULI_FAILED)
    assert d[DOMINIK] == -10
    assert d[BERT] == -10


def test_muli_payouts_are_parameters():
    t = table(overrides={"muli_win": {"declarer": -15, "others": 3},
                         "muli_fail": {"declarer": 7, "others": -4}})
    assert deltas(t, **MULI_MADE) == {ANNA: -15, BERT: 3, CILLI: 3, DOMINIK: 3}
    assert deltas(t, **MULI_FAILED) == {ANNA: 7, BERT: -4, CILLI: -4, DOMINIK: -4}


def test_in_breaker_mode_only_the_breaker_gets_the_others_amount():
    result = score(table(overrides={"muli_fail_mode": "breaker"}), **MULI_FAILED)
    assert dict(result.deltas) == {ANNA: 10, BERT: -10, CILLI: 0, DOMINIK: 0}
    assert result.reasons[BERT] is Reason.MULI_BROKEN
    assert result.reasons[CILLI] is Reason.MULI_FAILED_OTHER


def test_in_trick_takers_mode_every_opponent_with_a_trick_gets_the_others_amount():
    result = score(table(overrides={"muli_fail_mode": "trick_takers"}), **MULI_FAILED)
    assert dict(result.deltas) == {ANNA: 10, BERT: -10, CILLI: -10, DOMINIK: 0}


@pytest.mark.parametrize("mode", ["all", "breaker", "trick_takers"])
def test_a_muli_that_comes_off_pays_everybody_whatever_the_fail_mode(mode):
    d = deltas(table(overrides={"muli_fail_mode": mode}), **MULI_MADE)
    assert d == {ANNA: -10, BERT: 10, CILLI: 10, DOMINIK: 10}


HOME_IN_A_MULI: dict[str, Any] = {"stayed_home": [DOMINIK]}
FAILED_WITH_DOMINIK_HOME = MULI_FAILED | HOME_IN_A_MULI | {
    "tricks": {ANNA: 3, BERT: 1, CILLI: 1}
}


def test_a_player_at_home_in_a_muli_that_comes_off_gets_the_others_amount():
    # Only possible with muli_all_play off; the per-trick rules, the stay-home penalty
    # among them, do not apply to a bid of 5.
    t = table(overrides={"muli_all_play": False})
    result = score(t, **MULI_MADE | HOME_IN_A_MULI | {"tricks": {ANNA: 5, BERT: 0, CILLI: 0}})
    assert dict(result.deltas) == {ANNA: -10, BERT: 10, CILLI: 10, DOMINIK: 10}
    assert result.reasons[DOMINIK] is Reason.MULI_MADE_OTHER


def test_a_player_at_home_in_a_failed_muli_gets_the_others_amount_in_all_mode():
    t = table(overrides={"muli_all_play": False})
    result = score(t, **FAILED_WITH_DOMINIK_HOME)
    assert dict(result.deltas) == {ANNA: 10, BERT: -10, CILLI: -10, DOMINIK: -10}
    assert result.reasons[DOMINIK] is Reason.MULI_BROKEN


@pytest.mark.parametrize("mode", ["breaker", "trick_takers"])
def test_a_player_at_home_in_a_failed_muli_gets_nothing_in_the_other_modes(mode):
    t = table(overrides={"muli_all_play": False, "muli_fail_mode": mode})
    result = score(t, **FAILED_WITH_DOMINIK_HOME)
    assert result.deltas[DOMINIK] == 0
    assert result.reasons[DOMINIK] is Reason.MULI_FAILED_OTHER


def test_a_player_at_home_in_a_muli_is_multiplied_like_the_others():
    t = table("murln", overrides={"muli_all_play": False}, collapses=1)
    result = score(t, **MULI_MADE | HOME_IN_A_MULI | {"tricks": {ANNA: 5, BERT: 0, CILLI: 0}})
    assert dict(result.deltas) == {ANNA: -20, BERT: 40, CILLI: 40, DOMINIK: 40}


def test_the_api_example_of_a_muli_with_a_player_at_home_gives_cilli_ten():
    t = table(overrides={"muli_all_play": False}, players=(ANNA, BERT, CILLI), dealer=CILLI)
    d = deltas(t, declarer=BERT, bid=5, trump="acorns", stayed_home=[CILLI],
               tricks={ANNA: 0, BERT: 5})
    assert d == {ANNA: 10, BERT: -10, CILLI: 10}


# --- score floor (Geiser: a player with any score may declare) ------------


def test_a_score_floor_stops_a_change_at_the_floor():
    t = table("geiser", overrides={"score_floor": 0}, scores={ANNA: 2, CILLI: 1})
    result = score(t, **PLAIN)
    assert result.deltas[ANNA] == -2
    assert result.scores_after[ANNA] == 0
    assert result.deltas[CILLI] == -1
    assert result.scores_after[CILLI] == 0
    assert result.base[ANNA] == -3  # the base change is reported unfloored


def test_a_score_floor_does_not_touch_changes_that_stay_above_it():
    t = table("geiser", overrides={"score_floor": 0}, scores={ANNA: 3})
    assert deltas(t, **PLAIN)[ANNA] == -3


def test_a_score_floor_does_not_touch_increases():
    t = table("geiser", overrides={"score_floor": 0}, scores={DOMINIK: -4})
    assert deltas(t, **PLAIN)[DOMINIK] == 5


def test_a_score_already_below_the_floor_does_not_drop_further():
    t = table("geiser", overrides={"score_floor": 0}, scores={ANNA: -2})
    result = score(t, **PLAIN)
    assert result.deltas[ANNA] == 0
    assert result.scores_after[ANNA] == -2


def test_a_negative_score_floor_works_the_same_way():
    t = table("geiser", overrides={"score_floor": -5}, scores={ANNA: -4})
    result = score(t, **PLAIN)
    assert result.scores_after[ANNA] == -5


def test_without_a_score_floor_scores_go_negative():
    result = score(table("geiser", scores={ANNA: 1}), **PLAIN)
    assert result.scores_after[ANNA] == -2


# --- game end (Geiser: a player with any score may declare) ------------


def test_the_game_is_over_when_a_score_reaches_the_target():
    t = table("geiser", scores={ANNA: 3, BERT: 9, CILLI: 8, DOMINIK: 7})
    result = score(t, **PLAIN)
    assert result.scores_after[ANNA] == 0
    assert result.game_over is True
    assert result.winners == (ANNA,)


def test_the_game_is_over_when_a_score_goes_below_the_target():
    t = table("geiser", scores={ANNA: 2, BERT: 9, CILLI: 8, DOMINIK: 7})
    result = score(t, **PLAIN)
    assert result.scores_after[ANNA] == -1
    assert result.game_over is True
    assert result.winners == (ANNA,)


def test_the_game_goes_on_while_every_score_is_above_the_target():
    result = score(table("geiser", scores={ANNA: 4, BERT: 9, CILLI: 8, DOMINIK: 7}), **PLAIN)
    assert result.scores_after[ANNA] == 1
    assert result.game_over is False
    assert result.winners == ()


def test_players_tied_on_the_lowest_score_share_the_win():
    t = table("geiser", scores={ANNA: 3, BERT: 9, CILLI: 2, DOMINIK: 7})
    result = score(t, **PLAIN)
    assert dict(result.scores_after) == {ANNA: 0, BERT: 10, CILLI: 0, DOMINIK: 12}
    assert result.game_over is True
    assert result.winners == (ANNA, CILLI)


def test_the_winner_is_the_lowest_score_not_the_first_to_reach_the_target():
    t = table("geiser", scores={ANNA: 2, BERT: 9, CILLI: 1, DOMINIK: 7})
    result = score(t, **PLAIN)
    assert dict(result.scores_after) == {ANNA: -1, BERT: 10, CILLI: -1, DOMINIK: 12}
    assert result.winners == (ANNA, CILLI)
    t = table("geiser", scores={ANNA: 2, BERT: 9, CILLI: 3, DOMINIK: 7})
    assert score(t, **PLAIN).winners == (ANNA,)


def test_target_score_is_a_parameter():
    t = table(overrides={"target_score": 19})
    result = score(t, **PLAIN)
    assert result.game_over is True
    assert result.winners == (ANNA,)
    assert score(table(overrides={"target_score": 17}), **PLAIN).game_over is False


def test_a_collapsed_deal_never_ends_the_game():
    t = table(scores={ANNA: 0})
    assert score_deal(t, Deal.collapsed()).game_over is False


def test_game_winners_lists_ties_in_seat_order():
    scores = {ANNA: 4, BERT: -1, CILLI: 3, DOMINIK: -1}
    assert game_winners(scores, FOUR) == (BERT, DOMINIK)
    assert game_winners(scores, (DOMINIK, CILLI, BERT, ANNA)) == (DOMINIK, BERT)


# --- worked examples (tests/examples/referee.json), at the referee level ------------

HGSR = ("Hans", "Grete", "Sepp", "Resi")
DEAL_EXAMPLES = [
    pytest.param(
        "salzburg", 0, None,
        {"declarer": "Sepp", "bid": 2, "trump": "acorns", "stayed_home": ["Grete"],
         "tricks": {"Hans": 1, "Sepp": 3, "Resi": 1}},
        1, {"Hans": -1, "Grete": 1, "Sepp": -3, "Resi": -1},
        {"Hans": 20, "Grete": 22, "Sepp": 18, "Resi": 20}, True, False, (),
        id="salzburg-plain",
    ),
    pytest.param(
        "salzburg", 0, None,
        {"declarer": "Hans", "bid": 4, "trump": "bells",
         "tricks": {"Hans": 3, "Grete": 1, "Sepp": 0, "Resi": 1}},
        1, {"Hans": 10, "Grete": -1, "Sepp": 5, "Resi": -1},
        {"Hans": 31, "Grete": 20, "Sepp": 26, "Resi": 20}, False, False, (),
        id="salzburg-declarer-falls",
    ),
    pytest.param(
        "salzburg", 1, None,
        {"declarer": "Grete", "bid": 2, "trump": "hearts",
         "tricks": {"Hans": 1, "Grete": 2, "Sepp": 1, "Resi": 1}},
        4, {"Hans": -4, "Grete": -8, "Sepp": -4, "Resi": -4},
        {"Hans": 17, "Grete": 13, "Sepp": 17, "Resi": 17}, True, False, (),
        id="salzburg-hearts-collapse",
    ),
    pytest.param(
        "salzburg", 0, None,
        {"declarer": "Resi", "bid": 5, "trump": "leaves",
         "tricks": {"Hans": 0, "Grete": 0, "Sepp": 0, "Resi": 5}},
        1, {"Hans": 10, "Grete": 10, "Sepp": 10, "Resi": -10},
        {"Hans": 31, "Grete": 31, "Sepp": 31, "Resi": 11}, True, False, (),
        id="salzburg-muli",
    ),
    pytest.param(
        "salzburg", 0, None,
        {"declarer": "Resi", "bid": 5, "trump": "leaves",
         "tricks": {"Hans": 0, "Grete": 1, "Sepp": 0, "Resi": 4}},
        1, {"Hans": -10, "Grete": -10, "Sepp": -10, "Resi": 10},
        {"Hans": 11, "Grete": 11, "Sepp": 11, "Resi": 31}, False, False, (),
        id="salzburg-muli-breaks",
    ),
    pytest.param(
        "salzburg", 0, {"Hans": 2, "Grete": 6, "Sepp": 8, "Resi": 9},
        {"declarer": "Grete", "bid": 2, "trump": "acorns",
         "tricks": {"Hans": 2, "Grete": 2, "Sepp": 1, "Resi": 0}},
        1, {"Hans": -2, "Grete": -2, "Sepp": -1, "Resi": 5},
        {"Hans": 0, "Grete": 4, "Sepp": 7, "Resi": 14}, True, True, ("Hans",),
        id="salzburg-game-ends",
    ),
    pytest.param(
        "geiser", 0, None,
        {"declarer": "Sepp", "bid": 5, "trump": "bells",
         "tricks": {"Hans": 0, "Grete": 0, "Sepp": 5, "Resi": 0}},
        1, {"Hans": 0, "Grete": 0, "Sepp": -10, "Resi": 0},
        {"Hans": 15, "Grete": 15, "Sepp": 5, "Resi": 15}, True, False, (),
        id="geiser-mulatschak",
    ),
    pytest.param(
        "murln", 0, None,
        {"declarer": "Sepp", "bid": 5, "trump": "bells",
         "tricks": {"Hans": 1, "Grete": 0, "Sepp": 4, "Resi": 0}},
        1, {"Hans": -10, "Grete": -10, "Sepp": 20, "Resi": -10},
        {"Hans": 11, "Grete": 11, "Sepp": 41, "Resi": 11}, False, False, (),
        id="murln-murler-fails",
    ),
    pytest.param(
        "murln", 0, None,
        {"declarer": "Sepp", "bid": 3, "trump": "acorns", "stayed_home": ["Grete"],
         "tricks": {"Hans": 1, "Sepp": 3, "Resi": 1}},
        1, {"Hans": -1, "Grete": 2, "Sepp": -3, "Resi": -1},
        {"Hans": 20, "Grete": 23, "Sepp": 18, "Resi": 20}, True, False, (),
        id="murln-stay-home",
    ),
]


@pytest.mark.parametrize(
    ("preset", "collapses", "scores", "deal", "m", "expected_deltas", "after", "made", "over",
     "winners"),
    DEAL_EXAMPLES,
)
def test_the_worked_deal_examples_score_as_documented(
    preset, collapses, scores, deal, m, expected_deltas, after, made, over, winners
):
    t = Table.of(mulatschak_rules(preset), HGSR, "Resi", scores, collapses)
    result = score(t, **deal)
    assert result.multiplier == m
    assert dict(result.deltas) == expected_deltas
    assert dict(result.scores_after) == after
    assert result.declarer_made is made
    assert result.game_over is over
    assert result.winners == winners
    assert result.next_dealer == "Hans"


# --- doublings carried from deal to deal ------------------------------------------------


def play_on(t: Table, deal: Deal) -> Table:
    """The table of the next deal, as the score keeper builds it from a result."""
    result = score_deal(t, deal)
    assert result.legal, result.violations
    assert result.next_dealer is not None
    return Table.of(t.rules, t.players, result.next_dealer, result.scores_after,
                    result.collapses_after)


def test_two_collapses_in_a_row_make_the_next_played_deal_count_four_times():
    t = play_on(play_on(table(), Deal.collapsed()), Deal.collapsed())
    assert t.dealer == DOMINIK  # the same dealer redeals
    assert score(t, **PLAIN).multiplier == 4


def test_an_all_passed_redeal_keeps_a_pending_collapse_but_adds_none():
    t = play_on(play_on(table(), Deal.collapsed()), Deal.passed())
    assert t.dealer == ANNA  # an all-passed deal passes the deal on
    assert t.collapses_before == 1
    assert score(t, **PLAIN).multiplier == 2


def test_an_all_passed_redeal_double_doubles_the_next_played_deal_like_a_collapse():
    t = play_on(table(overrides={"all_pass": "redeal_double"}), Deal.passed())
    assert score(t, **PLAIN).multiplier == 2
    plain = play_on(table(), Deal.passed())
    assert score(plain, **PLAIN).multiplier == 1


def test_a_played_deal_clears_the_doublings_for_the_one_after():
    t = play_on(play_on(table(collapses=0), Deal.collapsed()), Deal.played(**PLAIN))
    assert t.collapses_before == 0
    assert score(t, **PLAIN | {"stayed_home": [CILLI], "tricks": {ANNA: 3, BERT: 2,
                                                                  DOMINIK: 0}}).multiplier == 1


def test_a_start_score_override_sets_everybodys_first_score():
    t = table(overrides={"start_score": 30})
    assert set(t.scores_before.values()) == {30}
    assert score(t, **PLAIN).scores_after[ANNA] == 27


def test_every_deal_example_of_the_worked_examples_holds_at_the_referee_level(examples):
    # ``examples`` (tests/conftest.py) reads tests/examples/referee.json.
    deals = [e for e in examples if e["endpoint"].endswith("/mulatschak/deal")]
    assert len(deals) >= len(DEAL_EXAMPLES)
    for example in deals:
        request, response = example["request"], example["response"]
        t = Table.of(mulatschak_rules(request["rules"]), request["players"], request["dealer"],
                     request.get("scores_before"), request.get("collapses_before", 0))
        record = dict(request["deal"])
        kind = record.pop("kind")
        deal = Deal.played(**record) if kind == "played" else (
            Deal.collapsed() if kind == "collapsed" else Deal.passed())
        result = score_deal(t, deal)
        if response["status"] == 422:
            assert [v.code for v in result.violations] == response["violation_codes"], example
            continue
        assert result.legal, example["name"]
        assert result.multiplier == response["multiplier"], example["name"]
        assert dict(result.deltas) == response["deltas"], example["name"]
        assert dict(result.scores_after) == response["scores_after"], example["name"]
        assert result.declarer_made is response["declarer_made"], example["name"]
        assert result.game_over is response["game_over"], example["name"]
        assert list(result.winners) == response["winners"], example["name"]
