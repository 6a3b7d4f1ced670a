"""Whiteouts (docs/rules.md, "A deal in order", step 3, and weli_prevents_whiteout)."""

from __future__ import annotations

from referee.cards import GERMAN36
from referee.hand import deal_collapses, is_whiteout
from referee.rules import mulatschak_rules

SALZBURG = mulatschak_rules("salzburg")
WELI_SAVES = mulatschak_rules("salzburg", {"weli_prevents_whiteout": True})


def hand(*codes: str):
    return [GERMAN36.parse(c) for c in codes]


def test_a_hand_of_tens_and_lower_is_a_whiteout():
    assert is_whiteout(hand("acorns-10", "leaves-9", "hearts-8", "bells-7", "acorns-6"), SALZBURG)


def test_an_unter_saves_a_hand():
    assert not is_whiteout(hand("acorns-unter", "leaves-9", "hearts-8", "bells-7", "acorns-6"),
                           SALZBURG)


def test_the_weli_does_not_save_a_hand_by_default():
    assert is_whiteout(hand("bells-6", "leaves-9", "hearts-8", "bells-7", "acorns-6"), SALZBURG)


def test_the_weli_saves_a_hand_when_the_house_rule_says_so():
    assert not is_whiteout(hand("bells-6", "leaves-9", "hearts-8", "bells-7", "acorns-6"),
                           WELI_SAVES)


def test_one_whiteout_collapses_the_deal():
    hands = {
        "Anna": hand("acorns-ace", "leaves-9", "hearts-8", "bells-7", "acorns-6"),
        "Bert": hand("acorns-10", "leaves-10", "hearts-9", "bells-8", "leaves-6"),
    }
    assert deal_collapses(hands, SALZBURG)
    hands["Bert"][0] = GERMAN36.parse("acorns-king")
    assert not deal_collapses(hands, SALZBURG)
