"""The referee API for exchange forms, knocks over collapses, sitting out, the first Mura
leader, a Müller Matz hand and a second-life pile (docs/rules.md, "Exchange",
"Knocks and collapses", "Sitting out", "First lead", "Drawing" to "Sleeping" and
"The second-life pile"): the added worked examples, the new fields and endpoints, their
400s, 422s and languages."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.muller_matz import MULLER_MATZ_RULES
from referee.rules import PARAMETER_NAMES, PRESETS
from tests.conftest import ADDITIONS, load_examples

pytestmark = pytest.mark.django_db

DEAL = "/api/v1/referee/mulatschak/deal"
AUCTION = "/api/v1/referee/mulatschak/auction"
MURA = "/api/v1/referee/mura/deal"
HAND = "/api/v1/referee/muller-matz/hand"
PILE = "/api/v1/referee/muller-matz/pile"

ADDED = load_examples(ADDITIONS)
FIRST = load_examples()


def check_answer(response: Any, expected: dict[str, Any]) -> None:
    assert response.status_code == expected["status"], response.json()
    body = response.json()
    for key, value in expected.items():
        if key == "status":
            continue
        if key == "violation_codes":
            assert [v["code"] for v in body["violations"]] == value
            assert body["legal"] is False
            assert all(v["message"] and "?" not in v["message"] for v in body["violations"])
        else:
            assert body[key] == value, key


@pytest.mark.parametrize("example", ADDED, ids=lambda e: e["name"])
def test_it_answers_every_added_worked_example(api, example):
    check_answer(api.post(example["endpoint"].split()[1], example["request"]),
                 example["response"])


@pytest.mark.parametrize("language", ["de", "hu"])
def test_the_added_examples_refusals_are_worded_in_german_and_hungarian(api, language):
    """The answers do not depend on the language (one run of each example above); the
    words do: every refusal of the examples is told in the language asked for."""
    refused = [e for e in ADDED if "violation_codes" in e["response"]]
    assert refused
    for example in refused:
        path = example["endpoint"].split()[1]
        english = api.post(path, example["request"]).json()["violations"]
        local = api.post(path, example["request"], language).json()["violations"]
        assert [v["code"] for v in local] == [v["code"] for v in english]
        for theirs, ours in zip(local, english, strict=True):
            assert theirs["message"] and theirs["message"] != ours["message"], theirs


def plain(**deal: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "rules": "salzburg",
        "players": ["Hans", "Grete", "Sepp", "Resi"],
        "dealer": "Resi",
        "deal": {"kind": "played", "declarer": "Sepp", "bid": 2, "trump": "acorns",
                 "stayed_home": [], "tricks": {"Hans": 1, "Grete": 1, "Sepp": 2, "Resi": 1}},
    }
    body["deal"].update(deal)
    return body


# --- old requests keep their meaning ------------------------------------------------


@pytest.mark.parametrize("example", [e for e in FIRST if e["response"]["status"] == 200],
                         ids=lambda e: e["name"])
def test_old_legal_examples_answer_the_new_fields_with_their_neutral_values(api, example):
    body = api.post(example["endpoint"].split()[1], example["request"]).json()
    assert body.get("sitting_out", None) is None
    if example["endpoint"].endswith("/mulatschak/deal"):
        assert body["knocks_after"] == 0


def test_an_exchange_by_a_player_who_stayed_home_is_the_one_change_to_old_requests(api):
    body = plain(stayed_home=["Grete"], tricks={"Hans": 2, "Sepp": 2, "Resi": 1},
                 exchanged={"Grete": 2})
    response = api.post(DEAL, body)
    assert response.status_code == 422
    assert response.json()["violations"] == [{
        "code": "exchange_by_absent", "player": "Grete", "params": {"form": "plain"},
        "message": "Grete stayed home and cannot exchange.",
    }]
    body["deal"]["exchanged"] = {"Grete": 0}
    assert api.post(DEAL, body).status_code == 200


def test_exchange_totals_come_only_with_a_recorded_exchange(api):
    assert "exchange_totals" not in api.post(DEAL, plain()).json()
    answer = api.post(DEAL, plain(exchanged={})).json()
    assert answer["exchange_totals"] == {"drawn": 0, "talon": 16}


# --- the new fields -----------------------------------------------------------------


def test_a_collapsed_deal_answers_the_knocks_it_carries_and_the_pending_multiplier(api):
    body = plain()
    body.update(rules={"preset": "salzburg", "overrides": {"knock_survives_collapse": True}},
                collapses_before=1, knocks_before=1)
    body["deal"] = {"kind": "collapsed", "knocked": True}
    answer = api.post(DEAL, body).json()
    assert (answer["collapses_after"], answer["knocks_after"]) == (2, 2)
    assert answer["pending_multiplier"] == 16


@pytest.mark.parametrize(("collapses", "knocks"), [(0, 1), (2, 3)])
def test_knocks_before_above_the_collapses_before_answers_400(api, collapses, knocks):
    body = plain()
    body.update(collapses_before=collapses, knocks_before=knocks)
    response = api.post(DEAL, body)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["knocks_before"]


@pytest.mark.parametrize(("exchanges", "field"), [
    ({"Hans": {"form": "swap"}}, "deal.exchanges.Hans.form"),
    ({"Hans": {"refused": True}}, "deal.exchanges.Hans.form"),
    ({"Hans": {"form": "plain"}}, "deal.exchanges.Hans.cards"),
    ({"Hans": {"form": "plain", "cards": -1}}, "deal.exchanges.Hans.cards"),
    ({"Hans": {"form": "plain", "cards": "2"}}, "deal.exchanges.Hans.cards"),
    ({"Hans": {"form": "bridge", "cards": 5}}, "deal.exchanges.Hans.cards"),
    ({"Hans": {"form": "on_sight", "refused": 1}}, "deal.exchanges.Hans.refused"),
    ({"Hans": {"form": "bridge", "face_up": 1000}}, "deal.exchanges.Hans.face_up"),
    ({"Hans": "bridge"}, "deal.exchanges.Hans"),
    ("bridge", "deal.exchanges"),
])
def test_a_malformed_exchange_answers_400_naming_the_field_path(api, exchanges, field):
    response = api.post(DEAL, plain(exchanges=exchanges))
    assert response.status_code == 400, response.json()
    assert list(response.json()["errors"]) == [field]


def test_a_wrong_type_for_trump_delayed_answers_400(api):
    response = api.post(DEAL, plain(trump_delayed="yes"))
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["deal.trump_delayed"]


def test_a_deal_that_was_not_played_has_no_exchanges_and_no_delayed_trump(api):
    body = plain()
    body["deal"] = {"kind": "collapsed", "exchanges": {"Hans": {"form": "bridge"}},
                    "trump_delayed": True}
    response = api.post(DEAL, body)
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"deal.exchanges", "deal.trump_delayed"}


def test_a_form_error_is_told_in_the_users_language(api):
    errors = api.post(DEAL, plain(exchanges={"Hans": {"form": "on_sight", "cards": 1}}),
                      "de").json()["errors"]
    assert errors["deal.exchanges.Hans.cards"] == ["ist kein Feld der Form on_sight"]


def test_the_sitting_out_dealer_is_named_and_scores_nothing(api):
    body = plain()
    body.update(rules={"preset": "murln", "overrides": {"sit_out_at": 5}},
                players=["Hans", "Grete", "Sepp", "Resi", "Franz"], dealer="Franz")
    answer = api.post(DEAL, body).json()
    assert (answer["sitting_out"], answer["deltas"]["Franz"]) == ("Franz", 0)
    assert answer["reasons"]["Franz"] == "sitting_out"
    body["deal"]["tricks"]["Franz"] = 0
    body["deal"]["stayed_home"] = ["Franz"]
    violations = api.post(DEAL, body, "de").json()["violations"]
    assert [(v["code"], v["params"]["field"]) for v in violations] == [
        ("player_sitting_out", "stayed_home"), ("player_sitting_out", "tricks")]
    assert violations[1]["message"] == (
        "Franz setzt in diesem Spiel aus und hat keine Stichzahl, auch nicht 0.")


def test_an_auction_call_by_the_sitting_out_dealer_is_a_violation(api):
    body = {"rules": {"preset": "murln", "overrides": {"sit_out_at": 5}},
            "players": ["Hans", "Grete", "Sepp", "Resi", "Franz"], "dealer": "Franz",
            "calls": [{"player": "Franz", "call": 2}]}
    violations = api.post(AUCTION, body).json()["violations"]
    assert [(v["code"], v["player"], v["params"]) for v in violations] == [
        ("player_sitting_out", "Franz", {"field": "calls", "call_index": 0})]


def test_a_mura_dealer_who_is_not_seated_is_a_violation_and_a_wrong_type_a_400(api):
    body = {"players": ["A", "B", "C", "D"], "dealer": "X",
            "tricks": {"A": 2, "B": 2, "C": 2, "D": 2}, "figures": {"A": 5, "B": 5, "C": 5,
                                                                    "D": 5}}
    answer = api.post(MURA, body).json()
    assert [v["code"] for v in answer["violations"]] == ["dealer_not_seated"]
    body["dealer"] = 3
    assert list(api.post(MURA, body).json()["errors"]) == ["dealer"]


def test_the_first_mura_leader_is_worded_for_the_first_trick(api):
    example = next(e for e in ADDED if e["name"] == "mura-first-leader-wrong")
    (violation,) = api.post(MURA, example["request"]).json()["violations"]
    assert violation["params"] == {"trick": 1, "expected": "Grete"}
    assert violation["message"] == "Grete sits to the dealer's right and leads the first trick."


# --- Müller Matz: hand and pile ---------------------------------------------------------


def test_a_hand_answers_draw_swap_and_sleep_with_the_rules_given(api):
    body = {"rules": {"preset": "muller_matz", "overrides": {"hand_size": 5}},
            "trump": "hearts", "hand": ["hearts-2", "spades-9"], "stock": 10}
    assert api.post(HAND, body).json() == {
        "draw": 3, "may_swap": True, "swap_card": "hearts-2", "may_sleep": False,
        "sleep_cards": 0}


@pytest.mark.parametrize(("change", "field"), [
    ({"hand": ["hearts-2", "bells-7"]}, "hand.1"),
    ({"hand": ["hearts-2", "nonsense"]}, "hand.1"),
    ({"turned_up": "leaves-ober"}, "turned_up"),
    ({"stock": -1}, "stock"),
    ({"stock": "3"}, "stock"),
    ({"trump": "acorns"}, "trump"),
    ({"rules": "salzburg"}, "rules"),
    ({"rules": {"preset": "muller_matz", "overrides": {"hand_size": 0}}},
     "rules.overrides.hand_size"),
])
def test_a_bad_hand_answers_400_naming_the_field(api, change, field):
    body = {"trump": "hearts", "hand": ["hearts-2"], "stock": 3, **change}
    response = api.post(HAND, body)
    assert response.status_code == 400, response.json()
    assert list(response.json()["errors"]) == [field]


def test_an_illegal_pile_still_names_the_pile_and_the_next_player(api):
    body = {"trump": "hearts", "players": ["A", "B", "C"],
            "plays": [{"player": "A", "card": "spades-9"}, {"player": "B", "card": "spades-2"}]}
    answer = api.post(PILE, body, "hu").json()
    assert answer["legal"] is False
    assert (answer["pile"], answer["complete"], answer["winner"], answer["next"]) == (
        ["spades-9"], False, None, "B")
    (violation,) = answer["violations"]
    assert violation["params"] == {"card": "spades-2", "top": "spades-9",
                                   "reason": "not_higher", "play": 1}
    assert "spades-9" in violation["message"] and "spades-2" in violation["message"]


@pytest.mark.parametrize(("change", "field"), [
    ({"plays": [{"player": "A"}]}, "plays.0"),
    ({"plays": [{"player": "A", "card": "spades-9", "pick_up": True}]}, "plays.0"),
    ({"plays": [{"player": "A", "card": "leaves-ober"}]}, "plays.0.card"),
    ({"plays": [{"player": "A", "pick_up": "yes"}]}, "plays.0.pick_up"),
    ({"players": ["A"]}, "players"),
    ({"players": ["A", "A"]}, "players"),
    ({"hands": {"A": ["spades-9"], "B": []}}, "hands.C"),
    ({"hands": {"A": [], "B": [], "C": [], "X": []}}, "hands.X"),
    ({"hands": {"A": ["bells-7"], "B": [], "C": []}}, "hands.A.0"),
])
def test_a_bad_pile_answers_400_naming_the_field(api, change, field):
    body = {"trump": "hearts", "players": ["A", "B", "C"], "plays": [], **change}
    response = api.post(PILE, body)
    assert response.status_code == 400, response.json()
    assert list(response.json()["errors"]) == [field]


def test_the_pile_request_is_not_modified(api):
    example = next(e for e in ADDED if e["name"] == "muller-matz-pile-violations")
    body = copy.deepcopy(example["request"])
    api.post(PILE, body)
    assert body == example["request"]


# --- rules ------------------------------------------------------------------------------


NEW_PARAMETERS = ("exchange_on_sight", "exchange_ace_five", "exchange_bridge",
                  "exchange_seven_six", "delayed_trump", "declarer_on_sight_chain",
                  "knock_survives_collapse", "sit_out_at")


def test_rules_lists_the_new_parameters_with_each_presets_default(api):
    presets = {p["name"]: p["params"] for p in api.get("/api/v1/rules").json()["presets"]}
    assert set(NEW_PARAMETERS) <= set(PARAMETER_NAMES)
    for name, rules in PRESETS.items():
        for parameter in NEW_PARAMETERS:
            assert presets[name][parameter] == getattr(rules, parameter)
    assert presets["salzburg"]["exchange_bridge"] is True
    assert presets["geiser"]["exchange_bridge"] is False
    assert presets["murln"]["declarer_on_sight_chain"] is True
    assert presets["murln"]["sit_out_at"] is None
    assert {k: presets["muller_matz"][k] for k in ("lowest_trump", "sleep_trumps",
                                                    "hand_size")} == {
        "lowest_trump": MULLER_MATZ_RULES.lowest_trump, "sleep_trumps": 3, "hand_size": 3}


def test_an_override_of_a_new_parameter_is_checked(api):
    body = plain()
    body["rules"] = {"preset": "murln", "overrides": {"sit_out_at": 9}}
    response = api.post(DEAL, body)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["rules.overrides.sit_out_at"]


# --- wording ------------------------------------------------------------------------


def _by_value_cases() -> list[tuple[str, str, str, Any]]:
    from scorepad import games

    return [(game.NAME, code, param, value) for game in games.registered()
            for code, (param, choices) in game.WORDING.merged.by_value.items()
            for value in choices]


@pytest.mark.parametrize(("game", "code", "param", "value"), _by_value_cases())
def test_a_code_worded_by_a_parameter_value_uses_that_wording(game, code, param, value):
    # The value is looked up as the referee sent it: a form is not first turned into its
    # words (the bridge's face-up message once fell back to the general one so).
    from referee.violations import Violation
    from scorepad import games
    from scorepad.messages import violation_message

    wording = games.get(game).WORDING
    given = 1 if value == "*" else value
    params = {"expected": "Grete", "knocks_before": 1, "play": 0, param: given}
    text = violation_message(Violation.of(code, "Hans", **params), wording)
    template = str(wording.merged.by_value[code][1][value])
    assert text == template.format(player="Hans", expected="Grete", knocks_before=1)


def test_the_bridge_that_turned_up_too_few_cards_is_told_as_a_bridge(api):
    example = next(e for e in ADDED if e["name"] == "exchange-bridge-no-face-up")
    (violation,) = api.post(DEAL, example["request"]).json()["violations"]
    assert violation["message"].startswith("The face-up cards of Grete's bridge do not add up")
