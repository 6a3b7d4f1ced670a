"""Mura (docs/rules.md, "Mura"): counts, card-by-card deals, running totals."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import HUNGARIAN32, HUNGARIAN_RANKS, Card
from referee.money import Penalty
from referee.mura import (
    MURA_RULES,
    MuraDealResult,
    MuraPlayerResult,
    MuraRules,
    TrickCards,
    card_figures,
    check_cards,
    check_counts,
    first_leader,
    mura_rules,
    parse_trick_cards,
    penalties,
    player_result,
    trick_winner,
    zeros_to_next_mura,
)
from referee.violations import RuleError, Violation
from tests.conftest import EXAMPLES

from ..strength import examples

#: In the order of play: counter-clockwise round the table.
SEATS = ("Hans", "Grete", "Sepp", "Resi")

#: A legal deal, checked by hand. Every trick follows suit; two aces win their tricks
#: (bells-ace in 3, acorns-ace in 8), one is beaten by a 10 (hearts-ace in 2) and one by a
#: 9 (leaves-ace in 5), so the deal has 16 + 2 × 2 = 20 figures.
GOLDEN: tuple[tuple[str, dict[str, str]], ...] = (
    (
        "Hans",
        {"Hans": "hearts-ober", "Grete": "hearts-8", "Sepp": "hearts-unter", "Resi": "hearts-7"},
    ),
    (
        "Hans",
        {"Hans": "hearts-king", "Grete": "hearts-10", "Sepp": "hearts-9", "Resi": "hearts-ace"},
    ),
    ("Grete", {"Grete": "bells-ace", "Sepp": "bells-7", "Resi": "bells-8", "Hans": "bells-king"}),
    (
        "Grete",
        {"Grete": "bells-10", "Sepp": "bells-9", "Resi": "bells-ober", "Hans": "bells-unter"},
    ),
    ("Grete", {"Grete": "leaves-7", "Sepp": "leaves-ace", "Resi": "leaves-8", "Hans": "leaves-9"}),
    (
        "Hans",
        {
            "Hans": "leaves-10",
            "Grete": "leaves-king",
            "Sepp": "leaves-ober",
            "Resi": "leaves-unter",
        },
    ),
    ("Hans", {"Hans": "acorns-7", "Grete": "acorns-8", "Sepp": "acorns-10", "Resi": "acorns-9"}),
    (
        "Sepp",
        {
            "Sepp": "acorns-unter",
            "Resi": "acorns-king",
            "Hans": "acorns-ober",
            "Grete": "acorns-ace",
        },
    ),
)


def golden(**changes: tuple[str, Mapping[str, str]]) -> list[TrickCards]:
    """The golden deal with some tricks replaced: ``t3=("Sepp", {...})``."""
    tricks = [TrickCards(leader, cards) for leader, cards in GOLDEN]
    for key, (leader, cards) in changes.items():
        tricks[int(key[1:]) - 1] = TrickCards(leader, cards)
    return tricks


def with_card(trick: int, player: str, code: str) -> dict[str, tuple[str, Mapping[str, str]]]:
    leader, cards = GOLDEN[trick - 1]
    return {f"t{trick}": (leader, {**cards, player: code})}


def codes(result: MuraDealResult) -> list[str]:
    return [v.code for v in result.violations]


def counts_deal(
    tricks: Mapping[str, int],
    figures: Mapping[str, int],
    players: Sequence[str] = SEATS,
    rules: MuraRules = MURA_RULES,
) -> MuraDealResult:
    return check_counts(players, tricks, figures, rules)


# ---------------------------------------------------------------------------------------
# Rules as data


def test_the_default_rules_are_four_players_three_figures_nine_zeros_a_mura() -> None:
    assert MURA_RULES.as_params() == {
        "players": 4,
        "figures_needed": 3,
        "zeros_per_mura": 9,
        "pack": "hungarian32",
        "max_figures_per_trick": 6,
        "clockwise": False,
    }


def test_a_deal_has_eight_tricks_and_sixteen_to_twenty_four_figures() -> None:
    assert MURA_RULES.tricks_per_deal == 8
    assert (MURA_RULES.min_figures_total, MURA_RULES.max_figures_total) == (16, 24)


def test_overrides_change_only_the_named_parameters() -> None:
    rules = mura_rules({"figures_needed": 4, "clockwise": True})
    assert rules == MuraRules(figures_needed=4, clockwise=True)


def test_no_overrides_give_the_default_rules() -> None:
    assert mura_rules({}) == MURA_RULES


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"knock_doubles": True}, "overrides.knock_doubles", "unknown_parameter"),
        ({"figures_needed": True}, "overrides.figures_needed", "not_int"),
        ({"figures_needed": "3"}, "overrides.figures_needed", "not_int"),
        ({"figures_needed": 0}, "overrides.figures_needed", "too_small"),
        ({"zeros_per_mura": 0}, "overrides.zeros_per_mura", "too_small"),
        ({"max_figures_per_trick": -1}, "overrides.max_figures_per_trick", "too_small"),
        ({"clockwise": 1}, "overrides.clockwise", "not_bool"),
        ({"pack": "german36"}, "overrides.pack", "not_choice"),
        ({"pack": 32}, "overrides.pack", "not_string"),
        ({"players": 3}, "overrides.players", "not_choice"),
    ],
)
def test_a_bad_override_is_a_rule_error_naming_it(
    overrides: dict[str, object], field: str, code: str
) -> None:
    with pytest.raises(RuleError) as caught:
        mura_rules(overrides)
    assert (caught.value.field, caught.value.code) == (field, code)


def test_overrides_that_are_no_object_are_a_rule_error() -> None:
    with pytest.raises(RuleError) as caught:
        mura_rules(["figures_needed"])  # type: ignore[arg-type]
    assert caught.value.field == "overrides"


# ---------------------------------------------------------------------------------------
# A player's deal


def test_a_player_with_tricks_but_fewer_than_three_figures_is_in_mura_per_trick() -> None:
    assert player_result(2, 2) == MuraPlayerResult(tricks=2, figures=2, mura=2, zero=False)


def test_three_figures_make_a_player_safe() -> None:
    result = player_result(1, 3)
    assert (result.mura, result.zero, result.safe) == (0, False, True)


def test_a_player_without_tricks_scores_a_zero_and_no_mura() -> None:
    result = player_result(0, 0)
    assert (result.mura, result.zero, result.safe) == (0, True, False)


def test_a_quadruple_mura_is_four_tricks_with_two_figures() -> None:
    assert player_result(4, 2).mura == 4


def test_figures_needed_is_a_parameter() -> None:
    assert player_result(2, 3, MuraRules(figures_needed=4)).mura == 2


def test_a_player_result_reads_like_the_api() -> None:
    assert player_result(3, 7).as_dict() == {
        "tricks": 3,
        "figures": 7,
        "mura": 0,
        "zero": False,
    }


# ---------------------------------------------------------------------------------------
# Counts


def test_the_mura_deal_example_gives_hans_a_double_mura_and_resi_a_zero() -> None:
    entries: list[dict[str, Any]] = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    entry = next(e for e in entries if e["name"] == "mura-deal")
    request = entry["request"]
    result = check_counts(request["players"], request["tricks"], request["figures"])
    assert result.legal
    assert {name: r.as_dict() for name, r in result.results.items()} == (
        entry["response"]["results"]
    )
    assert list(result.results) == request["players"]
    assert result.tricks == () and result.winners == ()


def test_the_mura_deal_example_by_hand() -> None:
    result = counts_deal(
        {"Hans": 2, "Grete": 3, "Sepp": 3, "Resi": 0}, {"Hans": 2, "Grete": 9, "Sepp": 7, "Resi": 0}
    )
    assert result.results["Hans"] == MuraPlayerResult(tricks=2, figures=2, mura=2, zero=False)
    assert result.results["Resi"] == MuraPlayerResult(tricks=0, figures=0, mura=0, zero=True)
    assert result.results["Grete"].safe and result.results["Sepp"].safe


def test_a_deal_needs_exactly_four_players() -> None:
    result = counts_deal(
        {"Hans": 3, "Grete": 3, "Sepp": 2},
        {"Hans": 6, "Grete": 6, "Sepp": 6},
        players=("Hans", "Grete", "Sepp"),
    )
    assert Violation.of("players_count", expected=4, actual=3) in result.violations


def test_a_name_seated_twice_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as caught:
        counts_deal({}, {}, players=("Hans", "Hans", "Sepp", "Resi"))
    assert (caught.value.field, caught.value.code) == ("players", "seated_twice")


@pytest.mark.parametrize(
    ("players", "field"),
    [("Hans", "players"), (["Hans", 3, "Sepp", "Resi"], "players.1"), (["", "a"], "players.0")],
)
def test_players_that_are_no_list_of_names_are_a_rule_error(players: object, field: str) -> None:
    with pytest.raises(RuleError) as caught:
        check_counts(players, {}, {})  # type: ignore[arg-type]
    assert caught.value.field == field


def test_a_count_for_a_player_not_seated_is_an_unknown_player() -> None:
    tricks = {"Hans": 2, "Grete": 3, "Sepp": 3, "Resi": 0, "Zenzi": 0}
    figures = {"Hans": 2, "Grete": 9, "Sepp": 7, "Resi": 0, "Zenzi": 0}
    result = counts_deal(tricks, figures)
    assert result.violations == (
        Violation.of("unknown_player", "Zenzi", field="tricks"),
        Violation.of("unknown_player", "Zenzi", field="figures"),
    )


def test_every_seated_player_needs_both_counts() -> None:
    result = counts_deal({"Hans": 5, "Grete": 3, "Sepp": 0}, {"Hans": 9, "Grete": 9, "Resi": 0})
    assert Violation.of("tricks_missing", "Resi") in result.violations
    assert Violation.of("figures_missing", "Sepp") in result.violations
    assert set(result.results) == {"Hans", "Grete"}


def test_sums_are_not_checked_while_counts_are_missing() -> None:
    result = counts_deal({"Hans": 1}, {"Hans": 3})
    assert "tricks_sum" not in codes(result) and "figures_sum" not in codes(result)


def test_a_negative_count_is_out_of_range() -> None:
    result = counts_deal(
        {"Hans": -1, "Grete": 3, "Sepp": 3, "Resi": 3},
        {"Hans": 0, "Grete": 9, "Sepp": 7, "Resi": -2},
    )
    assert Violation.of("tricks_out_of_range", "Hans", value=-1, min=0, max=8) in result.violations
    assert Violation.of("figures_out_of_range", "Resi", value=-2, min=0, max=24) in (
        result.violations
    )


def test_more_tricks_than_a_deal_has_are_out_of_range() -> None:
    result = counts_deal(
        {"Hans": 9, "Grete": 0, "Sepp": 0, "Resi": 0},
        {"Hans": 20, "Grete": 0, "Sepp": 0, "Resi": 0},
    )
    assert Violation.of("tricks_out_of_range", "Hans", value=9, min=0, max=8) in result.violations


def test_more_figures_than_a_deal_has_are_out_of_range() -> None:
    result = counts_deal(
        {"Hans": 8, "Grete": 0, "Sepp": 0, "Resi": 0},
        {"Hans": 25, "Grete": 0, "Sepp": 0, "Resi": 0},
    )
    assert "figures_out_of_range" in codes(result)


def test_tricks_must_add_up_to_eight() -> None:
    result = counts_deal(
        {"Hans": 2, "Grete": 3, "Sepp": 3, "Resi": 1}, {"Hans": 2, "Grete": 9, "Sepp": 7, "Resi": 0}
    )
    assert Violation.of("tricks_sum", total=9, expected=8) in result.violations


@pytest.mark.parametrize("resi", [1, 3, 9])
def test_figures_must_add_up_to_an_even_number_from_sixteen_to_twenty_four(resi: int) -> None:
    # Hans 2 + Grete 9 + Sepp 7 = 18, so Resi's figures give 19, 21 or 27.
    result = counts_deal(
        {"Hans": 2, "Grete": 3, "Sepp": 2, "Resi": 1},
        {"Hans": 2, "Grete": 9, "Sepp": 7, "Resi": resi},
    )
    assert Violation.of("figures_sum", total=18 + resi, min=16, max=24) in result.violations


def test_fourteen_figures_are_too_few_for_a_deal() -> None:
    result = counts_deal(
        {"Hans": 2, "Grete": 3, "Sepp": 3, "Resi": 0}, {"Hans": 2, "Grete": 5, "Sepp": 7, "Resi": 0}
    )
    assert result.violations == (Violation.of("figures_sum", total=14, min=16, max=24),)


@pytest.mark.parametrize("total", [16, 18, 20, 22, 24])
def test_every_even_figure_total_from_sixteen_to_twenty_four_is_fine(total: int) -> None:
    result = counts_deal(
        {"Hans": 2, "Grete": 2, "Sepp": 2, "Resi": 2},
        {"Hans": total - 12, "Grete": 4, "Sepp": 4, "Resi": 4},
    )
    assert result.legal


def test_a_player_without_tricks_cannot_have_figures() -> None:
    result = counts_deal(
        {"Hans": 2, "Grete": 3, "Sepp": 3, "Resi": 0}, {"Hans": 2, "Grete": 7, "Sepp": 7, "Resi": 2}
    )
    assert result.violations == (Violation.of("figures_without_tricks", "Resi", figures=2),)


def test_a_trick_holds_at_most_six_figures() -> None:
    result = counts_deal(
        {"Hans": 1, "Grete": 3, "Sepp": 4, "Resi": 0}, {"Hans": 7, "Grete": 5, "Sepp": 6, "Resi": 0}
    )
    assert result.violations == (
        Violation.of("figures_too_many", "Hans", figures=7, tricks=1, max=6),
    )


def test_six_figures_in_one_trick_are_possible() -> None:
    # A winning ace (3) with king, ober and unter of its suit.
    result = counts_deal(
        {"Hans": 1, "Grete": 3, "Sepp": 4, "Resi": 0}, {"Hans": 6, "Grete": 6, "Sepp": 6, "Resi": 0}
    )
    assert result.legal


def test_five_tricks_hold_at_least_four_figures() -> None:
    # Twenty cards, and only sixteen cards of the pack are no figures: the white raven.
    result = counts_deal(
        {"Hans": 5, "Grete": 2, "Sepp": 1, "Resi": 0}, {"Hans": 3, "Grete": 9, "Sepp": 6, "Resi": 0}
    )
    assert result.violations == (
        Violation.of("figures_too_few", "Hans", figures=3, tricks=5, min=4),
    )


def test_a_deal_reports_every_violation_at_once() -> None:
    result = counts_deal(
        {"Hans": 1, "Grete": 3, "Sepp": 3, "Zenzi": 1},
        {"Hans": 8, "Grete": 5, "Sepp": 4, "Resi": 2},
    )
    assert codes(result) == [
        "unknown_player",
        "figures_too_many",
        "tricks_missing",
        "figures_sum",
    ]
    assert result.violations[0].player == "Zenzi"
    assert result.violations[2].player == "Resi"
    assert not result.legal


@pytest.mark.parametrize("bad", [True, "2", 2.0, None])
def test_a_count_that_is_no_whole_number_is_a_rule_error_naming_it(bad: object) -> None:
    with pytest.raises(RuleError) as caught:
        counts_deal(
            {"Hans": bad, "Grete": 3, "Sepp": 3, "Resi": 0},  # type: ignore[dict-item]
            {"Hans": 2, "Grete": 9, "Sepp": 7, "Resi": 0},
        )
    assert (caught.value.field, caught.value.code) == ("tricks.Hans", "not_int")


def test_counts_that_are_no_object_are_a_rule_error() -> None:
    with pytest.raises(RuleError) as caught:
        check_counts(SEATS, {"Hans": 8}, [8, 0, 0, 0])  # type: ignore[arg-type]
    assert caught.value.field == "figures"


# ---------------------------------------------------------------------------------------
# Card by card: the trick


def test_the_highest_card_of_the_suit_led_wins() -> None:
    plays = [
        ("Hans", Card("hearts", "ace")),
        ("Grete", Card("hearts", "9")),
        ("Sepp", Card("hearts", "10")),
        ("Resi", Card("hearts", "king")),
    ]
    assert trick_winner(plays) == ("Sepp", Card("hearts", "10"))


def test_a_card_of_another_suit_never_wins_there_are_no_trumps() -> None:
    plays = [
        ("Hans", Card("hearts", "7")),
        ("Grete", Card("bells", "10")),
        ("Sepp", Card("leaves", "10")),
        ("Resi", Card("acorns", "ace")),
    ]
    assert trick_winner(plays) == ("Hans", Card("hearts", "7"))


def test_mura_ranks_ten_nine_ace_king_ober_unter_eight_seven() -> None:
    assert HUNGARIAN_RANKS == ("10", "9", "ace", "king", "ober", "unter", "8", "7")
    for higher, lower in pairwise(HUNGARIAN_RANKS):
        plays = [("Hans", Card("bells", lower)), ("Grete", Card("bells", higher))]
        assert trick_winner(plays)[0] == "Grete"


@pytest.mark.parametrize(
    ("rank", "wins", "figures"),
    [
        ("ace", True, 3),
        ("ace", False, 1),
        ("king", True, 1),
        ("ober", False, 1),
        ("unter", True, 1),
        ("10", True, 0),
        ("9", False, 0),
        ("8", True, 0),
        ("7", False, 0),
    ],
)
def test_figures_of_a_card(rank: str, wins: bool, figures: int) -> None:
    assert card_figures(Card("leaves", rank), wins) == figures


def one_trick(leader: str, cards: Mapping[str, str]) -> MuraDealResult:
    return check_cards(SEATS, [TrickCards(leader, cards)])


def test_an_ace_that_wins_its_trick_counts_three_figures() -> None:
    result = one_trick(
        "Hans",
        {"Hans": "hearts-ace", "Grete": "hearts-8", "Sepp": "bells-7", "Resi": "hearts-king"},
    )
    trick = result.tricks[0]
    assert (trick.winner, trick.winning_card, trick.figures) == (
        "Hans",
        Card("hearts", "ace"),
        4,
    )


def test_an_ace_beaten_by_the_ten_of_its_suit_counts_one_figure() -> None:
    result = one_trick(
        "Hans", {"Hans": "hearts-ace", "Grete": "hearts-10", "Sepp": "bells-7", "Resi": "hearts-8"}
    )
    assert (result.tricks[0].winner, result.tricks[0].figures) == ("Grete", 1)


def test_an_ace_discarded_on_another_suit_counts_one_figure() -> None:
    result = one_trick(
        "Sepp",
        {"Sepp": "leaves-7", "Resi": "hearts-ace", "Hans": "leaves-8", "Grete": "acorns-ober"},
    )
    assert (result.tricks[0].winner, result.tricks[0].figures) == ("Hans", 2)


def test_play_goes_on_with_the_next_name_in_the_list() -> None:
    result = one_trick(
        "Sepp", {"Hans": "bells-8", "Grete": "bells-9", "Sepp": "bells-7", "Resi": "bells-king"}
    )
    assert [name for name, _ in result.tricks[0].plays] == ["Sepp", "Resi", "Hans", "Grete"]


# ---------------------------------------------------------------------------------------
# Card by card: the deal


def test_the_golden_deal_is_legal_and_derives_every_players_counts() -> None:
    result = check_cards(SEATS, golden())
    assert result.legal, result.violations
    assert {name: r.as_dict() for name, r in result.results.items()} == {
        "Hans": {"tricks": 3, "figures": 6, "mura": 0, "zero": False},
        "Grete": {"tricks": 4, "figures": 14, "mura": 0, "zero": False},
        "Sepp": {"tricks": 1, "figures": 0, "mura": 1, "zero": False},
        "Resi": {"tricks": 0, "figures": 0, "mura": 0, "zero": True},
    }


def test_the_golden_deal_names_the_winner_of_every_trick() -> None:
    result = check_cards(SEATS, golden())
    assert result.winners == (
        "Hans",
        "Grete",
        "Grete",
        "Grete",
        "Hans",
        "Hans",
        "Sepp",
        "Grete",
    )
    assert [t.figures for t in result.tricks] == [2, 2, 4, 2, 1, 3, 0, 6]
    assert [t.number for t in result.tricks] == list(range(1, 9))


def test_card_by_card_and_counts_agree_on_the_golden_deal() -> None:
    by_cards = check_cards(SEATS, golden())
    tricks = {name: r.tricks for name, r in by_cards.results.items()}
    figures = {name: r.figures for name, r in by_cards.results.items()}
    assert check_counts(SEATS, tricks, figures).results == by_cards.results


def test_a_card_played_twice_is_reported_where_it_comes_again() -> None:
    result = check_cards(SEATS, golden(**with_card(8, "Grete", "hearts-ace")))
    assert result.violations == (
        Violation.of("card_played_twice", "Grete", trick=8, card="hearts-ace", first_trick=2),
    )


@pytest.mark.parametrize("code", ["hearts-6", "spades-ace", "clubs-2"])
def test_a_card_of_another_pack_is_not_in_the_pack(code: str) -> None:
    result = check_cards(SEATS, golden(**with_card(1, "Resi", code)))
    assert result.violations == (
        Violation.of("card_not_in_pack", "Resi", trick=1, card=code, pack="hungarian32"),
    )


def test_sau_is_accepted_for_the_ace() -> None:
    result = check_cards(SEATS, golden(**with_card(3, "Grete", "bells-sau")))
    assert result.legal
    assert result.tricks[2].winning_card == Card("bells", "ace")


@pytest.mark.parametrize("code", ["hearts-11", "foo", "", "hearts"])
def test_a_string_that_is_no_card_is_a_rule_error_naming_it(code: str) -> None:
    with pytest.raises(RuleError) as caught:
        check_cards(SEATS, golden(**with_card(2, "Sepp", code)))
    assert (caught.value.field, caught.value.code) == ("trick_cards.1.cards.Sepp", "bad_card")


def test_a_deal_has_eight_tricks() -> None:
    result = check_cards(SEATS, golden()[:7])
    assert result.violations[0] == Violation.of("wrong_number_of_plays", tricks=7, expected=8)
    assert "tricks_sum" in codes(result)


def test_a_trick_has_four_cards() -> None:
    leader, cards = GOLDEN[0]
    three = {name: code for name, code in cards.items() if name != "Resi"}
    result = check_cards(SEATS, golden(t1=(leader, three)))
    assert Violation.of("wrong_number_of_plays", trick=1, cards=3, expected=4) in (
        result.violations
    )


def test_a_trick_after_the_first_is_led_by_the_winner_of_the_one_before() -> None:
    _, cards = GOLDEN[2]
    result = check_cards(SEATS, golden(t3=("Sepp", cards)))
    assert result.violations == (Violation.of("wrong_leader", "Sepp", trick=3, expected="Grete"),)


def test_anyone_may_lead_the_first_trick() -> None:
    _, cards = GOLDEN[0]
    result = check_cards(SEATS, golden(t1=("Grete", cards)))
    assert result.legal
    assert [name for name, _ in result.tricks[0].plays] == ["Grete", "Sepp", "Resi", "Hans"]


def test_a_player_who_did_not_follow_suit_but_plays_it_later_has_revoked() -> None:
    # Resi throws acorns-9 on the leaves lead of trick 5 but plays leaves-unter in trick 6,
    # and leaves-8 on the acorns lead of trick 7 but acorns-king in trick 8: two revokes.
    changes = {**with_card(5, "Resi", "acorns-9"), **with_card(7, "Resi", "leaves-8")}
    result = check_cards(SEATS, golden(**changes))
    assert result.violations == (
        Violation.of(
            "must_follow_suit", "Resi", trick=5, suit="leaves", card="leaves-unter", later_trick=6
        ),
        Violation.of(
            "must_follow_suit", "Resi", trick=7, suit="acorns", card="acorns-king", later_trick=8
        ),
    )
    assert result.winners == check_cards(SEATS, golden()).winners


TWO_TRICKS = (
    TrickCards(
        "Hans", {"Hans": "hearts-7", "Grete": "hearts-8", "Sepp": "bells-7", "Resi": "hearts-9"}
    ),
    TrickCards(
        "Resi", {"Resi": "leaves-7", "Hans": "leaves-8", "Grete": "leaves-9", "Sepp": "bells-8"}
    ),
)


def test_a_discard_is_fine_when_the_player_never_plays_the_suit_later() -> None:
    result = check_cards(SEATS, TWO_TRICKS)
    assert "must_follow_suit" not in codes(result)
    assert result.winners == ("Resi", "Grete")


def test_a_discard_is_a_revoke_once_the_player_plays_the_suit_later() -> None:
    second = TrickCards("Resi", {**TWO_TRICKS[1].cards, "Sepp": "hearts-10"})
    result = check_cards(SEATS, [TWO_TRICKS[0], second])
    assert (
        Violation.of(
            "must_follow_suit", "Sepp", trick=1, suit="hearts", card="hearts-10", later_trick=2
        )
        in result.violations
    )


def test_a_player_not_seated_in_a_trick_is_an_unknown_player() -> None:
    leader, cards = GOLDEN[0]
    renamed = {("Zenzi" if name == "Resi" else name): code for name, code in cards.items()}
    result = check_cards(SEATS, golden(t1=(leader, renamed)))
    assert Violation.of("unknown_player", "Zenzi", trick=1, field="cards") in result.violations


def test_a_leader_not_seated_leaves_the_trick_undecided() -> None:
    _, cards = GOLDEN[0]
    result = check_cards(SEATS, golden(t1=("Zenzi", cards)))
    assert Violation.of("unknown_player", "Zenzi", trick=1, field="leader") in result.violations
    assert result.winners[0] is None
    assert "tricks_sum" in codes(result)


def test_card_by_card_runs_the_counts_checks_on_the_derived_counts() -> None:
    result = check_cards(SEATS[:3], golden())
    assert Violation.of("players_count", expected=4, actual=3) in result.violations


def test_card_by_card_reports_every_violation_at_once() -> None:
    changes = {
        **with_card(1, "Resi", "hearts-6"),
        "t3": ("Sepp", GOLDEN[2][1]),
        **with_card(8, "Grete", "hearts-ace"),
    }
    result = check_cards(SEATS, golden(**changes))
    assert codes(result) == ["card_not_in_pack", "wrong_leader", "card_played_twice"]


def test_trick_cards_are_read_from_json() -> None:
    data = [{"leader": leader, "cards": cards} for leader, cards in GOLDEN]
    assert parse_trick_cards(data) == tuple(golden())


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("x", "trick_cards"),
        ([1], "trick_cards.0"),
        ([{"cards": {}}], "trick_cards.0.leader"),
        ([{"leader": "A", "cards": []}], "trick_cards.0.cards"),
        ([{"leader": "A", "cards": {"A": 7}}], "trick_cards.0.cards.A"),
    ],
)
def test_trick_cards_of_the_wrong_shape_are_a_rule_error(data: object, field: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_trick_cards(data)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("tricks", "field"),
    [
        (None, "trick_cards"),
        ("hearts-7", "trick_cards"),
        ([{"leader": "Hans", "cards": {}}], "trick_cards.0"),
        ([TrickCards(None, {})], "trick_cards.0.leader"),  # type: ignore[arg-type]
    ],
)
def test_card_by_card_needs_a_list_of_tricks(tricks: object, field: str) -> None:
    with pytest.raises(RuleError) as caught:
        check_cards(SEATS, tricks)  # type: ignore[arg-type]
    assert caught.value.field == field


def test_trick_cards_are_immutable() -> None:
    trick = TrickCards("Hans", {"Hans": "hearts-7"})
    with pytest.raises(TypeError):
        trick.cards["Hans"] = "hearts-8"  # type: ignore[index]


# ---------------------------------------------------------------------------------------
# Running totals


def test_penalties_sum_mura_and_zeros_over_deals() -> None:
    first = check_counts(
        SEATS,
        {"Hans": 2, "Grete": 3, "Sepp": 3, "Resi": 0},
        {"Hans": 2, "Grete": 9, "Sepp": 7, "Resi": 0},
    ).results
    second = check_cards(SEATS, golden()).results
    assert dict(penalties([first, second])) == {
        "Hans": Penalty(2, 0),
        "Grete": Penalty(0, 0),
        "Sepp": Penalty(1, 0),
        "Resi": Penalty(0, 2),
    }


def test_no_deals_give_no_penalties() -> None:
    assert dict(penalties([])) == {}


@pytest.mark.parametrize(("zeros", "left"), [(0, 9), (1, 8), (8, 1), (9, 9), (13, 5)])
def test_zeros_to_next_mura_counts_down_from_nine(zeros: int, left: int) -> None:
    assert zeros_to_next_mura(zeros) == left


@pytest.mark.parametrize("bad", [-1, True, 1.0])
def test_zeros_to_next_mura_needs_a_count(bad: object) -> None:
    with pytest.raises(RuleError):
        zeros_to_next_mura(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Properties: random legal deals


def rank_of(card: Card) -> int:
    return HUNGARIAN_RANKS.index(card.rank)


@st.composite
def legal_deals(draw: st.DrawFn) -> tuple[list[TrickCards], list[str], int]:
    """A shuffled deal of 8 cards each, played out with random legal cards.

    Returns the tricks, each trick's winner and the number of tricks an ace won, computed
    here independently of the referee.
    """
    cards = draw(st.permutations(HUNGARIAN32.cards))
    hands = {name: list(cards[8 * i : 8 * i + 8]) for i, name in enumerate(SEATS)}
    leader = draw(st.sampled_from(SEATS))
    tricks: list[TrickCards] = []
    winners: list[str] = []
    ace_wins = 0
    for _ in range(8):
        start = SEATS.index(leader)
        plays: list[tuple[str, Card]] = []
        for name in SEATS[start:] + SEATS[:start]:
            hand = hands[name]
            following = [c for c in hand if plays and c.suit == plays[0][1].suit]
            card = draw(st.sampled_from(sorted(following or hand)))
            hand.remove(card)
            plays.append((name, card))
        led = plays[0][1].suit
        winner, best = min(
            (play for play in plays if play[1].suit == led), key=lambda play: rank_of(play[1])
        )
        ace_wins += best.rank == "ace"
        tricks.append(TrickCards(leader, {name: card.code for name, card in plays}))
        winners.append(winner)
        leader = winner
    return tricks, winners, ace_wins


FAST = settings(
    max_examples=examples(150), deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FAST
@given(legal_deals())
def test_a_random_legal_deal_is_legal_with_eight_tricks(
    deal: tuple[list[TrickCards], list[str], int],
) -> None:
    tricks, winners, _ = deal
    result = check_cards(SEATS, tricks)
    assert result.legal, result.violations
    assert list(result.winners) == winners
    assert sum(r.tricks for r in result.results.values()) == 8


@FAST
@given(legal_deals())
def test_a_random_legal_deal_has_sixteen_figures_plus_two_per_ace_that_wins(
    deal: tuple[list[TrickCards], list[str], int],
) -> None:
    tricks, _, ace_wins = deal
    total = sum(r.figures for r in check_cards(SEATS, tricks).results.values())
    assert total == 16 + 2 * ace_wins
    assert 16 <= total <= 24 and total % 2 == 0


@FAST
@given(legal_deals())
def test_counts_derived_from_cards_pass_the_counts_check_with_the_same_results(
    deal: tuple[list[TrickCards], list[str], int],
) -> None:
    by_cards = check_cards(SEATS, deal[0])
    tricks = {name: r.tricks for name, r in by_cards.results.items()}
    figures = {name: r.figures for name, r in by_cards.results.items()}
    by_counts = check_counts(SEATS, tricks, figures)
    assert by_counts.legal, by_counts.violations
    assert by_counts.results == by_cards.results


@FAST
@given(legal_deals())
def test_nobody_is_ever_in_mura_with_five_tricks(
    deal: tuple[list[TrickCards], list[str], int],
) -> None:
    for result in check_cards(SEATS, deal[0]).results.values():
        assert 0 <= result.mura <= 4
        assert result.zero == (result.tricks == 0)


# ---------------------------------------------------------------------------------------
# Who leads the first trick (docs/rules.md, "First lead")


def test_the_player_after_the_dealer_in_order_of_play_leads_the_first_trick() -> None:
    assert first_leader(SEATS, "Resi") == "Hans"
    assert first_leader(SEATS, "Hans") == "Grete"
    assert check_cards(SEATS, golden(), dealer="Resi").legal


def test_a_first_trick_led_by_another_player_is_a_wrong_leader() -> None:
    result = check_cards(SEATS, golden(), dealer="Sepp")
    assert [(v.code, v.player, dict(v.params)) for v in result.violations] == [
        ("wrong_leader", "Hans", {"trick": 1, "expected": "Resi"})]


def test_without_a_dealer_the_first_trick_is_not_checked() -> None:
    assert check_cards(SEATS, golden()).legal


def test_a_dealer_who_is_not_seated_is_reported_and_checks_no_first_leader() -> None:
    result = check_cards(SEATS, golden(), dealer="Xaver")
    assert [(v.code, v.player) for v in result.violations] == [("dealer_not_seated", "Xaver")]
    counts = check_counts(SEATS, {"Hans": 2, "Grete": 2, "Sepp": 2, "Resi": 2},
                          {"Hans": 5, "Grete": 5, "Sepp": 5, "Resi": 5}, dealer="Xaver")
    assert codes(counts) == ["dealer_not_seated"]
    assert check_counts(SEATS, {"Hans": 2, "Grete": 2, "Sepp": 2, "Resi": 2},
                        {"Hans": 5, "Grete": 5, "Sepp": 5, "Resi": 5}, dealer="Hans").legal


def test_a_dealer_that_is_no_name_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as caught:
        check_cards(SEATS, golden(), dealer=3)  # type: ignore[arg-type]
    assert caught.value.field == "dealer"
