from __future__ import annotations

from django.utils import translation

from scorepad.cardnames import card_name, pack_choices


def test_it_names_a_hungarian_card_in_english():
    with translation.override("en"):
        assert card_name("hearts-ober", "hungarian32") == "Hearts Ober"


def test_it_keeps_number_ranks_and_unknown_codes():
    with translation.override("en"):
        assert card_name("acorns-10", "hungarian32") == "Acorns 10"
        assert card_name("hearts-queen", "hungarian32") == "hearts-queen"
        assert card_name("foo", "french52") == "foo"


def test_it_lists_a_pack_by_suit_high_to_low():
    with translation.override("en"):
        choices = pack_choices("hungarian32")
    assert [suit for suit, _, _ in choices] == ["hearts", "bells", "leaves", "acorns"]
    first = choices[0][2]
    assert [code for code, _ in first][:3] == ["hearts-10", "hearts-9", "hearts-ace"]
    assert sum(len(cards) for _, _, cards in choices) == 32


def test_the_german_pack_names_the_sau_as_ace_and_lists_33_cards_in_murln():
    assert card_name("hearts-sau", "german36") == card_name("hearts-ace", "german36")
    assert sum(len(cards) for _, _, cards in pack_choices("german33")) == 33
