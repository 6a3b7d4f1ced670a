"""What a recorded Mulatschak deal must satisfy: every violation code of docs/rules.md,
"Deal codes"."""

from __future__ import annotations

from typing import Any

import pytest

from referee.deal import (
    CODE_ORDER,
    Deal,
    DealKind,
    Table,
    check_deal,
    collapses_after,
    deal_from_dict,
    deal_to_dict,
    forehand,
    next_dealer,
    score_deal,
)
from referee.exchange import Exchange
from referee.rules import mulatschak_rules
from referee.violations import RuleError
from tests.docs import first_column_codes

ANNA, BERT, CILLI, DOMINIK, ERNA, FRANZ = "Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz"
FOUR = (ANNA, BERT, CILLI, DOMINIK)
SIX = (ANNA, BERT, CILLI, DOMINIK, ERNA, FRANZ)


def table(
    preset: str = "salzburg",
    overrides: dict[str, Any] | None = None,
    *,
    players: tuple[str, ...] = FOUR,
    dealer: str = DOMINIK,
    scores: dict[str, int] | None = None,
    collapses: int = 0,
    previous_home: tuple[str, ...] = (),
) -> Table:
    return Table.of(
        mulatschak_rules(preset, overrides), players, dealer, scores, collapses, previous_home
    )


def played(**changes: Any) -> Deal:
    """Anna bids 2 in acorns and takes 2; everybody plays and takes a trick or so."""
    kwargs: dict[str, Any] = {
        "declarer": ANNA,
        "bid": 2,
        "trump": "acorns",
        "tricks": {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1},
    }
    kwargs.update(changes)
    return Deal.played(**kwargs)


def codes(t: Table, deal: Deal) -> list[str]:
    return [v.code for v in check_deal(t, deal)]


def only(t: Table, deal: Deal, code: str, player: str | None = None) -> None:
    found = check_deal(t, deal)
    assert [v.code for v in found] == [code], found
    if player is not None:
        assert found[0].player == player


# --- a legal deal ----------------------------------------------------------------


def test_a_plain_deal_is_legal():
    assert check_deal(table(), played()) == ()
    assert score_deal(table(), played()).legal


@pytest.mark.parametrize("preset", ["salzburg", "geiser", "murln"])
def test_a_plain_deal_is_legal_in_every_preset(preset):
    assert check_deal(table(preset), played()) == ()


def test_a_collapsed_deal_and_a_passed_deal_are_legal_and_carry_no_bid():
    for deal in (Deal.collapsed(), Deal.passed()):
        assert check_deal(table(), deal) == ()
        assert deal.declarer is None and deal.bid is None and deal.tricks == {}
    assert Deal.collapsed().kind is DealKind.COLLAPSED
    assert Deal.passed().kind is DealKind.PASSED
    assert played().kind is DealKind.PLAYED


def test_a_deal_record_is_read_only():
    deal = played()
    with pytest.raises(TypeError):
        deal.tricks[ANNA] = 5  # type: ignore[index]


# --- the table -------------------------------------------------------------------


def test_a_table_fills_missing_scores_with_the_start_score():
    t = table("geiser", scores={ANNA: 3})
    assert dict(t.scores_before) == {ANNA: 3, BERT: 15, CILLI: 15, DOMINIK: 15}


def test_a_name_seated_twice_is_a_rule_error():
    with pytest.raises(RuleError) as caught:
        table(players=(ANNA, BERT, ANNA))
    assert caught.value.field == "players"
    assert caught.value.code == "seated_twice"


def test_an_empty_table_is_a_rule_error():
    with pytest.raises(RuleError) as caught:
        table(players=())
    assert caught.value.code == "empty"


@pytest.mark.parametrize("collapses", [-1, True])
def test_collapses_before_must_be_a_count(collapses):
    with pytest.raises(RuleError) as caught:
        table(collapses=collapses)
    assert caught.value.field == "collapses_before"


def test_forehand_sits_to_the_dealers_left_and_the_deal_passes_clockwise():
    assert forehand(FOUR, DOMINIK) == ANNA
    assert forehand(FOUR, ANNA) == BERT
    assert next_dealer(FOUR, DOMINIK, DealKind.PLAYED) == ANNA
    assert next_dealer(FOUR, BERT, DealKind.PASSED) == CILLI


def test_a_collapsed_deal_is_redealt_by_the_same_dealer():
    assert next_dealer(FOUR, BERT, DealKind.COLLAPSED) == BERT
    assert score_deal(table(dealer=BERT), Deal.collapsed()).next_dealer == BERT
    assert score_deal(table(dealer=BERT), played()).next_dealer == CILLI


@pytest.mark.parametrize("count", [1, 7])
def test_a_table_outside_the_seat_range_is_players_count(count):
    players = SIX + ("Gitti",) if count == 7 else (ANNA,)
    t = table(players=players, dealer=ANNA)
    found = check_deal(t, Deal.collapsed())
    assert [v.code for v in found] == ["players_count"]
    assert found[0].params == {"count": count, "min": 2, "max": 6}


def test_geiser_seats_at_most_five():
    assert codes(table("geiser", players=SIX, dealer=ANNA), Deal.passed()) == ["players_count"]
    assert codes(table("salzburg", players=SIX, dealer=ANNA), Deal.passed()) == []


def test_two_players_may_play_a_deal():
    t = table(players=(ANNA, BERT), dealer=BERT)
    assert check_deal(t, played(tricks={ANNA: 3, BERT: 2})) == ()


# --- unknown_player / dealer_not_seated -------------------------------------------


@pytest.mark.parametrize(
    "deal",
    [
        played(declarer="Xaver"),
        played(stayed_home=["Xaver"]),
        played(tricks={ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1, "Xaver": 0}),
        played(exchanged={"Xaver": 2}),
        played(bid=5, tricks={ANNA: 4, BERT: 1, CILLI: 0, DOMINIK: 0}, muli_breaker="Xaver"),
    ],
    ids=["declarer", "stayed_home", "tricks", "exchanged", "muli_breaker"],
)
def test_every_name_in_the_deal_must_be_seated(deal):
    found = [v for v in check_deal(table(), deal) if v.code == "unknown_player"]
    assert [v.player for v in found] == ["Xaver"]


def test_an_unknown_name_in_the_scores_or_the_previous_deal_is_unknown_player():
    assert codes(table(scores={"Xaver": 3}), played()) == ["unknown_player"]
    assert codes(table(previous_home=("Xaver",)), Deal.collapsed()) == ["unknown_player"]


def test_an_unknown_name_is_reported_once_however_often_it_appears():
    deal = played(
        stayed_home=["Xaver"],
        tricks={ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1, "Xaver": 0},
        exchanged={"Xaver": 1},
    )
    assert codes(table(), deal).count("unknown_player") == 1


def test_the_dealer_must_be_seated():
    only(table(dealer="Xaver"), played(), "dealer_not_seated", "Xaver")
    only(table(dealer="Xaver"), Deal.collapsed(), "dealer_not_seated", "Xaver")


def test_a_deal_at_a_table_with_a_stray_dealer_has_no_next_dealer():
    result = score_deal(table(dealer="Xaver"), played())
    assert not result.legal
    assert result.next_dealer is None


# --- bid_out_of_range / bid_forbidden_low_score / trump_invalid ----------------------


@pytest.mark.parametrize("bid", [0, -1, 6])
def test_a_bid_outside_min_bid_to_five_is_out_of_range(bid):
    tricks = {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1}
    found = check_deal(table(), played(bid=bid, tricks=tricks))
    assert [v.code for v in found] == ["bid_out_of_range"]
    assert found[0].player == ANNA
    assert found[0].params == {"bid": bid, "min": 1, "max": 5}


def test_min_bid_raises_the_lowest_bid():
    t = table(overrides={"min_bid": 2, "min_bid_hearts": 2})
    only(t, played(bid=1), "bid_out_of_range", ANNA)
    assert codes(t, played(bid=2)) == []


def test_one_only_in_hearts_allows_a_bid_of_one_with_hearts_trump_only():
    t = table(overrides={"min_bid": 2, "min_bid_hearts": 1})
    only(t, played(bid=1, trump="acorns"), "bid_out_of_range", ANNA)
    assert codes(t, played(bid=1, trump="hearts")) == []


def test_min_bid_hearts_governs_a_hearts_bid():
    # Engine's reading: with hearts trump the lowest bid is min_bid_hearts, even above min_bid.
    t = table(overrides={"min_bid": 1, "min_bid_hearts": 2})
    only(t, played(bid=1, trump="hearts"), "bid_out_of_range", ANNA)
    assert codes(t, played(bid=1, trump="bells")) == []


@pytest.mark.parametrize(("score", "legal"), [(5, False), (4, False), (-3, False), (6, True)])
def test_salzburg_a_declarer_at_or_below_five_may_not_bid(score, legal):
    deal = played()
    found = codes(table(scores={ANNA: score}), deal)
    assert found == ([] if legal else ["bid_forbidden_low_score"])


def test_bid_forbidden_low_score_names_the_declarer_and_the_threshold():
    found = check_deal(table(scores={ANNA: 2}), played())
    assert found[0].player == ANNA
    assert found[0].params == {"score": 2, "threshold": 5}


@pytest.mark.parametrize("preset", ["geiser", "murln"])
def test_geiser_and_murln_let_any_score_bid(preset):
    assert codes(table(preset, scores={ANNA: 1}), played()) == []


def test_no_bid_at_or_below_is_a_parameter():
    t = table("geiser", {"no_bid_at_or_below": 10}, scores={ANNA: 10})
    assert codes(t, played()) == ["bid_forbidden_low_score"]
    assert codes(table(overrides={"no_bid_at_or_below": None}, scores={ANNA: 1}), played()) == []


@pytest.mark.parametrize("trump", ["clubs", "trumps", "", "Hearts"])
def test_trump_must_be_one_of_the_four_german_suits(trump):
    found = check_deal(table(), played(trump=trump))
    assert [v.code for v in found] == ["trump_invalid"]
    assert found[0].params == {"trump": trump}


@pytest.mark.parametrize("trump", ["acorns", "leaves", "hearts", "bells"])
def test_each_german_suit_may_be_trump(trump):
    assert codes(table(), played(trump=trump)) == []


# --- staying home ----------------------------------------------------------------


def test_the_declarer_may_not_stay_home():
    deal = played(stayed_home=[ANNA], tricks={BERT: 2, CILLI: 2, DOMINIK: 1})
    only(table(), deal, "declarer_stayed_home", ANNA)


@pytest.mark.parametrize("tricks", [
    {BERT: 2, CILLI: 2, DOMINIK: 1},  # no count for the declarer
    {ANNA: 0, BERT: 2, CILLI: 2, DOMINIK: 1},
    {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1},  # the declarer's count makes the five
])
def test_a_declarer_listed_at_home_is_declarer_stayed_home_alone(tricks):
    only(table(), played(stayed_home=[ANNA], tricks=tricks), "declarer_stayed_home", ANNA)


def test_the_stay_home_duties_are_not_checked_for_a_declarer_listed_at_home():
    t = table(overrides={"no_stay_home_twice": True}, scores={ANNA: 6},
              previous_home=(ANNA,))
    deal = played(trump="hearts", stayed_home=[ANNA], exchanged={ANNA: 2},
                  tricks={ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1})
    assert codes(t, deal) == ["declarer_stayed_home"]


def test_a_declarer_listed_at_home_still_has_counts_that_add_up():
    deal = played(stayed_home=[ANNA], tricks={ANNA: 2, BERT: 2, CILLI: 2, DOMINIK: 1})
    assert codes(table(), deal) == ["declarer_stayed_home", "tricks_sum"]


def test_an_opponent_may_stay_home_in_a_plain_deal():
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})
    assert codes(table(), deal) == []


def test_hearts_trump_forbids_staying_home():
    deal = played(trump="hearts", stayed_home=[BERT, CILLI], tricks={ANNA: 3, DOMINIK: 2})
    found = check_deal(table(), deal)
    assert [(v.code, v.player) for v in found] == [
        ("stay_home_forbidden_hearts", BERT),
        ("stay_home_forbidden_hearts", CILLI),
    ]


def test_without_hearts_all_play_a_player_may_stay_home_in_hearts():
    deal = played(trump="hearts", stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})
    assert codes(table(overrides={"hearts_all_play": False}), deal) == []


def test_a_muli_forbids_staying_home():
    deal = played(bid=5, stayed_home=[BERT], tricks={ANNA: 5, CILLI: 0, DOMINIK: 0})
    only(table(), deal, "stay_home_forbidden_muli", BERT)


def test_without_muli_all_play_a_player_may_stay_home_in_a_muli():
    deal = played(bid=5, stayed_home=[BERT], tricks={ANNA: 5, CILLI: 0, DOMINIK: 0})
    assert codes(table(overrides={"muli_all_play": False}), deal) == []


def test_a_hearts_muli_reports_both_reasons_for_staying_home():
    deal = played(bid=5, trump="hearts", stayed_home=[BERT], tricks={ANNA: 5, CILLI: 0,
                                                                     DOMINIK: 0})
    assert codes(table(), deal) == ["stay_home_forbidden_hearts", "stay_home_forbidden_muli"]


@pytest.mark.parametrize(
    ("preset", "score", "legal"),
    [("salzburg", 3, False), ("salzburg", 4, True), ("salzburg", -2, False),
     ("geiser", 5, False), ("geiser", 6, True), ("murln", 5, False), ("murln", 6, True)],
)
def test_a_player_at_or_below_must_play_at_or_below_may_not_stay_home(preset, score, legal):
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})
    found = check_deal(table(preset, scores={BERT: score}), deal)
    if legal:
        assert found == ()
    else:
        assert [(v.code, v.player) for v in found] == [("stay_home_forbidden_low_score", BERT)]
        assert found[0].params["threshold"] == (3 if preset == "salzburg" else 5)


def test_must_play_at_or_below_off_lets_anybody_stay_home():
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})
    assert codes(table(overrides={"must_play_at_or_below": None}, scores={BERT: 0}), deal) == []


def test_the_declarer_may_not_be_left_without_an_opponent():
    deal = played(stayed_home=[BERT, CILLI, DOMINIK], tricks={ANNA: 5})
    only(table(), deal, "no_opponent", ANNA)


def test_without_last_player_must_play_everybody_else_may_stay_home():
    deal = played(stayed_home=[BERT, CILLI, DOMINIK], tricks={ANNA: 5})
    t = table(overrides={"last_player_must_play": False})
    assert codes(t, deal) == []
    assert dict(score_deal(t, deal).deltas) == {ANNA: -5, BERT: 1, CILLI: 1, DOMINIK: 1}


def test_two_players_the_opponent_may_not_stay_home():
    t = table(players=(ANNA, BERT), dealer=BERT)
    deal = played(stayed_home=[BERT], tricks={ANNA: 5})
    assert codes(t, deal) == ["no_opponent"]


def test_no_stay_home_twice_forbids_staying_home_in_two_deals_in_a_row():
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})
    strict = table(overrides={"no_stay_home_twice": True}, previous_home=(BERT,))
    only(strict, deal, "stay_home_twice", BERT)
    assert codes(table(overrides={"no_stay_home_twice": True}, previous_home=(CILLI,)), deal) == []


def test_staying_home_twice_is_fine_by_default():
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})
    assert codes(table(previous_home=(BERT,)), deal) == []


# --- tricks ----------------------------------------------------------------------


def test_every_player_who_plays_needs_a_trick_count():
    deal = played(tricks={ANNA: 2, BERT: 2, CILLI: 1})
    only(table(), deal, "tricks_missing", DOMINIK)


def test_missing_counts_below_five_are_not_also_a_wrong_sum():
    deal = played(tricks={ANNA: 2, BERT: 1})
    assert codes(table(), deal) == ["tricks_missing", "tricks_missing"]


def test_missing_counts_above_five_are_also_a_wrong_sum():
    deal = played(tricks={ANNA: 3, BERT: 3})
    assert codes(table(), deal) == ["tricks_missing", "tricks_missing", "tricks_sum"]


def test_a_player_who_stayed_home_takes_no_tricks():
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, BERT: 1, CILLI: 1, DOMINIK: 1})
    found = check_deal(table(), deal)
    assert [(v.code, v.player) for v in found] == [("tricks_for_absent", BERT)]
    assert found[0].params == {"tricks": 1}


def test_a_zero_for_a_player_who_stayed_home_is_a_trick_count_for_the_absent():
    deal = played(stayed_home=[BERT], tricks={ANNA: 3, BERT: 0, CILLI: 1, DOMINIK: 1})
    found = check_deal(table(), deal)
    assert [(v.code, v.player) for v in found] == [("tricks_for_absent", BERT)]
    assert found[0].params == {"tricks": 0}


def test_a_missing_count_is_a_wrong_sum_only_once_the_given_counts_exceed_five():
    assert codes(table(), played(tricks={ANNA: 2, BERT: 1, CILLI: 2})) == ["tricks_missing"]
    assert codes(table(), played(tricks={ANNA: 2, BERT: 2, CILLI: 2})) == [
        "tricks_missing", "tricks_sum"]


def test_a_negative_trick_count_is_out_of_range():
    deal = played(tricks={ANNA: 3, BERT: -1, CILLI: 2, DOMINIK: 1})
    found = check_deal(table(), deal)
    assert [(v.code, v.player) for v in found] == [("tricks_out_of_range", BERT)]
    assert found[0].params == {"tricks": -1}


def test_more_than_five_tricks_is_out_of_range_and_a_wrong_sum():
    deal = played(tricks={ANNA: 0, BERT: 6, CILLI: 0, DOMINIK: 0})
    found = check_deal(table(), deal)
    assert [(v.code, v.player) for v in found] == [
        ("tricks_out_of_range", BERT),
        ("tricks_sum", None),
    ]


@pytest.mark.parametrize("cilli", [0, 2, 5])
def test_the_trick_counts_add_up_to_exactly_five(cilli):
    deal = played(tricks={ANNA: 2, BERT: 1, CILLI: cilli, DOMINIK: 1})
    found = check_deal(table(), deal)
    assert [v.code for v in found] == ["tricks_sum"]
    assert found[0].params == {"total": 4 + cilli, "expected": 5}


# --- exchange --------------------------------------------------------------------


def test_exchange_counts_are_optional():
    assert played().exchanged is None
    assert codes(table(), played(exchanged={ANNA: 3, BERT: 2, CILLI: 0})) == []


def test_nobody_exchanges_in_a_muli():
    deal = played(bid=5, tricks={ANNA: 5, BERT: 0, CILLI: 0, DOMINIK: 0},
                  exchanged={ANNA: 1, BERT: 2, CILLI: 0})
    found = check_deal(table(), deal)
    assert [(v.code, v.player) for v in found] == [
        ("exchange_forbidden_muli", ANNA),
        ("exchange_forbidden_muli", BERT),
    ]


def test_without_muli_no_exchange_a_muli_may_exchange():
    deal = played(bid=5, tricks={ANNA: 5, BERT: 0, CILLI: 0, DOMINIK: 0}, exchanged={ANNA: 1})
    assert codes(table(overrides={"muli_no_exchange": False}), deal) == []


@pytest.mark.parametrize(("score", "legal"), [(3, False), (0, False), (4, True)])
def test_a_player_at_or_below_three_may_not_exchange(score, legal):
    deal = played(exchanged={BERT: 1})
    found = check_deal(table(scores={BERT: score}), deal)
    assert [v.code for v in found] == ([] if legal else ["exchange_forbidden_low_score"])


def test_a_player_at_or_below_three_may_record_an_exchange_of_zero():
    assert codes(table(scores={BERT: 2}), played(exchanged={BERT: 0})) == []


def test_no_exchange_at_or_below_is_a_parameter():
    deal = played(exchanged={BERT: 1})
    assert codes(table(overrides={"no_exchange_at_or_below": None}, scores={BERT: 0}), deal) == []
    assert codes(table(overrides={"no_exchange_at_or_below": 10}, scores={BERT: 10}), deal) == [
        "exchange_forbidden_low_score"
    ]


def test_nobody_takes_more_than_max_exchange():
    t = table(overrides={"max_exchange": 3})
    found = check_deal(t, played(exchanged={ANNA: 3, BERT: 4}))
    assert [(v.code, v.player) for v in found] == [("exchange_too_many", BERT)]
    assert found[0].params == {"cards": 4, "max": 3}


MURLN_TRICKS = {
    3: {ANNA: 3, BERT: 1, CILLI: 1},
    4: {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1},
    5: {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1, ERNA: 0},
}


@pytest.mark.parametrize(("players", "legal"), [(3, True), (4, False), (5, False)])
def test_murln_allows_four_cards_with_three_players_but_not_with_four_or_five(players, legal):
    seats = SIX[:players]
    deal = played(tricks=MURLN_TRICKS[players], exchanged={ANNA: 4})
    t = table("murln", players=seats, dealer=seats[-1])
    assert codes(t, deal) == ([] if legal else ["exchange_too_many"])


def test_geiser_caps_an_opponents_exchange_by_the_declarers():
    deal = played(exchanged={ANNA: 2, BERT: 3, CILLI: 2})
    found = check_deal(table("geiser"), deal)
    assert [(v.code, v.player, v.params["max"]) for v in found] == [
        ("exchange_too_many", BERT, 2)
    ]


def test_salzburg_does_not_cap_an_opponents_exchange_by_the_declarers():
    deal = played(exchanged={ANNA: 2, BERT: 3, CILLI: 2})
    assert codes(table("salzburg"), deal) == []
    capped = table("salzburg", {"exchange_capped_by_declarer": True})
    assert codes(capped, deal) == ["exchange_too_many"]


def test_the_declarer_cap_applies_only_where_the_declarers_count_is_given():
    assert codes(table("geiser"), played(exchanged={BERT: 5})) == []


def test_all_cards_taken_must_fit_the_talon():
    # six players of a 36-card pack leave a talon of 6 cards
    t = table(players=SIX, dealer=FRANZ)
    tricks = {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1, ERNA: 0, FRANZ: 0}
    assert codes(t, played(tricks=tricks, exchanged={ANNA: 3, BERT: 3})) == []
    found = check_deal(t, played(tricks=tricks, exchanged={ANNA: 3, BERT: 3, CILLI: 1}))
    assert [v.code for v in found] == ["exchange_exceeds_talon"]
    assert found[0].params == {"cards": 7, "talon": 6}


def test_the_talon_follows_the_pack():
    five = SIX[:5]
    tricks = {ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1, ERNA: 0}
    deal = played(tricks=tricks, exchanged={ANNA: 3, BERT: 3, CILLI: 3, DOMINIK: 2})
    # german36: talon 11; german33 (murln): talon 8
    assert codes(table("salzburg", players=five, dealer=ERNA), deal) == []
    assert "exchange_exceeds_talon" in codes(table("murln", players=five, dealer=ERNA), deal)


# --- knock -----------------------------------------------------------------------


def test_a_knock_is_recorded_only_where_knocking_doubles():
    assert codes(table("salzburg"), played(knocked=True)) == []
    only(table("geiser"), played(knocked=True), "knock_not_allowed")
    only(table("murln"), played(knocked=True), "knock_not_allowed")
    assert codes(table("geiser", {"knock_doubles": True}), played(knocked=True)) == []
    assert codes(table("salzburg", {"knock_doubles": False}), played(knocked=True)) == [
        "knock_not_allowed"
    ]


# --- muli breaker ----------------------------------------------------------------

FAILED_MULI = {ANNA: 4, BERT: 1, CILLI: 0, DOMINIK: 0}
BREAKER = {"muli_fail_mode": "breaker"}


def test_a_failed_muli_in_breaker_mode_must_name_the_breaker():
    only(table(overrides=BREAKER), played(bid=5, tricks=FAILED_MULI), "muli_breaker_required")
    assert codes(table(overrides=BREAKER), played(bid=5, tricks=FAILED_MULI,
                                                  muli_breaker=BERT)) == []


@pytest.mark.parametrize("breaker", [ANNA, CILLI])
def test_the_breaker_is_an_opponent_who_took_a_trick(breaker):
    deal = played(bid=5, tricks=FAILED_MULI, muli_breaker=breaker)
    only(table(overrides=BREAKER), deal, "muli_breaker_required", breaker)


def test_the_breaker_must_have_played():
    t = table(overrides={**BREAKER, "muli_all_play": False})
    deal = played(bid=5, stayed_home=[CILLI], tricks={ANNA: 4, BERT: 1, DOMINIK: 0},
                  muli_breaker=CILLI)
    only(t, deal, "muli_breaker_required", CILLI)


def test_a_made_muli_needs_no_breaker():
    deal = played(bid=5, tricks={ANNA: 5, BERT: 0, CILLI: 0, DOMINIK: 0})
    assert codes(table(overrides=BREAKER), deal) == []


@pytest.mark.parametrize("mode", ["all", "trick_takers"])
def test_only_breaker_mode_needs_a_breaker(mode):
    deal = played(bid=5, tricks=FAILED_MULI)
    assert codes(table(overrides={"muli_fail_mode": mode}), deal) == []


# --- all at once -----------------------------------------------------------------


def test_every_violation_is_reported_at_once():
    t = table(
        "geiser",
        {"no_stay_home_twice": True, "no_bid_at_or_below": 5},
        scores={ANNA: 4, BERT: 9, CILLI: 2},
        previous_home=(BERT,),
    )
    deal = Deal.played(
        declarer=ANNA,
        bid=6,
        trump="hearts",
        stayed_home=[BERT, CILLI],
        tricks={ANNA: 7, BERT: 1, "Xaver": 0},
        knocked=True,
        exchanged={ANNA: 1, CILLI: 2},
    )
    found = check_deal(t, deal)
    assert [(v.code, v.player) for v in found] == [
        ("unknown_player", "Xaver"),
        ("bid_out_of_range", ANNA),
        ("bid_forbidden_low_score", ANNA),
        ("stay_home_forbidden_hearts", BERT),
        ("stay_home_forbidden_hearts", CILLI),
        ("stay_home_forbidden_low_score", CILLI),
        ("tricks_missing", DOMINIK),
        ("tricks_for_absent", BERT),
        ("tricks_out_of_range", ANNA),
        ("tricks_sum", None),
        ("exchange_forbidden_low_score", CILLI),
        ("exchange_too_many", CILLI),
        # the one change to old records (docs/rules.md, "Recording exchanges")
        ("exchange_by_absent", CILLI),
        ("knock_not_allowed", None),
        ("stay_home_twice", BERT),
    ]


def test_a_second_bundle_of_violations_is_reported_together():
    t = table(dealer="Xaver", scores={DOMINIK: 1})
    deal = Deal.played(
        declarer=ANNA, bid=5, trump="spades", stayed_home=[ANNA, DOMINIK],
        tricks={BERT: 3, CILLI: 2}, exchanged={BERT: 1, DOMINIK: 1},
    )
    assert codes(t, deal) == [
        "dealer_not_seated",
        "trump_invalid",
        "declarer_stayed_home",
        "stay_home_forbidden_muli",
        "stay_home_forbidden_low_score",
        "exchange_forbidden_muli",
        "exchange_forbidden_muli",
        "exchange_forbidden_low_score",
        "exchange_by_absent",
    ]


def test_an_illegal_deal_changes_no_score_and_score_deal_reports_the_same_violations():
    t = table(scores={ANNA: 10, BERT: 12})
    deal = played(tricks={ANNA: 2, BERT: 2, CILLI: 2, DOMINIK: 2})
    result = score_deal(t, deal)
    assert result.violations == check_deal(t, deal)
    assert not result.legal
    assert dict(result.scores_after) == dict(t.scores_before)
    assert dict(result.deltas) == {}
    assert result.game_over is False and result.winners == ()


# --- collapses and redeals ---------------------------------------------------------


def test_a_collapse_feeds_the_next_multiplier():
    rules = mulatschak_rules("salzburg")
    assert collapses_after(rules, DealKind.COLLAPSED, 0) == 1
    assert collapses_after(rules, DealKind.COLLAPSED, 2) == 3
    assert collapses_after(rules, DealKind.PLAYED, 3) == 0


def test_all_passed_redeal_neither_doubles_nor_forgets_earlier_collapses():
    rules = mulatschak_rules("salzburg")
    assert collapses_after(rules, DealKind.PASSED, 0) == 0
    assert collapses_after(rules, DealKind.PASSED, 2) == 2
    result = score_deal(table(collapses=1), Deal.passed())
    assert result.collapses_after == 1
    assert result.next_dealer == ANNA


def test_all_passed_redeal_double_doubles_the_next_played_deal():
    rules = mulatschak_rules("salzburg", {"all_pass": "redeal_double"})
    assert collapses_after(rules, DealKind.PASSED, 0) == 1
    assert collapses_after(rules, DealKind.PASSED, 2) == 3
    t = table(overrides={"all_pass": "redeal_double"})
    assert score_deal(t, Deal.passed()).collapses_after == 1


def test_collapsed_and_passed_deals_change_no_score():
    t = table(scores={ANNA: 7})
    for deal in (Deal.collapsed(), Deal.passed()):
        result = score_deal(t, deal)
        assert result.legal
        assert set(result.deltas.values()) == {0}
        assert dict(result.scores_after) == dict(t.scores_before)
        assert result.game_over is False
        assert result.multiplier == 1


def test_a_played_deal_uses_up_the_pending_collapses():
    assert score_deal(table(collapses=2), played()).collapses_after == 0


# --- worked examples (tests/examples/referee.json), checked at the referee level --

HGSR = ("Hans", "Grete", "Sepp", "Resi")


def test_example_salzburg_hearts_nobody_home():
    t = Table.of(mulatschak_rules("salzburg"), HGSR, "Resi")
    deal = Deal.played(declarer="Grete", bid=2, trump="hearts", stayed_home=["Sepp"],
                       tricks={"Hans": 1, "Grete": 3, "Resi": 1})
    assert codes(t, deal) == ["stay_home_forbidden_hearts"]


def test_example_salzburg_three_must_play():
    t = Table.of(mulatschak_rules("salzburg"), HGSR, "Resi",
                 {"Hans": 12, "Grete": 9, "Sepp": 3, "Resi": 14})
    deal = Deal.played(declarer="Grete", bid=2, trump="leaves", stayed_home=["Sepp"],
                       tricks={"Hans": 1, "Grete": 3, "Resi": 1})
    assert codes(t, deal) == ["stay_home_forbidden_low_score"]


def test_example_salzburg_low_score_may_not_bid():
    t = Table.of(mulatschak_rules("salzburg"), HGSR, "Resi",
                 {"Hans": 2, "Grete": 6, "Sepp": 8, "Resi": 9})
    deal = Deal.played(declarer="Hans", bid=2, trump="acorns",
                       tricks={"Hans": 2, "Grete": 1, "Sepp": 1, "Resi": 1})
    assert codes(t, deal) == ["bid_forbidden_low_score"]


def test_example_several_violations():
    t = Table.of(mulatschak_rules("salzburg"), HGSR, "Resi")
    deal = Deal.played(declarer="Hans", bid=2, trump="hearts", stayed_home=["Sepp"],
                       tricks={"Hans": 2, "Grete": 2, "Resi": 2})
    assert codes(t, deal) == ["stay_home_forbidden_hearts", "tricks_sum"]


def test_players_min_and_players_max_are_parameters():
    two = table(overrides={"players_min": 3}, players=(ANNA, BERT), dealer=BERT)
    assert codes(two, Deal.collapsed()) == ["players_count"]
    four = table(overrides={"players_max": 3})
    assert codes(four, Deal.collapsed()) == ["players_count"]


def test_weli_prevents_whiteout_does_not_change_how_a_recorded_collapse_counts():
    # Whether a hand is a whiteout is decided from the cards (referee.hand); a deal record
    # only says that the deal collapsed, and that counts the same under either setting.
    rules = mulatschak_rules("salzburg", {"weli_prevents_whiteout": True})
    assert rules.weli_prevents_whiteout is True
    t = Table.of(rules, FOUR, DOMINIK)
    assert score_deal(t, Deal.collapsed()).collapses_after == 1


# --- one deal for every code of the rules table -------------------------------------

MULI_ALL_ZERO = {ANNA: 5, BERT: 0, CILLI: 0, DOMINIK: 0}
TRIGGERS: dict[str, tuple[Table, Deal]] = {
    "unknown_player": (table(), played(declarer="Xaver")),
    "dealer_not_seated": (table(dealer="Xaver"), played()),
    "bid_out_of_range": (table(), played(bid=6)),
    "bid_forbidden_low_score": (table(scores={ANNA: 5}), played()),
    "trump_invalid": (table(), played(trump="clubs")),
    "declarer_stayed_home": (table(), played(stayed_home=[ANNA],
                                             tricks={BERT: 2, CILLI: 2, DOMINIK: 1})),
    "stay_home_forbidden_hearts": (table(), played(trump="hearts", stayed_home=[BERT],
                                                   tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})),
    "stay_home_forbidden_muli": (table(), played(bid=5, stayed_home=[BERT],
                                                 tricks={ANNA: 5, CILLI: 0, DOMINIK: 0})),
    "stay_home_forbidden_low_score": (table(scores={BERT: 3}), played(
        stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})),
    "no_opponent": (table(), played(stayed_home=[BERT, CILLI, DOMINIK], tricks={ANNA: 5})),
    "tricks_missing": (table(), played(tricks={ANNA: 2, BERT: 2, CILLI: 1})),
    "tricks_for_absent": (table(), played(stayed_home=[BERT],
                                          tricks={ANNA: 3, BERT: 1, CILLI: 1, DOMINIK: 1})),
    "tricks_out_of_range": (table(), played(tricks={ANNA: 3, BERT: -1, CILLI: 2, DOMINIK: 1})),
    "tricks_sum": (table(), played(tricks={ANNA: 2, BERT: 2, CILLI: 2, DOMINIK: 2})),
    "exchange_forbidden_muli": (table(), played(bid=5, tricks=MULI_ALL_ZERO,
                                                exchanged={BERT: 1})),
    "exchange_forbidden_low_score": (table(scores={BERT: 3}), played(exchanged={BERT: 1})),
    "exchange_too_many": (table("geiser"), played(exchanged={ANNA: 1, BERT: 2})),
    "exchange_exceeds_talon": (
        table(players=SIX, dealer=FRANZ),
        played(tricks={ANNA: 2, BERT: 1, CILLI: 1, DOMINIK: 1, ERNA: 0, FRANZ: 0},
               exchanged={ANNA: 5, BERT: 2}),
    ),
    "exchange_recorded_twice": (table(), played(exchanged={BERT: 1},
                                               exchanges={BERT: Exchange.on_sight()})),
    "exchange_by_absent": (table(), played(stayed_home=[BERT], exchanged={BERT: 1},
                                          tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})),
    "exchange_form_not_allowed": (table("geiser"), played(exchanges={BERT: Exchange.ace_five()})),
    "seven_six_not_bells": (table(), played(exchanges={BERT: Exchange.seven_six()})),
    "face_up_chain_invalid": (table(), played(exchanges={BERT: Exchange.bridge(face_up=0)})),
    "delayed_trump_without_bridge": (table(overrides={"delayed_trump": True}),
                                     played(trump_delayed=True)),
    "player_sitting_out": (table("murln", {"sit_out_at": 4}),
                           played(tricks={ANNA: 2, BERT: 2, CILLI: 1, DOMINIK: 0})),
    "knock_not_allowed": (table("geiser"), played(knocked=True)),
    "stay_home_twice": (
        table(overrides={"no_stay_home_twice": True}, previous_home=(BERT,)),
        played(stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1}),
    ),
    "muli_breaker_required": (
        table(overrides={"muli_fail_mode": "breaker"}),
        played(bid=5, tricks={ANNA: 4, BERT: 1, CILLI: 0, DOMINIK: 0}),
    ),
    "score_out_of_range": (table(scores={BERT: 2**53 - 1}), played(
        stayed_home=[BERT], tricks={ANNA: 3, CILLI: 1, DOMINIK: 1})),
}


def test_every_code_of_the_rules_table_has_a_triggering_deal():
    assert set(TRIGGERS) == set(CODE_ORDER) - {"players_count"}


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_triggering_deal_reports_exactly_its_code_and_changes_no_score(code):
    t, deal = TRIGGERS[code]
    result = score_deal(t, deal)
    assert [v.code for v in result.violations] == [code]
    assert dict(result.scores_after) == {p: t.scores_before[p] for p in t.players}


def test_the_codes_are_those_of_the_rules_document_in_its_order():
    # docs/rules.md, "Deal codes", lists the codes of a recorded deal in the order the
    # referee reports them, the table problem first.
    assert first_column_codes("mulatschak-deal-codes") == list(CODE_ORDER)


def test_per_player_violations_come_in_seat_order_whatever_the_record_order():
    from referee.deal import Deal, Table, check_deal
    from referee.rules import mulatschak_rules

    rules = mulatschak_rules("salzburg")
    table = Table.of(rules, ["Anna", "Bert", "Cilli", "Dominik"], "Dominik")
    deal = Deal.played(declarer="Anna", bid=2, trump="acorns",
                       tricks={"Dominik": 9, "Anna": 7, "Bert": 0, "Cilli": 0})
    codes = [(v.code, v.player) for v in check_deal(table, deal) if v.player]
    assert codes == [("tricks_out_of_range", "Anna"), ("tricks_out_of_range", "Dominik")]


@pytest.mark.parametrize(("data", "field"), [
    ({"kind": "won"}, "kind"),
    ({}, "kind"),
    ({"kind": "passed", "knocked": "yes"}, "knocked"),
    ({"kind": "played", "bid": 2, "trump": "acorns"}, "declarer"),
    ({"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns"}, "bid"),
    ({"kind": "played", "declarer": "Anna", "bid": True, "trump": "acorns"}, "bid"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": 3}, "trump"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
      "tricks": {"Anna": "two"}}, "tricks.Anna"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
      "tricks": [2, 1]}, "tricks"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
      "stayed_home": "Cilli"}, "stayed_home"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
      "stayed_home": [None]}, "stayed_home.0"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
      "exchanged": {"Anna": 1.5}}, "exchanged.Anna"),
    ({"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
      "muli_breaker": 7}, "muli_breaker"),
])
def test_a_deal_the_referee_cannot_read_is_a_rule_error_naming_the_field(data, field):
    with pytest.raises(RuleError) as e:
        deal_from_dict(data)
    assert e.value.field == field


def test_a_deal_read_back_from_its_dict_is_the_same_deal():
    deal = Deal.played(declarer="Anna", bid=3, trump="hearts", tricks={"Anna": 3, "Bert": 2},
                       stayed_home=["Cilli"], knocked=True, exchanged={"Anna": 2},
                       muli_breaker=None)
    assert deal_from_dict(deal_to_dict(deal)) == deal
