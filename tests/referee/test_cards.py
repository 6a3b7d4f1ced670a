"""Cards and card codes (docs/rules.md, "Cards")."""

from __future__ import annotations

import pytest

from referee.cards import (
    FRENCH52,
    GERMAN33,
    GERMAN36,
    HUNGARIAN32,
    PACKS,
    WELI,
    Card,
    CardNotInPack,
    CardSyntaxError,
    split_code,
)

GERMAN_SUITS = {"acorns", "leaves", "hearts", "bells"}
GERMAN_ORDER = ["ace", "king", "ober", "unter", "10", "9", "8", "7", "6"]


def test_a_card_is_written_suit_dash_rank():
    assert Card("hearts", "ober").code == "hearts-ober"
    assert str(Card("bells", "6")) == "bells-6"


def test_every_card_code_round_trips_through_parse_in_every_pack():
    for pack in PACKS.values():
        for card in pack.cards:
            assert pack.parse(card.code) == card


def test_german36_has_four_suits_of_nine_ranks_high_to_low():
    assert len(GERMAN36) == 36
    assert len(GERMAN36.cards) == 36
    assert set(GERMAN36.suits) == GERMAN_SUITS
    assert list(GERMAN36.ranks) == GERMAN_ORDER
    assert GERMAN36.rank_index("ace") == 0
    assert GERMAN36.rank_index("6") == 8


def test_german33_drops_every_six_but_the_weli():
    assert len(GERMAN33) == 33
    assert len(GERMAN33.cards) == 33
    sixes = [c for c in GERMAN33.cards if c.rank == "6"]
    assert sixes == [WELI]
    for suit in ("acorns", "leaves", "hearts"):
        with pytest.raises(CardNotInPack) as caught:
            GERMAN33.parse(f"{suit}-6")
        assert caught.value.pack == "german33"
        assert caught.value.text == f"{suit}-6"
    assert GERMAN33.parse("bells-6") == WELI


def test_german33_keeps_the_german_rank_order():
    assert list(GERMAN33.ranks) == GERMAN_ORDER


def test_the_weli_is_the_six_of_bells():
    assert Card("bells", "6") == WELI
    assert WELI in GERMAN36
    assert WELI in GERMAN33


def test_sau_is_an_alias_of_ace_in_german_packs():
    assert GERMAN36.parse("hearts-sau") == Card("hearts", "ace")
    assert GERMAN33.parse("bells-sau") == Card("bells", "ace")
    assert HUNGARIAN32.parse("acorns-sau") == Card("acorns", "ace")


def test_sau_is_not_a_french_card():
    with pytest.raises(CardNotInPack):
        FRENCH52.parse("hearts-sau")


def test_hungarian32_ranks_in_mura_order():
    assert len(HUNGARIAN32) == 32
    assert list(HUNGARIAN32.ranks) == ["10", "9", "ace", "king", "ober", "unter", "8", "7"]
    assert set(HUNGARIAN32.suits) == GERMAN_SUITS
    with pytest.raises(CardNotInPack):
        HUNGARIAN32.parse("hearts-6")


def test_french52_has_four_suits_of_thirteen_ranks():
    assert len(FRENCH52) == 52
    assert set(FRENCH52.suits) == {"clubs", "diamonds", "hearts", "spades"}
    assert FRENCH52.ranks[:4] == ("ace", "king", "queen", "jack")
    assert FRENCH52.ranks[-1] == "2"
    assert FRENCH52.parse("spades-queen") == Card("spades", "queen")


@pytest.mark.parametrize(
    ("pack", "code"),
    [
        (GERMAN36, "clubs-ace"),
        (GERMAN36, "hearts-queen"),
        (GERMAN36, "hearts-2"),
        (GERMAN33, "leaves-6"),
        (FRENCH52, "acorns-ace"),
        (FRENCH52, "hearts-ober"),
    ],
)
def test_a_real_card_of_another_pack_is_card_not_in_pack(pack, code):
    with pytest.raises(CardNotInPack) as caught:
        pack.parse(code)
    assert caught.value.pack == pack.name
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "text", ["foo", "hearts", "hearts-", "-ace", "hearts-11", "stars-ace", "heartsace", "", None, 7]
)
def test_text_that_is_no_card_code_is_a_syntax_error(text):
    with pytest.raises(CardSyntaxError) as caught:
        GERMAN36.parse(text)
    assert caught.value.text == text
    with pytest.raises(CardSyntaxError):
        split_code(text)


def test_a_syntax_error_is_not_mistaken_for_card_not_in_pack():
    with pytest.raises(CardSyntaxError) as caught:
        GERMAN36.parse("hearts-11")
    assert not isinstance(caught.value, CardNotInPack)


def test_card_codes_are_read_case_and_space_insensitively():
    # docs/rules.md, "Card codes", writes codes in lowercase; the engine is lenient on input.
    assert GERMAN36.parse(" Hearts-Ober ") == Card("hearts", "ober")


def test_pack_membership_needs_a_card_of_its_suits_and_ranks():
    assert Card("hearts", "ober") in GERMAN36
    assert Card("hearts", "queen") not in GERMAN36
    assert "hearts-ober" not in GERMAN36


def test_packs_are_registered_by_name():
    assert set(PACKS) == {"german36", "german33", "hungarian32", "french52"}
    for name, pack in PACKS.items():
        assert pack.name == name
        assert len(set(pack.cards)) == len(pack)
