"""Mulatschak rule sets as data: the presets (docs/rules.md, "Presets" and "House rules")
and override validation."""

from __future__ import annotations

import pytest

from referee.rules import (
    GEISER,
    MURLN,
    PARAMETER_NAMES,
    PRESETS,
    SALZBURG,
    MulatschakRules,
    Payout,
    mulatschak_rules,
)
from referee.violations import RuleError, Violation
from tests.docs import documented_presets, first_column_codes

#: docs/rules.md, "House rules", column by column: every parameter and its value in each
#: preset, as the document gives them (a new parameter is a new row there).
EXPECTED = documented_presets()


# --- presets ---------------------------------------------------------------------


def test_there_are_exactly_the_three_presets_of_the_table():
    assert set(PRESETS) == {"salzburg", "geiser", "murln"}
    assert PRESETS["salzburg"] is SALZBURG
    assert PRESETS["geiser"] is GEISER
    assert PRESETS["murln"] is MURLN


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_every_preset_has_every_value_of_the_rules_table(preset):
    assert PRESETS[preset].as_params() == EXPECTED[preset]


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_a_preset_without_overrides_is_the_preset_itself(preset):
    assert mulatschak_rules(preset) is PRESETS[preset]
    assert mulatschak_rules(preset, {}) is PRESETS[preset]


def test_the_parameter_names_are_the_rows_of_the_rules_table():
    assert set(PARAMETER_NAMES) == set(EXPECTED["salzburg"])
    assert "name" not in PARAMETER_NAMES
    assert "title" not in PARAMETER_NAMES


def test_the_parameter_names_are_those_of_the_rules_document():
    # docs/rules.md explains every house rule of the Mulatschak family, one row each.
    documented = first_column_codes("mulatschak-parameters")
    assert sorted(documented) == sorted(set(documented))
    assert set(documented) == set(PARAMETER_NAMES)


def test_presets_are_mulatschak_rules_and_immutable():
    assert SALZBURG.game == "mulatschak"
    with pytest.raises(AttributeError):
        SALZBURG.start_score = 5  # type: ignore[misc]


def test_preset_names_and_titles():
    assert [(r.name, r.title) for r in PRESETS.values()] == [
        ("salzburg", "Mulatschak (Salzburg)"),
        ("geiser", "Mulatschak (Geiser)"),
        ("murln", "Murln"),
    ]


def test_the_card_pack_follows_the_pack_parameter():
    assert len(SALZBURG.card_pack) == 36
    assert len(GEISER.card_pack) == 36
    assert len(MURLN.card_pack) == 33
    assert len(mulatschak_rules("salzburg", {"pack": "german33"}).card_pack) == 33


@pytest.mark.parametrize(
    ("players", "limit"), [(2, 5), (3, 5), (4, 3), (5, 3)]
)
def test_murln_max_exchange_depends_on_the_number_of_players(players, limit):
    assert MURLN.max_exchange_for(players) == limit


def test_salzburg_and_geiser_max_exchange_is_five_for_any_table():
    for players in range(2, 7):
        assert SALZBURG.max_exchange_for(players) == 5
        assert GEISER.max_exchange_for(players) == 5


def test_a_player_count_missing_from_a_per_count_max_exchange_allows_a_whole_hand():
    rules = mulatschak_rules("salzburg", {"max_exchange": {"4": 2}})
    assert rules.max_exchange_for(4) == 2
    assert rules.max_exchange_for(3) == 5


def test_the_talon_is_the_pack_minus_five_cards_a_player():
    assert SALZBURG.talon_size(4) == 16
    assert SALZBURG.talon_size(6) == 6
    assert MURLN.talon_size(4) == 13
    assert MURLN.talon_size(5) == 8


def test_payouts_are_reported_as_objects():
    assert Payout(declarer=-10, others=20).as_dict() == {"declarer": -10, "others": 20}


# --- overrides -------------------------------------------------------------------


def test_an_override_replaces_one_parameter_and_keeps_the_rest():
    rules = mulatschak_rules("geiser", {"knock_doubles": True, "score_floor": 0})
    assert rules.knock_doubles is True
    assert rules.score_floor == 0
    assert rules.start_score == 15
    assert rules.name == "geiser"
    assert GEISER.knock_doubles is False  # the preset itself is untouched


def test_every_parameter_can_be_overridden_with_its_own_preset_value():
    for preset in PRESETS.values():
        params = preset.as_params()
        assert mulatschak_rules(preset.name, params) == preset


def test_overrides_accept_every_documented_choice():
    for mode in ("all", "breaker", "trick_takers"):
        assert mulatschak_rules("salzburg", {"muli_fail_mode": mode}).muli_fail_mode == mode
    for mode in ("redeal", "redeal_double"):
        assert mulatschak_rules("salzburg", {"all_pass": mode}).all_pass == mode
    assert mulatschak_rules("salzburg", {"no_bid_at_or_below": None}).no_bid_at_or_below is None
    assert mulatschak_rules("salzburg", {"multiplier_cap": 4}).multiplier_cap == 4
    rules = mulatschak_rules("salzburg", {"muli_win": {"declarer": -20, "others": 5}})
    assert rules.muli_win == Payout(-20, 5)


def test_a_per_player_count_max_exchange_override_is_normalized():
    rules = mulatschak_rules("salzburg", {"max_exchange": {"5": 2, 4: 3}})
    assert rules.max_exchange == ((4, 3), (5, 2))
    assert rules.as_params()["max_exchange"] == {"4": 3, "5": 2}


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"knock_double": True}, "overrides.knock_double", "unknown_parameter"),
        ({"name": "mine"}, "overrides.name", "unknown_parameter"),
        ({"title": "Mine"}, "overrides.title", "unknown_parameter"),
        ({"knock_doubles": 1}, "overrides.knock_doubles", "not_bool"),
        ({"knock_doubles": "yes"}, "overrides.knock_doubles", "not_bool"),
        ({"hearts_double": None}, "overrides.hearts_double", "not_bool"),
        ({"start_score": True}, "overrides.start_score", "not_int"),
        ({"start_score": 21.0}, "overrides.start_score", "not_int"),
        ({"start_score": "21"}, "overrides.start_score", "not_int"),
        ({"start_score": 10_001}, "overrides.start_score", "too_large"),
        ({"trick_value": -1}, "overrides.trick_value", "too_small"),
        ({"min_bid": 0}, "overrides.min_bid", "too_small"),
        ({"min_bid": 6}, "overrides.min_bid", "too_large"),
        ({"min_bid_hearts": False}, "overrides.min_bid_hearts", "not_int"),
        ({"players_min": 1}, "overrides.players_min", "too_small"),
        ({"players_max": 8}, "overrides.players_max", "too_large"),
        ({"no_bid_at_or_below": False}, "overrides.no_bid_at_or_below", "not_int"),
        ({"score_floor": "0"}, "overrides.score_floor", "not_int"),
        ({"multiplier_cap": 0}, "overrides.multiplier_cap", "too_small"),
        ({"multiplier_cap": True}, "overrides.multiplier_cap", "not_int"),
        ({"max_exchange": 6}, "overrides.max_exchange", "too_large"),
        ({"max_exchange": True}, "overrides.max_exchange", "not_int"),
        ({"max_exchange": {}}, "overrides.max_exchange", "empty"),
        ({"max_exchange": {"four": 3}}, "overrides.max_exchange", "bad_key"),
        ({"max_exchange": {"4": 6}}, "overrides.max_exchange.4", "too_large"),
        ({"max_exchange": {"9": 3}}, "overrides.max_exchange.9", "too_large"),
        ({"muli_win": {"declarer": -10}}, "overrides.muli_win", "bad_payout"),
        ({"muli_win": 10}, "overrides.muli_win", "bad_payout"),
        ({"muli_fail": {"declarer": 10, "others": "x"}}, "overrides.muli_fail.others", "not_int"),
        ({"muli_fail": {"declarer": 2000, "others": 1}}, "overrides.muli_fail.declarer",
         "too_large"),
        ({"muli_fail_mode": "sometimes"}, "overrides.muli_fail_mode", "not_choice"),
        ({"all_pass": "redeal_triple"}, "overrides.all_pass", "not_choice"),
        ({"pack": "french52"}, "overrides.pack", "not_choice"),
        ({"pack": "hungarian32"}, "overrides.pack", "not_choice"),
        ({"players_min": 5, "players_max": 4}, "overrides.players_min", "min_over_max"),
    ],
)
def test_a_bad_override_is_a_rule_error_naming_the_field(overrides, field, code):
    with pytest.raises(RuleError) as caught:
        mulatschak_rules("salzburg", overrides)
    assert caught.value.field == field
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith(f"{field}: ")


def test_a_pack_too_small_for_the_most_players_is_a_rule_error():
    with pytest.raises(RuleError) as caught:
        mulatschak_rules("murln", {"players_max": 7})
    assert caught.value.field == "overrides.players_max"
    assert caught.value.code == "pack_too_small"
    assert caught.value.params == {"players": 7, "pack": "german33"}
    assert mulatschak_rules("salzburg", {"players_max": 7}).players_max == 7


def test_an_unknown_preset_is_a_rule_error_naming_the_preset():
    with pytest.raises(RuleError) as caught:
        mulatschak_rules("vienna")
    assert caught.value.field == "preset"
    assert caught.value.code == "unknown_preset"
    assert "salzburg" in caught.value.params["known"]


def test_rule_error_parameters_are_read_only():
    with pytest.raises(RuleError) as caught:
        mulatschak_rules("salzburg", {"min_bid": 9})
    assert caught.value.params == {"max": 5}
    with pytest.raises(TypeError):
        caught.value.params["max"] = 6  # type: ignore[index]


def test_rules_are_plain_data_that_compare_by_value():
    a = mulatschak_rules("salzburg", {"score_floor": 0})
    b = mulatschak_rules("salzburg", {"score_floor": 0})
    assert a == b
    assert a != SALZBURG
    assert isinstance(a, MulatschakRules)


# --- violations ------------------------------------------------------------------


def test_a_violation_is_a_code_a_player_and_read_only_params():
    v = Violation.of("tricks_sum", None, total=6, expected=5)
    assert v.as_dict() == {"code": "tricks_sum", "params": {"total": 6, "expected": 5}}
    assert Violation.of("no_opponent", "Anna").as_dict() == {
        "code": "no_opponent",
        "player": "Anna",
    }
    with pytest.raises(TypeError):
        v.params["total"] = 5  # type: ignore[index]


# --- the help beside each rule -----------------------------------------------------


def unexplained(rules: object, help_lines: dict[str, str]) -> list[str]:
    """The parameters of ``rules`` without a line of help beside them, and the help of a
    name that is no parameter, each named."""
    params = set(rules.as_params())  # type: ignore[attr-defined]
    return ([f"{name}: no help" for name in sorted(params - set(help_lines))]
            + [f"{name}: help of no parameter" for name in sorted(set(help_lines) - params)]
            + [f"{name}: empty help" for name, text in help_lines.items() if not text.strip()])


def test_every_rule_of_every_game_has_its_line_of_help_beside_it():
    from referee import muller_matz, mura, rules

    assert unexplained(SALZBURG, dict(rules.HELP)) == []
    assert unexplained(mura.MuraRules(), dict(mura.HELP)) == []
    assert unexplained(muller_matz.MullerMatzRules(), dict(muller_matz.HELP)) == []


def test_a_rule_added_without_its_help_is_named():
    from referee import rules

    lines = {name: text for name, text in rules.HELP.items() if name != "knock_doubles"}
    lines["knocks_twice"] = "a made-up rule"
    assert unexplained(SALZBURG, lines) == ["knock_doubles: no help",
                                            "knocks_twice: help of no parameter"]
