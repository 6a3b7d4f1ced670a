"""What the Referee page asks the referee beyond the API's answers: the auction so far
(leader, bid, next caller, duel), a Mura revoke from the cards seen, and why a Müller Matz
hand may not swap the lowest trump."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.auction import run_auction
from referee.cards import HUNGARIAN32, Card
from referee.muller_matz import check_hand
from referee.mura import revoke_evidence
from referee.rules import mulatschak_rules

FOUR = ("Anna", "Bert", "Cilli", "Dominik")
SALZBURG = mulatschak_rules("salzburg")


def test_an_unfinished_auction_names_the_leader_so_far_and_who_calls_next():
    result = run_auction(SALZBURG, FOUR, "Dominik", [("Anna", 2), ("Bert", 3)])
    assert (result.leader, result.highest, result.next_caller) == ("Bert", 3, "Cilli")
    assert result.declarer is None and not result.finished and result.duel is None


def test_a_hold_opens_a_duel_between_the_held_player_and_the_dealer():
    calls = [("Anna", 2), ("Bert", 3), ("Cilli", "pass"), ("Dominik", "hold")]
    result = run_auction(SALZBURG, FOUR, "Dominik", calls)
    assert result.duel == ("Bert", "Dominik")
    assert (result.leader, result.highest, result.next_caller) == ("Dominik", 3, "Bert")


def test_a_finished_auction_has_nobody_to_call_and_no_duel():
    calls = [("Anna", 2), ("Bert", 3), ("Cilli", "pass"), ("Dominik", "hold"),
             ("Bert", "pass")]
    result = run_auction(SALZBURG, FOUR, "Dominik", calls)
    assert result.finished and result.next_caller is None and result.duel is None
    assert (result.declarer, result.leader, result.highest) == ("Dominik", "Dominik", 3)


def test_a_card_that_follows_suit_is_never_a_revoke():
    card = HUNGARIAN32.parse("hearts-7")
    assert revoke_evidence("hearts", card, [HUNGARIAN32.parse("hearts-8")]) is None


def test_showing_out_and_playing_the_suit_later_is_a_revoke_found_at_its_first_card():
    later = [HUNGARIAN32.parse(c) for c in ("bells-9", "hearts-8", "hearts-10")]
    assert revoke_evidence("hearts", HUNGARIAN32.parse("bells-7"), later) == 1


@given(st.lists(st.sampled_from(HUNGARIAN32.cards), max_size=7),
       st.sampled_from(HUNGARIAN32.cards), st.sampled_from(HUNGARIAN32.suits))
def test_a_revoke_is_found_exactly_when_a_later_card_is_of_the_suit_led(later, card, led):
    found = revoke_evidence(led, card, later)
    revoked = card.suit != led and any(c.suit == led for c in later)
    assert (found is not None) == revoked
    if found is not None:
        assert later[found].suit == led


def test_a_swap_is_refused_for_an_empty_stock_first():
    state = check_hand(["hearts-2"], "hearts", 0, "hearts-2")
    assert (state.may_swap, state.swap_refused, state.sleep_needed) == (False, "stock_empty", 1)


def test_a_swap_is_refused_when_the_turned_up_card_is_the_lowest_trump():
    state = check_hand(["hearts-2"], "hearts", 4, "hearts-2")
    assert state.swap_refused == "turned_up_is_lowest"


def test_a_swap_is_refused_without_the_lowest_trump_and_allowed_with_it():
    assert check_hand(["hearts-3"], "hearts", 4).swap_refused == "no_lowest_trump"
    allowed = check_hand(["hearts-2"], "hearts", 4, "hearts-queen")
    assert allowed.may_swap and allowed.swap_refused is None
    assert allowed.swap_card == Card("hearts", "2") and allowed.sleep_needed == 3
