"""One Mulatschak trick: the winner and the legality of each play (docs/rules.md, "Tricks")."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from referee.cards import GERMAN36, WELI, Card
from referee.rules import mulatschak_rules
from referee.trick import Play, TrickResult, check_trick, effective_suit, trick_winner
from referee.violations import RuleError

ANNA, BERT, CILLI, DOMINIK = "Anna", "Bert", "Cilli", "Dominik"
SEATS = (ANNA, BERT, CILLI, DOMINIK)
SUITS = ("acorns", "leaves", "hearts", "bells")


def trick(
    trump: str,
    *plays: str | tuple[str, list[str]],
    preset: str = "salzburg",
    overrides: dict[str, Any] | None = None,
) -> TrickResult:
    """Anna leads, then Bert, Cilli, Dominik; a play is a card or (card, hand before it)."""
    built = []
    for player, play in zip(SEATS, plays, strict=False):
        if isinstance(play, tuple):
            built.append(Play(player, play[0], tuple(play[1])))
        else:
            built.append(Play(player, play))
    return check_trick(mulatschak_rules(preset, overrides), trump, built)


def codes(result: TrickResult) -> list[tuple[str, str | None]]:
    return [(v.code, v.player) for v in result.violations]


def card(code: str) -> Card:
    return GERMAN36.parse(code)


def trump_order(trump: str) -> list[Card]:
    """docs/rules.md, "Trump order": trump ace, Weli, trump king, ober, unter, 10, 9, 8, 7, 6."""
    ranks = ["king", "ober", "unter", "10", "9", "8", "7", "6"]
    order = [Card(trump, "ace"), WELI] + [Card(trump, r) for r in ranks]
    return [c for i, c in enumerate(order) if c not in order[:i]]  # bells: the Weli once


def beats(high: Card, low: Card, trump: str) -> bool:
    """Whether ``high`` wins a two-card trick against ``low``, whichever leads."""
    return (
        trick_winner([high, low], trump, GERMAN36) == 0
        and trick_winner([low, high], trump, GERMAN36) == 1
    )


# --- winning a trick -----------------------------------------------------------------


@pytest.mark.parametrize("trump", SUITS)
def test_the_trump_order_is_ace_weli_king_ober_unter_ten_down_to_six(trump):
    order = trump_order(trump)
    assert len(order) == (9 if trump == "bells" else 10)  # nine of the suit (+ the Weli)
    for i, j in combinations(range(len(order)), 2):
        assert beats(order[i], order[j], trump), (order[i], order[j])


@pytest.mark.parametrize("trump", SUITS)
def test_any_trump_beats_any_card_of_another_suit(trump):
    lowest_trump = Card(trump, "6") if trump != "bells" else Card("bells", "7")
    for other in GERMAN36.cards:
        if effective_suit(other, trump) != trump:
            assert beats(lowest_trump, other, trump)


def test_without_a_trump_the_highest_card_of_the_suit_led_wins():
    result = trick("acorns", "bells-9", "bells-king", "leaves-ace", "bells-7")
    assert (result.winner, result.winning_card) == (BERT, card("bells-king"))


def test_a_card_of_a_third_suit_never_wins_however_high():
    result = trick("acorns", "bells-7", "leaves-ace", "hearts-ace")
    assert (result.winner, result.winning_card) == (ANNA, card("bells-7"))


def test_the_highest_trump_wins():
    result = trick("leaves", "bells-ace", "leaves-7", "leaves-unter", "bells-king")
    assert result.winner == CILLI


def test_the_weli_is_the_second_highest_trump_whatever_the_trump():
    for trump in ("acorns", "leaves", "hearts"):
        assert beats(WELI, Card(trump, "king"), trump)
        assert beats(Card(trump, "ace"), WELI, trump)


def test_the_suit_of_the_weli_is_the_trump_suit():
    assert effective_suit(WELI, "hearts") == "hearts"
    assert effective_suit(WELI, "bells") == "bells"
    assert effective_suit(card("bells-7"), "hearts") == "bells"


def test_a_weli_lead_is_a_trump_lead():
    result = trick("acorns", "bells-6", "bells-ace", "acorns-king")
    assert (result.winner, result.winning_card) == (ANNA, WELI)


def test_the_weli_loses_to_the_trump_ace():
    result = trick("hearts", "bells-6", "hearts-ace")
    assert result.winner == BERT


def test_the_sau_alias_plays_the_ace():
    result = trick("leaves", "leaves-king", "leaves-sau")
    assert result.legal
    assert (result.winner, result.winning_card) == (BERT, Card("leaves", "ace"))


def test_a_lone_lead_wins_its_trick():
    assert trick("hearts", "acorns-7").winner == ANNA


def test_two_players_play_a_trick():
    result = trick("hearts", ("bells-9", ["bells-9", "hearts-7"]), ("bells-ober", ["bells-ober"]))
    assert result.legal
    assert result.winner == BERT


# --- following suit ----------------------------------------------------------------


def test_holding_the_suit_led_a_player_must_follow():
    result = trick("acorns", "leaves-9", ("hearts-7", ["hearts-7", "leaves-8"]))
    assert codes(result) == [("must_follow_suit", BERT)]
    assert result.violations[0].params == {"card": "hearts-7", "play": 1}


def test_holding_the_suit_led_a_player_may_not_trump_instead():
    result = trick("acorns", "leaves-9", ("acorns-7", ["acorns-7", "leaves-8"]))
    assert codes(result) == [("must_follow_suit", BERT)]


def test_following_suit_with_a_card_that_heads_the_trick_is_legal():
    result = trick("acorns", "leaves-9", ("leaves-ober", ["leaves-ober", "hearts-7"]))
    assert result.legal
    assert result.winner == BERT


def test_without_must_follow_suit_a_player_may_renege():
    result = trick("acorns", "leaves-9", ("hearts-7", ["hearts-7", "leaves-8"]),
                   overrides={"must_follow_suit": False})
    assert result.legal


def test_the_weli_is_no_bell_when_bells_are_not_trump():
    # Bells led, hearts trump: the Weli is a heart, so Bert must play his bell.
    result = trick("hearts", "bells-8", ("bells-6", ["bells-6", "bells-7"]))
    assert codes(result) == [("must_follow_suit", BERT)]
    assert trick("hearts", "bells-8", ("bells-7", ["bells-6", "bells-7"])).legal


def test_a_player_without_bells_but_with_the_weli_must_trump_with_it():
    result = trick("hearts", "bells-8", ("acorns-9", ["bells-6", "acorns-9"]))
    assert codes(result) == [("must_trump", BERT)]
    assert trick("hearts", "bells-8", ("bells-6", ["bells-6", "acorns-9"])).winner == BERT


def test_with_bells_trump_the_weli_is_a_bell_and_a_trump():
    result = trick("bells", "bells-8", ("acorns-ace", ["bells-6", "acorns-ace"]))
    assert codes(result) == [("must_follow_suit", BERT)]
    ok = trick("bells", "bells-8", ("bells-6", ["bells-6", "acorns-ace"]))
    assert ok.legal and ok.winner == BERT


def test_a_weli_lead_must_be_followed_with_a_trump():
    result = trick("leaves", "bells-6", ("bells-ace", ["bells-ace", "leaves-7"]))
    assert codes(result) == [("must_follow_suit", BERT)]


# --- heading the trick --------------------------------------------------------------


def test_a_player_following_suit_must_beat_the_best_card_if_able():
    result = trick("acorns", "bells-9", ("bells-7", ["bells-king", "bells-7"]))
    assert codes(result) == [("must_head_trick", BERT)]
    assert trick("acorns", "bells-9", ("bells-king", ["bells-king", "bells-7"])).legal


def test_a_player_who_cannot_beat_the_best_card_may_play_any_card_of_the_suit():
    result = trick("acorns", "bells-ober", ("bells-7", ["bells-9", "bells-7"]))
    assert result.legal


def test_heading_the_trick_means_beating_the_current_best_card_not_the_lead():
    # Cilli holds the bells-king, which beats the lead but not Bert's ace: any bell will do.
    result = trick("acorns", "bells-9", "bells-ace", ("bells-7", ["bells-king", "bells-7"]))
    assert result.legal


def test_a_trick_trumped_on_a_non_trump_lead_lets_any_card_of_the_led_suit_be_played():
    # Bert trumps the bell lead; Cilli could beat the nine of bells but need not.
    result = trick(
        "acorns",
        "bells-9",
        ("acorns-7", ["acorns-7", "hearts-ace"]),
        ("bells-8", ["bells-king", "bells-8"]),
    )
    assert result.legal
    assert result.winner == BERT


def test_on_a_trump_lead_a_player_must_overtrump_if_able():
    result = trick("acorns", "acorns-ober", ("acorns-7", ["acorns-king", "acorns-7"]))
    assert codes(result) == [("must_head_trick", BERT)]


def test_the_weli_heads_a_trump_lead():
    result = trick("acorns", "acorns-king", ("acorns-7", ["bells-6", "acorns-7"]))
    assert codes(result) == [("must_head_trick", BERT)]
    assert trick("acorns", "acorns-king", ("bells-6", ["bells-6", "acorns-7"])).winner == BERT


def test_a_player_void_in_the_suit_led_must_beat_the_best_trump_if_able():
    result = trick(
        "acorns",
        "bells-9",
        ("acorns-ober", ["acorns-ober", "hearts-7"]),
        ("acorns-7", ["acorns-king", "acorns-7", "leaves-ace"]),
    )
    assert codes(result) == [("must_head_trick", CILLI)]


def test_a_player_void_in_the_suit_led_who_cannot_overtrump_may_undertrump():
    result = trick(
        "acorns",
        "bells-9",
        ("acorns-ober", ["acorns-ober", "hearts-7"]),
        ("acorns-7", ["acorns-8", "acorns-7", "leaves-ace"]),
    )
    assert result.legal
    assert result.winner == BERT


def test_a_player_who_cannot_overtrump_must_still_trump():
    result = trick(
        "acorns",
        "bells-9",
        ("acorns-ober", ["acorns-ober", "hearts-7"]),
        ("leaves-ace", ["acorns-8", "leaves-ace"]),
    )
    assert codes(result) == [("must_trump", CILLI)]


def test_without_must_head_trick_a_player_may_play_under():
    off = {"must_head_trick": False}
    assert trick("acorns", "bells-9", ("bells-7", ["bells-king", "bells-7"]), overrides=off).legal
    assert trick(
        "acorns",
        "bells-9",
        ("acorns-ober", ["acorns-ober", "hearts-7"]),
        ("acorns-7", ["acorns-king", "acorns-7"]),
        overrides=off,
    ).legal


# --- trumping ------------------------------------------------------------------------


def test_a_player_void_in_the_suit_led_must_trump_if_able():
    result = trick("acorns", "bells-9", ("leaves-ace", ["leaves-ace", "acorns-7"]))
    assert codes(result) == [("must_trump", BERT)]
    assert result.violations[0].params == {"card": "leaves-ace", "play": 1}


def test_any_trump_beats_a_trick_without_trumps():
    assert trick("acorns", "bells-9", ("acorns-7", ["acorns-7", "acorns-king"])).legal


def test_without_must_trump_a_player_void_in_the_suit_led_may_discard():
    result = trick("acorns", "bells-9", ("leaves-ace", ["leaves-ace", "acorns-7"]),
                   overrides={"must_trump": False})
    assert result.legal


def test_a_player_void_in_the_suit_led_and_in_trumps_may_play_any_card():
    assert trick("acorns", "bells-9", ("hearts-7", ["hearts-7", "leaves-ace"])).legal


def test_the_leader_may_lead_any_card_in_hand():
    assert trick("acorns", ("hearts-7", ["hearts-7", "acorns-ace", "bells-6"])).legal


# --- the Salzburg description's worked examples (docs/rules.md, "Tricks") ------------


def test_seed_example_leaves_trump_bells_ace_led():
    # Anna leads the bells-ace. Bert has neither bells nor leaves: acorns or hearts will do.
    # Cilli has no bells, only the leaves-8 and a higher acorn: she must trump.
    # Dominik has the leaves-10 and the bells-10: he must follow with the bell.
    result = trick(
        "leaves",
        ("bells-ace", ["bells-ace", "acorns-7", "hearts-9", "leaves-king", "bells-8"]),
        ("acorns-9", ["acorns-9", "hearts-ober", "acorns-unter"]),
        ("leaves-8", ["leaves-8", "acorns-king"]),
        ("bells-10", ["leaves-10", "bells-10"]),
    )
    assert result.legal
    assert (result.winner, result.winning_card) == (CILLI, card("leaves-8"))


def test_seed_example_bert_may_just_as_well_play_a_heart():
    result = trick("leaves", "bells-ace", ("hearts-ober", ["acorns-9", "hearts-ober"]))
    assert result.legal


def test_seed_example_cilli_may_not_play_her_higher_acorn():
    result = trick("leaves", "bells-ace", "acorns-9", ("acorns-king", ["leaves-8", "acorns-king"]))
    assert codes(result) == [("must_trump", CILLI)]


def test_seed_example_dominik_may_not_trump_with_the_leaves_ten():
    result = trick("leaves", "bells-ace", "acorns-9", "leaves-8",
                   ("leaves-10", ["leaves-10", "bells-10"]))
    assert codes(result) == [("must_follow_suit", DOMINIK)]


def test_seed_example_without_the_bells_ten_dominik_would_have_won_with_the_leaves_ten():
    result = trick("leaves", "bells-ace", "acorns-9", "leaves-8",
                   ("leaves-10", ["leaves-10", "acorns-7"]))
    assert result.legal
    assert result.winner == DOMINIK
    # ... and he may not keep it back: he must overtrump the leaves-8.
    under = trick("leaves", "bells-ace", "acorns-9", "leaves-8",
                  ("acorns-7", ["leaves-10", "acorns-7"]))
    assert codes(under) == [("must_trump", DOMINIK)]


def test_seed_example_hearts_trump_the_weli_must_follow_a_heart_lead():
    # Anna leads the hearts-ober, Bert (no hearts) plays the bells-9, Cilli the hearts-ace,
    # Dominik has leaves and the Weli and must play the Weli.
    result = trick(
        "hearts",
        "hearts-ober",
        ("bells-9", ["bells-9", "acorns-7"]),
        ("hearts-ace", ["hearts-ace", "hearts-7"]),
        ("bells-6", ["leaves-ace", "leaves-7", "bells-6"]),
    )
    assert result.legal
    assert (result.winner, result.winning_card) == (CILLI, card("hearts-ace"))


def test_seed_example_hearts_trump_dominik_may_not_sacrifice_a_leaf():
    result = trick(
        "hearts", "hearts-ober", "bells-9", "hearts-ace",
        ("leaves-7", ["leaves-ace", "leaves-7", "bells-6"]),
    )
    assert codes(result) == [("must_follow_suit", DOMINIK)]


def test_seed_example_hearts_trump_card_order():
    # Second highest is Dominik's Weli, then the hearts-ober, then the bells-9.
    hearts_ace, weli, ober, nine = (card(c) for c in
                                    ("hearts-ace", "bells-6", "hearts-ober", "bells-9"))
    assert beats(hearts_ace, weli, "hearts")
    assert beats(weli, ober, "hearts")
    assert trick_winner([nine, ober], "hearts", GERMAN36) == 1


# --- other codes ---------------------------------------------------------------------


def test_a_card_not_in_the_players_hand_is_card_not_in_hand():
    result = trick("acorns", "leaves-9", ("leaves-king", ["leaves-8", "hearts-7"]))
    assert codes(result) == [("card_not_in_hand", BERT)]
    assert result.violations[0].params == {"card": "leaves-king", "play": 1}
    assert result.winner == BERT  # the winner is still found from the cards played


def test_murln_has_no_six_but_the_weli():
    result = trick("hearts", "hearts-7", "hearts-6", preset="murln")
    assert codes(result) == [("card_not_in_pack", BERT)]
    assert result.violations[0].params == {
        "card": "hearts-6", "pack": "german33", "field": "plays.1.card"
    }
    assert (result.winner, result.winning_card) == (None, None)
    assert trick("hearts", "hearts-7", "bells-6", preset="murln").winner == BERT


def test_a_six_in_a_murln_hand_is_card_not_in_pack():
    result = trick("hearts", "hearts-7", ("hearts-8", ["hearts-8", "acorns-6"]), preset="murln")
    assert codes(result) == [("card_not_in_pack", BERT)]
    assert result.violations[0].params["field"] == "plays.1.hand"


def test_a_card_of_another_pack_is_card_not_in_pack():
    result = trick("hearts", "hearts-7", "clubs-ace")
    assert codes(result) == [("card_not_in_pack", BERT)]


def test_a_card_that_is_no_card_code_is_unusable_input_naming_its_place():
    with pytest.raises(RuleError) as e:
        trick("hearts", "hearts-7", "hearts-11")
    assert e.value.field == "plays.1.card"
    assert e.value.code == "not_a_card"


def test_the_same_card_played_twice_is_card_played_twice():
    result = trick("hearts", "hearts-7", "hearts-7")
    assert codes(result) == [("card_played_twice", BERT)]
    assert result.violations[0].params == {"card": "hearts-7", "play": 1}


def test_the_sau_alias_does_not_hide_a_card_played_twice():
    result = trick("hearts", "hearts-ace", "hearts-sau")
    assert codes(result) == [("card_played_twice", BERT)]


def test_a_player_playing_twice_is_wrong_number_of_plays():
    result = check_trick(
        mulatschak_rules("salzburg"), "hearts",
        [Play(ANNA, "hearts-7"), Play(BERT, "hearts-8"), Play(ANNA, "hearts-9")],
    )
    assert codes(result) == [("wrong_number_of_plays", ANNA)]
    assert result.violations[0].params == {"play": 2}


def test_an_invalid_trump_is_trump_invalid():
    result = trick("clubs", "hearts-7")
    assert [v.code for v in result.violations] == ["trump_invalid"]
    assert result.violations[0].params == {"trump": "clubs"}
    assert result.winner is None


def test_a_trick_without_plays_is_a_rule_error():
    with pytest.raises(RuleError) as caught:
        check_trick(mulatschak_rules("salzburg"), "hearts", [])
    assert caught.value.field == "plays"


def test_a_hand_listing_a_card_twice_is_a_rule_error():
    with pytest.raises(RuleError) as caught:
        trick("hearts", ("hearts-7", ["hearts-7", "hearts-sau", "hearts-ace"]))
    assert caught.value.field == "plays.0.hand"
    assert caught.value.code == "card_twice"


def test_plays_are_not_checked_against_a_lead_that_is_not_in_the_pack():
    result = trick("hearts", "hearts-6", ("acorns-7", ["acorns-7", "hearts-8"]), preset="murln")
    assert codes(result) == [("card_not_in_pack", ANNA)]


def test_every_violation_of_a_trick_is_reported_at_once():
    result = trick(
        "acorns",
        "bells-9",
        ("hearts-7", ["hearts-7", "bells-8"]),
        ("leaves-ace", ["leaves-ace", "acorns-7"]),
        ("bells-9", ["bells-9"]),
    )
    assert codes(result) == [
        ("must_follow_suit", BERT),
        ("must_trump", CILLI),
        ("card_played_twice", DOMINIK),
    ]


def test_example_trick_weli():
    result = trick("hearts", "hearts-king", "bells-6", "hearts-10")
    assert result.legal
    assert (result.winner, result.winning_card) == (BERT, WELI)
    assert str(result.winning_card) == "bells-6"


def test_example_trick_renege():
    result = trick("acorns", "leaves-ace", ("acorns-7", ["acorns-7", "leaves-8"]))
    assert [v.code for v in result.violations] == ["must_follow_suit"]


def test_the_pack_parameter_decides_which_sixes_exist():
    result = trick("hearts", "hearts-7", "hearts-6", overrides={"pack": "german33"})
    assert codes(result) == [("card_not_in_pack", BERT)]
    assert trick("hearts", "hearts-7", "hearts-6", preset="murln",
                 overrides={"pack": "german36"}).legal


def test_in_murln_the_seven_is_the_lowest_trump_and_the_weli_still_second():
    assert trick("hearts", "hearts-7", "hearts-8", preset="murln").winner == BERT
    assert trick("hearts", "hearts-king", "bells-6", "hearts-ace", preset="murln").winner == CILLI
    assert trick("hearts", "hearts-king", "bells-6", preset="murln").winner == BERT


def test_every_trick_example_of_the_worked_examples_holds_at_the_referee_level(examples):
    # ``examples`` (tests/conftest.py) reads tests/examples/referee.json.
    tricks = [e for e in examples if e["endpoint"].endswith("/mulatschak/trick")]
    assert len(tricks) >= 2
    for example in tricks:
        request, response = example["request"], example["response"]
        plays = [
            Play(p["player"], p["card"], None if "hand" not in p else tuple(p["hand"]))
            for p in request["plays"]
        ]
        result = check_trick(mulatschak_rules(request["rules"]), request["trump"], plays)
        if response["status"] == 422:
            assert [v.code for v in result.violations] == response["violation_codes"]
        else:
            assert result.legal, example["name"]
            assert result.winner == response["winner"]
            assert str(result.winning_card) == response["winning_card"]

