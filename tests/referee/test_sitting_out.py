"""Sitting out and knocks over collapses (docs/rules.md, "Sitting out" and
"Knocks and collapses")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.auction import run_auction
from referee.deal import (
    Deal,
    DealKind,
    Factor,
    Reason,
    Table,
    check_deal,
    knocks_after,
    score_deal,
    sitting_out,
)
from referee.exchange import Exchange
from referee.rules import mulatschak_rules
from referee.violations import RuleError

HANS, GRETE, SEPP, RESI, FRANZ = "Hans", "Grete", "Sepp", "Resi", "Franz"
FIVE = (HANS, GRETE, SEPP, RESI, FRANZ)
SIT = {"sit_out_at": 5}


def murln(overrides: dict[str, Any] | None = None, *, players: tuple[str, ...] = FIVE,
          dealer: str = FRANZ, scores: dict[str, int] | None = None) -> Table:
    return Table.of(mulatschak_rules("murln", {**SIT, **(overrides or {})}), players, dealer,
                    scores)


def played(**changes: Any) -> Deal:
    kwargs: dict[str, Any] = {"declarer": SEPP, "bid": 2, "trump": "acorns",
                              "tricks": {HANS: 1, GRETE: 1, SEPP: 2, RESI: 1}}
    kwargs.update(changes)
    return Deal.played(**kwargs)


def found(t: Table, deal: Deal) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(v.code, v.player, dict(v.params)) for v in check_deal(t, deal)]


# --- who sits out -------------------------------------------------------------------


def test_the_dealer_sits_out_from_sit_out_at_seated_players_on():
    rules = mulatschak_rules("murln", SIT)
    assert sitting_out(rules, FIVE, FRANZ) == FRANZ
    assert sitting_out(rules, FIVE[:4], RESI) is None
    assert sitting_out(mulatschak_rules("murln"), FIVE, FRANZ) is None
    assert sitting_out(rules, FIVE, "Xaver") is None
    t = murln()
    assert t.sitting_out == FRANZ and t.active == (HANS, GRETE, SEPP, RESI)


@pytest.mark.parametrize("value", [2, 8, "5", True])
def test_sit_out_at_is_a_number_of_players_from_three_to_seven_or_null(value):
    with pytest.raises(RuleError) as caught:
        mulatschak_rules("murln", {"sit_out_at": value})
    assert caught.value.field == "overrides.sit_out_at"
    assert mulatschak_rules("murln", {"sit_out_at": None}).sit_out_at is None


def test_the_sitting_out_dealer_changes_nothing_and_the_others_play_as_four():
    result = score_deal(murln(), played(stayed_home=[GRETE], tricks={HANS: 1, SEPP: 3, RESI: 1},
                                        exchanged={HANS: 2, SEPP: 3}))
    assert result.legal, result.violations
    assert dict(result.deltas) == {HANS: -1, GRETE: 2, SEPP: -3, RESI: -1, FRANZ: 0}
    assert result.reasons[FRANZ] is Reason.SITTING_OUT
    assert (result.sitting_out, result.next_dealer, result.next_sitting_out) == (
        FRANZ, HANS, HANS)


def test_the_dealer_sitting_out_may_have_no_entry_in_the_deal_one_violation_a_field():
    deal = Deal.played(declarer=FRANZ, bid=2, trump="acorns", stayed_home=[FRANZ],
                       tricks={HANS: 1, GRETE: 1, SEPP: 2, RESI: 1, FRANZ: 0},
                       exchanged={FRANZ: 0}, exchanges={FRANZ: Exchange.on_sight()})
    assert [(c, p, params["field"]) for c, p, params in found(murln(), deal)
            if c == "player_sitting_out"] == [
        ("player_sitting_out", FRANZ, "declarer"),
        ("player_sitting_out", FRANZ, "stayed_home"),
        ("player_sitting_out", FRANZ, "tricks"),
        ("player_sitting_out", FRANZ, "exchanged"),
        ("player_sitting_out", FRANZ, "exchanges"),
    ]


def test_naming_the_sitting_out_player_as_muli_breaker_is_player_sitting_out():
    t = murln({"muli_fail_mode": "breaker"})
    deal = played(bid=5, tricks={HANS: 1, GRETE: 0, SEPP: 4, RESI: 0}, muli_breaker=FRANZ)
    assert [(c, params.get("field")) for c, _p, params in found(t, deal)] == [
        ("player_sitting_out", "muli_breaker"), ("muli_breaker_required", None)]


def test_the_four_active_players_decide_players_min_and_no_opponent():
    t = murln({"players_min": 5, "players_max": 5})
    assert found(t, played()) == [("players_count", None, {"count": 4, "min": 5, "max": 5})]
    alone = played(stayed_home=[HANS, GRETE, RESI], tricks={SEPP: 5})
    assert [v.code for v in check_deal(murln(), alone)] == ["no_opponent"]


def test_muli_payouts_go_to_the_active_players_only():
    result = score_deal(murln(), played(bid=5, tricks={HANS: 0, GRETE: 0, SEPP: 5, RESI: 0}))
    assert dict(result.deltas) == {HANS: 20, GRETE: 20, SEPP: -10, RESI: 20, FRANZ: 0}
    broken = score_deal(murln(), played(bid=5, tricks={HANS: 1, GRETE: 0, SEPP: 4, RESI: 0}))
    assert dict(broken.deltas) == {HANS: -10, GRETE: -10, SEPP: 20, RESI: -10, FRANZ: 0}


def test_sitting_out_is_not_staying_home_for_no_stay_home_twice():
    t = Table.of(mulatschak_rules("murln", {**SIT, "no_stay_home_twice": True}), FIVE, FRANZ,
                 previous_stayed_home=[FRANZ])
    assert check_deal(t, played()) == ()


def test_a_collapsed_deal_keeps_the_dealer_and_so_who_sits_out():
    result = score_deal(murln(), Deal.collapsed())
    assert (result.sitting_out, result.next_dealer, result.next_sitting_out) == (
        FRANZ, FRANZ, FRANZ)


# --- the auction with the dealer sitting out --------------------------------------------


def auction(*calls: tuple[str, object], dealer: str = FRANZ) -> Any:
    return run_auction(mulatschak_rules("murln", SIT), FIVE, dealer, list(calls))


def test_the_player_to_the_dealers_right_calls_last_and_may_hold():
    result = auction((HANS, 2), (GRETE, "pass"), (SEPP, "pass"), (RESI, "hold"), (HANS, 3),
                     (RESI, "hold"), (HANS, "pass"))
    assert (result.legal, result.declarer, result.bid, result.sitting_out) == (
        True, RESI, 3, FRANZ)


def test_the_first_round_ends_with_the_player_to_the_dealers_right():
    result = auction((HANS, "pass"), (GRETE, "pass"), (SEPP, "pass"), (RESI, "pass"))
    assert result.legal and result.all_passed


def test_a_call_by_the_sitting_out_dealer_is_reported_and_ignored():
    result = auction((HANS, 2), (FRANZ, "muli"), (GRETE, "pass"), (SEPP, "pass"),
                     (RESI, "pass"))
    assert [(v.code, v.player, dict(v.params)) for v in result.violations] == [
        ("player_sitting_out", FRANZ, {"field": "calls", "call_index": 1})]
    assert (result.declarer, result.bid) == (HANS, 2)


def test_only_the_stand_in_may_hold():
    result = auction((HANS, 2), (GRETE, "hold"))
    assert [v.code for v in result.violations] == ["hold_not_dealer"]


def test_with_four_seated_the_dealer_still_bids():
    rules = mulatschak_rules("murln", SIT)
    result = run_auction(rules, FIVE[:4], RESI, [(HANS, "pass"), (GRETE, "pass"),
                                                (SEPP, "pass"), (RESI, 2)])
    assert (result.declarer, result.sitting_out) == (RESI, None)


# --- knocks over collapses (docs/rules.md, "Knocks and collapses") ----------------------


SURVIVES = {"knock_survives_collapse": True}
FOUR = (HANS, GRETE, SEPP, RESI)


def salzburg(overrides: dict[str, Any] | None = None, collapses: int = 0,
             knocks: int = 0) -> Table:
    return Table.of(mulatschak_rules("salzburg", overrides), FOUR, RESI,
                    collapses_before=collapses, knocks_before=knocks)


def test_a_knock_carried_over_a_collapse_doubles_the_next_played_deal():
    result = score_deal(salzburg(SURVIVES, collapses=1, knocks=1), played(knocked=True))
    assert result.multiplier == 8
    assert result.factors == (Factor.COLLAPSE, Factor.KNOCK, Factor.KNOCK)


def test_knocks_before_count_only_with_both_switches():
    assert [(v.code, dict(v.params)) for v in check_deal(salzburg(collapses=1, knocks=1),
                                                         played())] == [
        ("knock_not_allowed", {"knocks_before": 1})]
    off = salzburg({**SURVIVES, "knock_doubles": False}, collapses=2, knocks=1)
    assert [v.code for v in check_deal(off, Deal.collapsed())] == ["knock_not_allowed"]


@pytest.mark.parametrize(("collapses", "knocks"), [(0, 1), (2, 3), (1, -1)])
def test_knocks_before_is_from_zero_to_the_collapses_before(collapses, knocks):
    with pytest.raises(RuleError) as caught:
        salzburg(SURVIVES, collapses=collapses, knocks=knocks)
    assert caught.value.field == "knocks_before"


def test_knocks_after_follow_the_thrown_in_deals_that_feed_the_multiplier():
    on = mulatschak_rules("salzburg", SURVIVES)
    assert knocks_after(on, DealKind.COLLAPSED, 0, True) == 1
    assert knocks_after(on, DealKind.COLLAPSED, 1, False) == 1
    assert knocks_after(on, DealKind.PASSED, 1, True) == 1  # a plain redeal adds nothing
    assert knocks_after(on, DealKind.PLAYED, 2, True) == 0
    double = mulatschak_rules("salzburg", {**SURVIVES, "all_pass": "redeal_double"})
    assert knocks_after(double, DealKind.PASSED, 1, True) == 2
    house = mulatschak_rules("salzburg")
    assert knocks_after(house, DealKind.COLLAPSED, 0, True) == 0


def test_a_knocked_collapse_reports_the_knock_it_carries():
    result = score_deal(salzburg(SURVIVES, collapses=1, knocks=1),
                        Deal(DealKind.COLLAPSED, knocked=True))
    assert (result.collapses_after, result.knocks_after) == (2, 2)
    assert score_deal(salzburg(), Deal(DealKind.COLLAPSED, knocked=True)).knocks_after == 0
