"""Bidding legality (docs/rules.md, "Auction")."""

from __future__ import annotations

from typing import Any

import pytest

from referee.auction import AuctionResult, normalize_call, run_auction
from referee.rules import mulatschak_rules
from referee.violations import RuleError, Violation

ANNA, BERT, CILLI, DOMINIK = "Anna", "Bert", "Cilli", "Dominik"
# Dominik deals, so Anna is forehand and the first round runs Anna, Bert, Cilli, Dominik.
FOUR = (ANNA, BERT, CILLI, DOMINIK)


def auction(
    *calls: tuple[str, object],
    preset: str = "salzburg",
    overrides: dict[str, Any] | None = None,
    players: tuple[str, ...] = FOUR,
    dealer: str = DOMINIK,
    scores: dict[str, int] | None = None,
) -> AuctionResult:
    return run_auction(mulatschak_rules(preset, overrides), players, dealer, list(calls), scores)


def won(result: AuctionResult) -> tuple[str | None, int | None]:
    assert result.legal, result.violations
    assert result.finished
    return result.declarer, result.bid


def codes(result: AuctionResult) -> list[str]:
    return [v.code for v in result.violations]


# --- the first round -------------------------------------------------------------


def test_the_seed_example_ends_with_the_dealer_declaring_four():
    # docs/rules.md, "Holding and the duel", from the Salzburg description:
    # A 2, B 3, C pass, D hold, B 4, D hold, B pass -> D declares 4.
    result = auction(
        (ANNA, 2), (BERT, 3), (CILLI, "pass"), (DOMINIK, "hold"),
        (BERT, 4), (DOMINIK, "hold"), (BERT, "pass"),
    )
    assert won(result) == (DOMINIK, 4)
    assert result.all_passed is False


def test_the_highest_bid_wins_when_the_dealer_passes():
    result = auction((ANNA, 1), (BERT, 3), (CILLI, "pass"), (DOMINIK, "pass"))
    assert won(result) == (BERT, 3)


def test_the_dealers_higher_bid_ends_the_first_round():
    result = auction((ANNA, 1), (BERT, 2), (CILLI, "pass"), (DOMINIK, 3))
    assert won(result) == (DOMINIK, 3)


def test_forehand_may_win_with_the_only_bid():
    result = auction((ANNA, 1), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"))
    assert won(result) == (ANNA, 1)


def test_when_everybody_passes_nobody_declares():
    result = auction((ANNA, "pass"), (BERT, 0), (CILLI, "pass"), (DOMINIK, "pass"))
    assert result.legal
    assert result.finished
    assert result.all_passed is True
    assert result.declarer is None
    assert result.bid is None


def test_a_bid_must_exceed_the_highest_bid_so_far():
    result = auction((ANNA, 2), (BERT, 2))
    assert codes(result) == ["bid_not_higher"]
    v = result.violations[0]
    assert v.player == BERT
    assert v.params == {"bid": 2, "highest": 2, "call_index": 1}


def test_a_lower_bid_is_not_higher_either():
    result = auction((ANNA, 3), (BERT, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"))
    assert codes(result) == ["bid_not_higher"]
    assert (result.declarer, result.bid) == (ANNA, 3)


def test_the_dealer_must_also_bid_higher_to_outbid():
    result = auction((ANNA, 3), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, 3))
    assert codes(result) == ["bid_not_higher"]


@pytest.mark.parametrize("bid", [6, -1, 9])
def test_a_number_outside_the_bid_range_is_out_of_range(bid):
    result = auction((ANNA, bid))
    assert codes(result) == ["bid_out_of_range"]
    assert result.violations[0].params == {"bid": bid, "min": 1, "max": 5, "call_index": 0}


def test_min_bid_raises_the_lowest_bid_in_the_auction():
    result = auction((ANNA, 1), overrides={"min_bid": 2, "min_bid_hearts": 2})
    assert codes(result) == ["bid_out_of_range"]
    ok = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"),
                 overrides={"min_bid": 2, "min_bid_hearts": 2})
    assert won(ok) == (ANNA, 2)


def test_one_only_in_hearts_allows_a_bid_of_one_before_trump_is_named():
    # Trump is named after the auction, so the lower of min_bid and min_bid_hearts applies;
    # the deal check then rejects a 1 that is not played in hearts.
    result = auction((ANNA, 1), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"),
                     overrides={"min_bid": 2, "min_bid_hearts": 1})
    assert won(result) == (ANNA, 1)


def test_a_call_out_of_turn_is_not_your_turn():
    result = auction((BERT, 2))
    assert codes(result) == ["not_your_turn"]
    assert result.violations[0].player == BERT
    assert result.violations[0].params == {"expected": ANNA, "call_index": 0}


def test_a_call_out_of_turn_is_ignored_and_the_auction_goes_on():
    result = auction((ANNA, 2), (CILLI, 3), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"))
    assert codes(result) == ["not_your_turn"]
    assert (result.declarer, result.bid, result.finished) == (ANNA, 2, True)


def test_each_player_calls_once_in_the_first_round():
    result = auction((ANNA, 2), (BERT, "pass"), (BERT, 3))
    assert codes(result) == ["not_your_turn"]


# --- hold and the duel -------------------------------------------------------------


def test_a_hold_by_anyone_but_the_dealer_is_hold_not_dealer():
    result = auction((ANNA, 2), (BERT, "hold"))
    assert codes(result) == ["hold_not_dealer"]
    assert result.violations[0].player == BERT


def test_the_dealer_cannot_hold_when_nobody_has_bid():
    result = auction((ANNA, "pass"), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"))
    assert codes(result) == ["hold_without_bid"]
    assert result.violations[0].player == DOMINIK


def test_holding_takes_over_the_highest_bid_and_the_held_player_may_give_up():
    result = auction((ANNA, 1), (BERT, 2), (CILLI, "pass"), (DOMINIK, "hold"), (BERT, "pass"))
    assert won(result) == (DOMINIK, 2)


def test_after_a_hold_the_held_player_may_raise_and_the_dealer_may_give_up():
    result = auction(
        (ANNA, 1), (BERT, 2), (CILLI, "pass"), (DOMINIK, "hold"), (BERT, 3), (DOMINIK, "pass")
    )
    assert won(result) == (BERT, 3)


def test_in_the_duel_the_dealers_higher_bid_ends_the_auction():
    result = auction(
        (ANNA, 1), (BERT, 2), (CILLI, "pass"), (DOMINIK, "hold"), (BERT, 3), (DOMINIK, 4)
    )
    assert won(result) == (DOMINIK, 4)


def test_the_duel_may_go_on_as_long_as_both_keep_raising_and_holding():
    result = auction(
        (ANNA, 1), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"),
        (ANNA, 2), (DOMINIK, "hold"), (ANNA, 3), (DOMINIK, "hold"), (ANNA, 4),
        (DOMINIK, "hold"), (ANNA, "pass"),
    )
    assert won(result) == (DOMINIK, 4)


def test_in_the_duel_only_the_held_player_may_raise():
    result = auction((ANNA, 1), (BERT, 2), (CILLI, "pass"), (DOMINIK, "hold"), (ANNA, 3))
    assert codes(result) == ["not_your_turn"]
    assert result.violations[0].params["expected"] == BERT


def test_in_the_duel_the_held_player_must_raise_not_repeat():
    result = auction((ANNA, 1), (BERT, 2), (CILLI, "pass"), (DOMINIK, "hold"), (BERT, 2))
    assert codes(result) == ["bid_not_higher"]


def test_the_dealer_may_not_hold_twice_in_a_row():
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"),
                     (DOMINIK, "hold"))
    assert codes(result) == ["not_your_turn"]


def test_the_dealer_may_not_hold_a_bid_he_already_holds():
    # After his own bid in the duel the auction is over; a hold then is auction_over.
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, 3),
                     (DOMINIK, "hold"))
    assert codes(result) == ["auction_over"]


def test_without_dealer_may_hold_the_dealer_must_bid_higher_or_pass():
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"),
                     overrides={"dealer_may_hold": False})
    assert codes(result) == ["hold_not_allowed"]
    ok = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, 3),
                 overrides={"dealer_may_hold": False})
    assert won(ok) == (DOMINIK, 3)


# --- the Muli -----------------------------------------------------------------------


def test_a_bid_of_five_ends_the_auction_at_once():
    result = auction((ANNA, 2), (BERT, 5))
    assert won(result) == (BERT, 5)


def test_a_call_after_a_bid_of_five_is_auction_over():
    result = auction((ANNA, 2), (BERT, 5), (CILLI, "pass"))
    assert codes(result) == ["auction_over"]
    assert result.violations[0].player == CILLI
    assert (result.declarer, result.bid) == (BERT, 5)


def test_a_muli_may_be_called_out_of_turn():
    result = auction((CILLI, "muli"))
    assert won(result) == (CILLI, 5)


def test_a_muli_may_be_called_out_of_turn_in_the_middle_of_the_auction():
    result = auction((ANNA, 2), (BERT, 3), (DOMINIK, "Muli"))
    assert won(result) == (DOMINIK, 5)


def test_a_muli_may_be_called_in_the_duel_by_a_player_out_of_it():
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"),
                     (BERT, "muli"))
    assert won(result) == (BERT, 5)


def test_a_muli_after_the_end_is_auction_over():
    result = auction((ANNA, 1), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"),
                     (BERT, "muli"))
    assert codes(result) == ["auction_over"]
    assert (result.declarer, result.bid) == (ANNA, 1)


# --- low scores ---------------------------------------------------------------------


@pytest.mark.parametrize("call", [2, 5, "muli"])
def test_salzburg_a_player_at_or_below_five_may_not_bid(call):
    result = auction((ANNA, "pass"), (BERT, call), scores={BERT: 5})
    assert codes(result) == ["bid_forbidden_low_score"]
    assert result.violations[0].player == BERT
    assert result.violations[0].params == {"score": 5, "threshold": 5, "call_index": 1}


def test_salzburg_a_dealer_at_or_below_five_may_not_hold():
    result = auction((ANNA, 1), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"),
                     scores={DOMINIK: 3})
    assert codes(result) == ["bid_forbidden_low_score"]
    assert result.violations[0].player == DOMINIK


def test_a_low_score_muli_out_of_turn_is_forbidden_not_out_of_turn():
    result = auction((CILLI, "muli"), scores={CILLI: 4})
    assert codes(result) == ["bid_forbidden_low_score"]


def test_no_bid_at_or_below_is_a_parameter():
    result = auction((ANNA, 1), overrides={"no_bid_at_or_below": 21})
    assert codes(result) == ["bid_forbidden_low_score"]


def test_a_player_at_or_below_five_may_pass():
    result = auction((ANNA, "pass"), (BERT, "pass"), (CILLI, 1), (DOMINIK, "pass"),
                     scores={ANNA: 5, BERT: 0})
    assert won(result) == (CILLI, 1)


def test_a_player_just_above_five_may_bid():
    assert won(auction((ANNA, "muli"), scores={ANNA: 6})) == (ANNA, 5)


@pytest.mark.parametrize("preset", ["geiser", "murln"])
def test_geiser_and_murln_let_any_score_bid(preset):
    assert won(auction((ANNA, "muli"), preset=preset, scores={ANNA: 1})) == (ANNA, 5)


# --- the auction's end ---------------------------------------------------------------


def test_an_auction_that_has_not_ended_is_auction_incomplete():
    result = auction((ANNA, 2), (BERT, "pass"))
    assert codes(result) == ["auction_incomplete"]
    assert result.violations[0].player == CILLI  # whose call is awaited
    assert result.finished is False
    assert result.declarer is None
    assert result.bid is None
    assert result.all_passed is False


def test_an_empty_auction_is_incomplete():
    result = auction()
    assert codes(result) == ["auction_incomplete"]
    assert result.violations[0].player == ANNA


def test_a_duel_without_an_answer_is_incomplete():
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"))
    assert codes(result) == ["auction_incomplete"]
    assert result.violations[0].player == ANNA


def test_calls_after_the_end_are_auction_over():
    result = auction((ANNA, 1), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "pass"), (ANNA, 2))
    assert codes(result) == ["auction_over"]
    assert result.violations[0].params == {"call_index": 4}


def test_every_violation_of_a_sequence_is_reported():
    result = auction(
        (BERT, 1), (ANNA, 2), (BERT, 2), (BERT, "hold"), ("Xaver", 3), (BERT, 6),
        (BERT, 3), (CILLI, "pass"), (DOMINIK, "pass"), (CILLI, 4),
    )
    assert codes(result) == [
        "not_your_turn",
        "bid_not_higher",
        "hold_not_dealer",
        "unknown_player",
        "bid_out_of_range",
        "auction_over",
    ]
    assert [v.params["call_index"] for v in result.violations] == [0, 2, 3, 4, 5, 9]
    assert (result.declarer, result.bid) == (BERT, 3)


def test_after_an_illegal_call_incompleteness_is_not_reported_again():
    # worked example "auction-equal-bid": only bid_not_higher
    result = auction((ANNA, 2), (BERT, 2))
    assert codes(result) == ["bid_not_higher"]
    assert result.finished is False


def test_a_dealer_who_is_not_seated_is_dealer_not_seated():
    result = auction((ANNA, 2), dealer="Xaver")
    assert codes(result) == ["dealer_not_seated"]


# --- two players ---------------------------------------------------------------------


def test_two_players_forehand_bids_and_the_dealer_holds_and_wins():
    result = auction((ANNA, 2), (BERT, "hold"), (ANNA, "pass"), players=(ANNA, BERT),
                     dealer=BERT)
    assert won(result) == (BERT, 2)


def test_two_players_the_dealer_may_outbid():
    result = auction((ANNA, 2), (BERT, 3), players=(ANNA, BERT), dealer=BERT)
    assert won(result) == (BERT, 3)


def test_two_players_both_may_pass():
    result = auction((ANNA, "pass"), (BERT, "pass"), players=(ANNA, BERT), dealer=BERT)
    assert result.legal and result.all_passed


def test_two_players_when_anna_deals_bert_is_forehand():
    result = auction((ANNA, 2), players=(ANNA, BERT), dealer=ANNA)
    assert codes(result) == ["not_your_turn"]
    assert result.violations[0].params["expected"] == BERT


# --- calls ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "call"),
    [(0, "pass"), ("pass", "pass"), (" PASS ", "pass"), ("Hold", "hold"), ("MULI", "muli"),
     (3, 3), (5, 5)],
)
def test_calls_are_normalized(raw, call):
    assert normalize_call(raw) == call


@pytest.mark.parametrize("raw", [True, False, "double", "", None, 2.0, "3"])
def test_a_call_that_is_no_call_is_a_rule_error(raw):
    with pytest.raises(RuleError) as caught:
        normalize_call(raw)
    assert caught.value.field == "call"
    assert caught.value.code == "bad_call"


def test_a_malformed_call_in_an_auction_is_a_rule_error():
    with pytest.raises(RuleError):
        auction((ANNA, "double"))


# --- worked examples (tests/examples/referee.json), at the referee level ------------

HGSR = ("Hans", "Grete", "Sepp", "Resi")


def test_example_auction_dealer_holds():
    result = run_auction(
        mulatschak_rules("salzburg"), HGSR, "Resi",
        [("Hans", 1), ("Grete", 2), ("Sepp", "pass"), ("Resi", "hold"), ("Grete", "pass")],
    )
    assert won(result) == ("Resi", 2)
    assert result.all_passed is False


def test_example_auction_duel():
    result = run_auction(
        mulatschak_rules("salzburg"), HGSR, "Resi",
        [("Hans", 1), ("Grete", 2), ("Sepp", "pass"), ("Resi", "hold"), ("Grete", 3),
         ("Resi", "pass")],
    )
    assert won(result) == ("Grete", 3)


def test_example_auction_equal_bid():
    result = run_auction(mulatschak_rules("salzburg"), HGSR, "Resi",
                         [("Hans", 2), ("Grete", 2)])
    assert codes(result) == ["bid_not_higher"]


def test_the_dealer_may_bid_after_everybody_else_passed():
    result = auction((ANNA, "pass"), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, 1))
    assert won(result) == (DOMINIK, 1)


def test_a_dealer_who_bids_five_ends_the_auction_with_a_muli():
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, 5))
    assert won(result) == (DOMINIK, 5)


def test_a_held_player_who_raises_to_five_ends_the_duel():
    result = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"), (ANNA, 5))
    assert won(result) == (ANNA, 5)
    late = auction((ANNA, 2), (BERT, "pass"), (CILLI, "pass"), (DOMINIK, "hold"), (ANNA, 5),
                   (DOMINIK, "hold"))
    assert codes(late) == ["auction_over"]


def test_every_auction_example_of_the_worked_examples_holds_at_the_referee_level(examples):
    # ``examples`` (tests/conftest.py) reads tests/examples/referee.json.
    auctions = [e for e in examples if e["endpoint"].endswith("/mulatschak/auction")]
    assert len(auctions) >= 3
    for example in auctions:
        request, response = example["request"], example["response"]
        result = run_auction(
            mulatschak_rules(request["rules"]), request["players"], request["dealer"],
            [(c["player"], c["call"]) for c in request["calls"]], request.get("scores_before"),
        )
        if response["status"] == 422:
            assert codes(result) == response["violation_codes"], example["name"]
        else:
            assert won(result) == (response["declarer"], response["bid"]), example["name"]
            assert result.all_passed is response["all_passed"]


# --- the table --------------------------------------------------------------------


def test_a_single_player_auction_is_refused_as_players_count_alone():
    result = auction((ANNA, 2), players=(ANNA,), dealer=ANNA)
    assert result.violations == (Violation.of("players_count", count=1, min=2, max=6),)
    assert not result.finished and result.declarer is None


def test_an_auction_at_a_table_too_large_is_players_count():
    six = (*FOUR, "Erna", "Franz")
    result = auction((ANNA, 2), preset="geiser", players=six, dealer="Franz")
    assert result.violations == (Violation.of("players_count", count=6, min=2, max=5),)


def test_an_auction_counts_the_active_players_when_the_dealer_sits_out():
    result = auction((ANNA, "pass"), overrides={"sit_out_at": 3, "players_min": 3},
                     players=(ANNA, BERT, CILLI), dealer=CILLI)
    assert codes(result) == ["players_count"]
    assert result.violations[0].params["count"] == 2
