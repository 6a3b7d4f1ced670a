"""Müller Matz (docs/rules.md, "Mueller Matz"): beating, swapping, sleeping and a game's result."""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import pytest

from referee.cards import FRENCH52, FRENCH_SUITS, Card
from referee.muller_matz import (
    MULLER_MATZ_RULES,
    REASONS_EN,
    MullerMatzRules,
    beats,
    can_swap_lowest_trump,
    check_beat,
    check_result,
    lowest_trump_card,
    may_go_to_sleep,
    muller_matz_rules,
    packs_for,
    sleep_group,
)
from referee.violations import RuleError, Violation
from tests.conftest import EXAMPLES

SEATS = ("Anna", "Bert", "Cilli", "Dominik")


def card(code: str) -> Card:
    return FRENCH52.parse(code)


def muller_matz_examples() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    return [entry for entry in entries if entry["name"].startswith("muller-matz-")]


# ---------------------------------------------------------------------------------------
# Rules and packs


def test_the_default_rules_are_data() -> None:
    assert MULLER_MATZ_RULES.as_params() == {
        "pack": "french52",
        "players_min": 2,
        "players_max": 10,
        "two_packs_from": 5,
        "lowest_trump": "2",
        "sleep_trumps": 3,
        "hand_size": 3,
    }


def test_overrides_change_only_the_named_parameters() -> None:
    assert muller_matz_rules({"lowest_trump": "6", "players_max": 8}) == MullerMatzRules(
        lowest_trump="6", players_max=8
    )


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"trump": "hearts"}, "overrides.trump", "unknown_parameter"),
        ({"players_max": True}, "overrides.players_max", "not_int"),
        ({"players_min": 1}, "overrides.players_min", "too_small"),
        ({"players_min": 6, "players_max": 5}, "overrides.players_min", "min_over_max"),
        ({"players_max": 50}, "overrides.players_max", "too_large"),
        ({"sleep_trumps": 0}, "overrides.sleep_trumps", "too_small"),
        ({"lowest_trump": "1"}, "overrides.lowest_trump", "not_choice"),
        ({"lowest_trump": 2}, "overrides.lowest_trump", "not_string"),
        ({"pack": "german36"}, "overrides.pack", "not_choice"),
    ],
)
def test_a_bad_override_is_a_rule_error_naming_it(
    overrides: dict[str, object], field: str, code: str
) -> None:
    with pytest.raises(RuleError) as caught:
        muller_matz_rules(overrides)
    assert (caught.value.field, caught.value.code) == (field, code)


@pytest.mark.parametrize(("players", "packs"), [(2, 1), (3, 1), (4, 1), (5, 2), (6, 2), (10, 2)])
def test_two_to_four_players_use_one_pack_five_or_more_two(players: int, packs: int) -> None:
    assert packs_for(players) == packs


@pytest.mark.parametrize(
    ("players", "code"),
    [(1, "too_small"), (0, "too_small"), (11, "too_large"), (True, "not_int"), (4.0, "not_int")],
)
def test_a_player_count_outside_the_rules_is_a_rule_error(players: object, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        packs_for(players)  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.code) == ("players", code)


def test_two_packs_from_is_a_parameter() -> None:
    assert packs_for(4, MullerMatzRules(two_packs_from=4)) == 2


# ---------------------------------------------------------------------------------------
# Beating


@pytest.mark.parametrize("entry", muller_matz_examples(), ids=lambda entry: entry["name"])
def test_the_worked_examples_are_reproduced(entry: dict[str, Any]) -> None:
    request = entry["request"]
    result = check_beat(request["attack"], request["defense"], request["trump"], request["life"])
    assert result.legal is entry["response"]["legal"]


def test_there_are_worked_examples_for_muller_matz() -> None:
    assert len(muller_matz_examples()) >= 3


@pytest.mark.parametrize(
    ("attack", "defense", "legal", "reason"),
    [
        ("clubs-10", "clubs-queen", True, "higher_same_suit"),
        ("clubs-10", "clubs-ace", True, "higher_same_suit"),
        ("clubs-10", "clubs-9", False, "not_higher"),
        ("clubs-10", "diamonds-2", True, "trump_beats_non_trump"),
        ("clubs-ace", "diamonds-2", True, "trump_beats_non_trump"),
        ("diamonds-8", "diamonds-10", True, "higher_trump"),
        ("diamonds-10", "diamonds-8", False, "not_higher"),
        ("diamonds-2", "clubs-ace", False, "trump_only_beaten_by_higher_trump"),
        ("clubs-10", "hearts-ace", False, "different_suit_not_trump"),
        ("clubs-10", "clubs-10", False, "same_card"),
        ("diamonds-ace", "diamonds-ace", False, "same_card"),
    ],
)
@pytest.mark.parametrize("life", [1, 2])
def test_a_card_beats_by_a_higher_card_of_its_suit_or_a_trump(
    attack: str, defense: str, legal: bool, reason: str, life: int
) -> None:
    result = beats(card(attack), card(defense), "diamonds", life)
    assert (result.legal, result.reason) == (legal, reason)
    assert (result.trump, result.life) == ("diamonds", life)


def test_the_ace_is_the_highest_and_the_two_the_lowest_card() -> None:
    assert beats(card("spades-king"), card("spades-ace"), "hearts", 1).legal
    assert not beats(card("spades-3"), card("spades-2"), "hearts", 1).legal
    assert beats(card("spades-10"), card("spades-jack"), "hearts", 1).legal


def test_both_lives_share_one_beat_relation_for_every_pair_of_cards() -> None:
    for attack, defense, trump in product(FRENCH52.cards, FRENCH52.cards, FRENCH_SUITS):
        first = beats(attack, defense, trump, 1)
        second = beats(attack, defense, trump, 2)
        assert (first.legal, first.reason) == (second.legal, second.reason)


def test_the_beat_relation_is_a_higher_card_of_the_suit_or_a_trump_on_a_non_trump() -> None:
    for attack, defense, trump in product(FRENCH52.cards, FRENCH52.cards, FRENCH_SUITS):
        higher = FRENCH52.rank_index(defense.rank) < FRENCH52.rank_index(attack.rank)
        expected = (defense.suit == attack.suit and higher) or (
            defense.suit == trump and attack.suit != trump
        )
        assert beats(attack, defense, trump, 1).legal is expected, (attack, defense, trump)


def test_two_cards_never_beat_each_other() -> None:
    for attack, defense, trump in product(FRENCH52.cards, FRENCH52.cards, FRENCH_SUITS):
        assert not (
            beats(attack, defense, trump, 1).legal and beats(defense, attack, trump, 1).legal
        )


def test_every_reason_has_an_english_sentence() -> None:
    reasons = {
        beats(attack, defense, trump, 1).reason
        for attack, defense, trump in product(FRENCH52.cards, FRENCH52.cards, ("hearts",))
    }
    assert reasons == set(REASONS_EN)
    assert beats(card("clubs-2"), card("clubs-3"), "hearts", 1).reason_en == (
        "A higher card of the same suit beats it."
    )


@pytest.mark.parametrize(
    ("trump", "life", "field"),
    [
        ("bells", 1, "trump"),
        ("Hearts", 1, "trump"),
        (None, 1, "trump"),
        ("hearts", 3, "life"),
        ("hearts", 0, "life"),
        ("hearts", True, "life"),
        ("hearts", "1", "life"),
        ("hearts", 1.0, "life"),
    ],
)
def test_a_bad_trump_or_life_is_a_rule_error_naming_it(
    trump: object, life: object, field: str
) -> None:
    with pytest.raises(RuleError) as caught:
        beats(card("clubs-2"), card("clubs-3"), trump, life)  # type: ignore[arg-type]
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("attack", "defense", "field", "code"),
    [
        ("clubs-11", "clubs-3", "attack", "bad_card"),
        ("clubs-2", "foo", "defense", "bad_card"),
        ("bells-7", "clubs-3", "attack", "card_not_in_pack"),
        ("clubs-2", "hearts-ober", "defense", "card_not_in_pack"),
        (7, "clubs-3", "attack", "bad_card"),
    ],
)
def test_a_code_that_is_no_french_card_is_a_rule_error_naming_it(
    attack: object, defense: object, field: str, code: str
) -> None:
    with pytest.raises(RuleError) as caught:
        check_beat(attack, defense, "hearts", 1)
    assert (caught.value.field, caught.value.code) == (field, code)


def test_a_card_of_another_pack_cannot_be_beaten() -> None:
    with pytest.raises(RuleError) as caught:
        beats(Card("bells", "7"), card("clubs-3"), "hearts", 1)
    assert caught.value.field == "attack"


# ---------------------------------------------------------------------------------------
# Swapping the turned-up trump


def test_the_lowest_trump_is_the_two_of_the_trump_suit() -> None:
    assert lowest_trump_card("spades") == Card("spades", "2")
    assert lowest_trump_card("spades", MullerMatzRules(lowest_trump="6")) == Card("spades", "6")


def test_a_hand_with_the_lowest_trump_may_swap_it_for_the_turned_up_card() -> None:
    hand = [card("spades-2"), card("hearts-9"), card("clubs-ace")]
    assert can_swap_lowest_trump(hand, "spades", turned_up=card("spades-queen"))


def test_a_hand_without_the_lowest_trump_may_not_swap() -> None:
    hand = [card("spades-3"), card("hearts-2"), card("clubs-ace")]
    assert not can_swap_lowest_trump(hand, "spades")


def test_there_is_nothing_to_swap_when_the_lowest_trump_is_turned_up() -> None:
    hand = [card("spades-2"), card("hearts-9")]  # two packs: the other spades-2
    assert not can_swap_lowest_trump(hand, "spades", turned_up=card("spades-2"))


def test_a_house_rule_may_make_the_six_the_lowest_trump() -> None:
    rules = MullerMatzRules(lowest_trump="6")
    assert can_swap_lowest_trump([card("hearts-6")], "hearts", rules)
    assert not can_swap_lowest_trump([card("hearts-2")], "hearts", rules)


def test_a_hand_with_a_card_of_another_pack_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as caught:
        can_swap_lowest_trump([card("hearts-2"), Card("bells", "7")], "hearts")
    assert caught.value.field == "hand.1"


# ---------------------------------------------------------------------------------------
# Going to sleep


TRUMPS3 = [card("hearts-2"), card("hearts-9"), card("hearts-king")]


def test_three_trumps_in_hand_may_go_to_sleep() -> None:
    assert may_go_to_sleep(TRUMPS3, "hearts", stock_empty=False)
    assert sleep_group(TRUMPS3, "hearts", stock_empty=False) == 3


def test_three_trumps_among_more_cards_may_go_to_sleep() -> None:
    hand = [*TRUMPS3, card("clubs-4")]
    assert sleep_group(hand, "hearts", stock_empty=False) == 3


def test_two_trumps_may_not_sleep_while_the_stock_lasts() -> None:
    assert not may_go_to_sleep(TRUMPS3[:2] + [card("clubs-4")], "hearts", stock_empty=False)


def test_four_trumps_sleep_three_of_them() -> None:
    assert sleep_group([*TRUMPS3, card("hearts-ace")], "hearts", stock_empty=False) == 3


@pytest.mark.parametrize(("trumps", "group"), [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3)])
def test_once_the_stock_is_empty_one_or_two_trumps_may_sleep(trumps: int, group: int) -> None:
    hand = [Card("hearts", rank) for rank in ("2", "3", "4", "5")[:trumps]] + [card("clubs-4")]
    assert sleep_group(hand, "hearts", stock_empty=True) == group
    assert may_go_to_sleep(hand, "hearts", stock_empty=True) is (group > 0)


def test_sleep_trumps_is_a_parameter() -> None:
    rules = MullerMatzRules(sleep_trumps=2)
    assert sleep_group(TRUMPS3[:2], "hearts", False, rules) == 2


def test_stock_empty_must_be_true_or_false() -> None:
    with pytest.raises(RuleError) as caught:
        may_go_to_sleep(TRUMPS3, "hearts", 1)  # type: ignore[arg-type]
    assert caught.value.field == "stock_empty"


# ---------------------------------------------------------------------------------------
# A game's result


def test_a_full_finishing_order_names_the_winner_first_and_the_loser_last() -> None:
    result = check_result(SEATS, finish_order=["Cilli", "Anna", "Dominik", "Bert"])
    assert result.legal
    assert (result.winner, result.loser) == ("Cilli", "Bert")
    assert result.order == ("Cilli", "Anna", "Dominik", "Bert")


def test_the_loser_alone_is_enough() -> None:
    result = check_result(SEATS, loser="Dominik")
    assert result.legal
    assert (result.loser, result.order, result.winner) == ("Dominik", (), None)


def test_a_loser_not_seated_is_an_unknown_player() -> None:
    result = check_result(SEATS, loser="Zenzi")
    assert result.violations == (Violation.of("unknown_player", "Zenzi", field="loser"),)


def test_a_finishing_order_names_every_seated_player_exactly_once() -> None:
    result = check_result(SEATS, finish_order=["Anna", "Zenzi", "Anna", "Cilli"])
    assert result.violations == (
        Violation.of("player_listed_twice", "Anna", field="finish_order"),
        Violation.of("unknown_player", "Zenzi", field="finish_order"),
        Violation.of("player_missing", "Bert", field="finish_order"),
        Violation.of("player_missing", "Dominik", field="finish_order"),
    )
    assert result.loser == "Cilli"


def test_a_loser_given_with_an_order_must_be_last() -> None:
    result = check_result(SEATS, finish_order=["Anna", "Bert", "Cilli", "Dominik"], loser="Anna")
    assert result.violations == (Violation.of("loser_not_last", "Anna", last="Dominik"),)


def test_a_table_needs_two_to_ten_players() -> None:
    result = check_result(["Anna"], loser="Anna")
    assert result.violations == (Violation.of("players_count", actual=1, min=2, max=10),)


def test_a_result_needs_an_order_or_a_loser() -> None:
    with pytest.raises(RuleError) as caught:
        check_result(SEATS)
    assert (caught.value.field, caught.value.code) == ("finish_order", "missing")


@pytest.mark.parametrize(
    ("players", "order", "loser", "field"),
    [
        (["Anna", "Anna"], None, "Anna", "players"),
        ("Anna", None, "Anna", "players"),
        (SEATS, "Anna", None, "finish_order"),
        (SEATS, [1, 2], None, "finish_order.0"),
        (SEATS, None, 3, "loser"),
        (SEATS, None, "", "loser"),
    ],
)
def test_a_result_of_the_wrong_shape_is_a_rule_error(
    players: object, order: object, loser: object, field: str
) -> None:
    with pytest.raises(RuleError) as caught:
        check_result(players, order, loser)  # type: ignore[arg-type]
    assert caught.value.field == field
