"""The stateless referee API (docs/api.md, "The referee API"): examples, 400s, 422s, languages."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.rules import PARAMETER_NAMES
from tests.conftest import load_examples

# Requests pass the whole middleware stack (sessions, login throttling, connection health
# checks), which may read the database even for the stateless referee.
pytestmark = pytest.mark.django_db


DEAL = "/api/v1/referee/mulatschak/deal"
AUCTION = "/api/v1/referee/mulatschak/auction"
TRICK = "/api/v1/referee/mulatschak/trick"

EXAMPLES = load_examples()


def plain_deal(**deal_changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "rules": "salzburg",
        "players": ["Anna", "Bert", "Cilli", "Dominik"],
        "dealer": "Dominik",
        "deal": {
            "kind": "played",
            "declarer": "Bert",
            "bid": 3,
            "trump": "leaves",
            "stayed_home": ["Cilli"],
            "tricks": {"Anna": 1, "Bert": 3, "Dominik": 1},
        },
    }
    body["deal"].update(deal_changes)
    return body


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e["name"])
def test_it_answers_every_worked_example(api, example):
    path = example["endpoint"].split()[1]
    response = api.post(path, example["request"])
    expected = example["response"]
    assert response.status_code == expected["status"], response.json()
    body = response.json()
    for key, value in expected.items():
        if key == "status":
            continue
        if key == "violation_codes":
            assert [v["code"] for v in body["violations"]] == value
            assert body["legal"] is False
        else:
            assert body[key] == value, key


def test_the_examples_cover_every_referee_endpoint():
    assert {e["endpoint"].split()[1] for e in EXAMPLES} == {
        DEAL,
        AUCTION,
        TRICK,
        "/api/v1/referee/mura/deal",
        "/api/v1/referee/mura/settle",
        "/api/v1/referee/muller-matz/beat",
    }


def test_rules_lists_every_preset_with_every_parameter(api):
    response = api.get("/api/v1/rules")
    assert response.status_code == 200
    presets = {p["name"]: p for p in response.json()["presets"]}
    assert {"salzburg", "geiser", "murln"} <= set(presets)
    for name in ("salzburg", "geiser", "murln"):
        assert presets[name]["game"] == "mulatschak"
        assert set(presets[name]["params"]) == set(PARAMETER_NAMES)
    assert presets["salzburg"]["params"]["muli_win"] == {"declarer": -10, "others": 10}
    assert presets["murln"]["params"]["max_exchange"] == {"2": 5, "3": 5, "4": 3, "5": 3}
    assert presets["geiser"]["params"]["start_score"] == 15
    assert presets["mura"]["game"] == "mura"
    assert presets["mura"]["params"]["zeros_per_mura"] == 9
    assert presets["muller_matz"]["params"]["pack"] == "french52"


def test_a_legal_deal_answers_scores_and_reasons(api):
    body = api.post(DEAL, plain_deal()).json()
    assert body["legal"] is True
    assert body["deltas"] == {"Anna": -1, "Bert": -3, "Cilli": 1, "Dominik": -1}
    assert body["reasons"]["Cilli"] == "stayed_home"
    assert body["next_dealer"] == "Anna"
    assert body["factors"] == []


def test_overrides_change_the_rules_for_one_request(api):
    body = plain_deal(knocked=True)
    body["rules"] = {"preset": "salzburg", "overrides": {"knock_doubles": False}}
    response = api.post(DEAL, body)
    assert response.status_code == 422
    assert [v["code"] for v in response.json()["violations"]] == ["knock_not_allowed"]


def test_a_knock_doubles_under_salzburg_rules(api):
    body = api.post(DEAL, plain_deal(knocked=True)).json()
    assert body["multiplier"] == 2
    assert body["factors"] == ["knock"]


def test_collapsed_deal_changes_nothing_and_keeps_the_dealer(api):
    body = plain_deal()
    body["deal"] = {"kind": "collapsed"}
    answer = api.post(DEAL, body).json()
    assert answer["deltas"] == {"Anna": 0, "Bert": 0, "Cilli": 0, "Dominik": 0}
    assert answer["next_dealer"] == "Dominik"
    assert answer["collapses_after"] == 1
    assert answer["pending_multiplier"] == 2
    assert answer["declarer_made"] is None


def test_a_matching_auction_is_accepted_and_a_different_one_is_not(api):
    calls = [
        {"player": "Anna", "call": "pass"},
        {"player": "Bert", "call": 3},
        {"player": "Cilli", "call": "pass"},
        {"player": "Dominik", "call": "pass"},
    ]
    assert api.post(DEAL, plain_deal(auction=calls)).status_code == 200
    calls[1]["call"] = 2
    response = api.post(DEAL, plain_deal(auction=calls))
    assert response.status_code == 422
    assert response.json()["violations"][0]["code"] == "auction_mismatch"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"bid": "3"}, "deal.bid"),
        ({"bid": True}, "deal.bid"),
        ({"knocked": "yes"}, "deal.knocked"),
        ({"tricks": {"Anna": "1", "Bert": 3, "Dominik": 1}}, "deal.tricks.Anna"),
        ({"stayed_home": "Cilli"}, "deal.stayed_home"),
        ({"declarer": None}, "deal.declarer"),
        ({"kind": "cancelled"}, "deal.kind"),
        ({"exchanged": {"Anna": -1}}, "deal.exchanged.Anna"),
    ],
)
def test_wrong_types_answer_400_naming_the_field(api, change, field):
    response = api.post(DEAL, plain_deal(**change))
    assert response.status_code == 400
    body = response.json()
    assert field in body["errors"], body
    assert field in body["detail"]


def _salzburg_with(**overrides: Any) -> dict[str, Any]:
    return {"preset": "salzburg", "overrides": overrides}


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ("vienna", "rules"),
        (_salzburg_with(knock_double=True), "rules.overrides.knock_double"),
        (_salzburg_with(start_score="21"), "rules.overrides.start_score"),
        (_salzburg_with(hearts_double=1), "rules.overrides.hearts_double"),
        (_salzburg_with(muli_fail_mode="x"), "rules.overrides.muli_fail_mode"),
        ({"overrides": {}}, "rules.preset"),
        (7, "rules"),
    ],
)
def test_bad_rules_answer_400_naming_the_parameter(api, rules, field):
    body = plain_deal()
    body["rules"] = rules
    response = api.post(DEAL, body)
    assert response.status_code == 400
    assert field in response.json()["errors"], response.json()


def test_malformed_json_answers_400(api):
    response = api.post(DEAL, "{not json", raw=True)
    assert response.status_code == 400
    assert "detail" in response.json()


@pytest.mark.parametrize("body", [[], "deal", 3, None, {}])
def test_a_body_that_is_no_request_answers_400(api, body):
    assert api.post(DEAL, body).status_code == 400


def test_a_name_seated_twice_answers_400(api):
    body = plain_deal()
    body["players"] = ["Anna", "Anna", "Cilli", "Dominik"]
    response = api.post(DEAL, body)
    assert response.status_code == 400
    assert "players" in response.json()["errors"]


def test_an_unknown_card_text_is_400_and_a_card_of_another_pack_is_422(api):
    body = {
        "rules": "murln",
        "trump": "acorns",
        "plays": [{"player": "Anna", "card": "acorns-ace"}, {"player": "Bert", "card": "nonsense"}],
    }
    response = api.post(TRICK, body)
    assert response.status_code == 400
    assert "plays.1.card" in response.json()["errors"]
    body["plays"][1]["card"] = "acorns-6"  # removed from the 33-card pack
    response = api.post(TRICK, body)
    assert response.status_code == 422
    assert [v["code"] for v in response.json()["violations"]] == ["card_not_in_pack"]


def test_sau_is_read_as_the_ace(api):
    body = {
        "rules": "salzburg",
        "trump": "acorns",
        "plays": [
            {"player": "Anna", "card": "leaves-sau"},
            {"player": "Bert", "card": "leaves-king"},
        ],
    }
    answer = api.post(TRICK, body).json()
    assert answer == {"legal": True, "winner": "Anna", "winning_card": "leaves-ace"}


def test_violations_are_told_in_german_when_asked(api):
    body = plain_deal(trump="hearts")
    response = api.post(DEAL, body, language="de")
    assert response.status_code == 422
    violation = response.json()["violations"][0]
    assert violation == {
        "code": "stay_home_forbidden_hearts",
        "player": "Cilli",
        "message": "Herz ist Trumpf — niemand darf daheimbleiben, also muss Cilli mitgehen.",
    }


def test_violations_are_told_in_english_by_default(api):
    response = api.post(DEAL, plain_deal(trump="hearts"))
    message = response.json()["violations"][0]["message"]
    assert message == "Hearts are trump — nobody may stay home, so Cilli must play."


def test_input_errors_are_told_in_german_too(api):
    body = plain_deal()
    body["rules"] = {"preset": "salzburg", "overrides": {"knock_doubles": 1}}
    errors = api.post(DEAL, body, language="de").json()["errors"]
    assert errors["rules.overrides.knock_doubles"] == ["muss true oder false sein"]


def test_every_violation_code_in_a_response_has_a_message(api):
    body = plain_deal(
        declarer="Zora",
        bid=9,
        trump="spades",
        stayed_home=["Cilli"],
        tricks={"Anna": 7},
        exchanged={"Anna": 9},
    )
    body["dealer"] = "Nobody"
    violations = api.post(DEAL, body).json()["violations"]
    assert len(violations) >= 5
    for v in violations:
        assert v["message"] and "{" not in v["message"] and "Rule broken" not in v["message"]


def test_auction_out_of_turn_muli_is_legal(api):
    body = {
        "rules": "salzburg",
        "players": ["Anna", "Bert", "Cilli", "Dominik"],
        "dealer": "Dominik",
        "calls": [{"player": "Cilli", "call": "muli"}],
    }
    assert api.post(AUCTION, body).json() == {
        "legal": True,
        "declarer": "Cilli",
        "bid": 5,
        "all_passed": False,
        "sitting_out": None,
    }


def test_auction_call_of_wrong_type_is_400(api):
    body = {
        "rules": "salzburg",
        "players": ["Anna", "Bert"],
        "dealer": "Bert",
        "calls": [{"player": "Anna", "call": "double"}],
    }
    response = api.post(AUCTION, body)
    assert response.status_code == 400
    assert "calls.0.call" in response.json()["errors"]


def test_a_trick_with_a_violation_still_names_its_winner(api):
    body = {
        "rules": "salzburg",
        "trump": "acorns",
        "plays": [
            {"player": "Anna", "card": "leaves-ace"},
            {"player": "Bert", "card": "acorns-7", "hand": ["acorns-7", "leaves-8"]},
        ],
    }
    answer = api.post(TRICK, body).json()
    assert answer["winner"] == "Bert"
    assert answer["winning_card"] == "acorns-7"


def test_referee_endpoints_need_no_login_and_no_csrf_token(api):
    # the api fixture enforces CSRF checks like a browser would
    assert api.post(DEAL, plain_deal()).status_code == 200


def test_input_is_not_modified_by_the_referee(api):
    body = plain_deal()
    before = copy.deepcopy(body)
    api.post(DEAL, body)
    assert body == before


def test_a_single_player_auction_is_refused_as_players_count(api):
    body = {"rules": "salzburg", "players": ["Anna"], "dealer": "Anna",
            "calls": [{"player": "Anna", "call": 2}]}
    response = api.post(AUCTION, body)
    assert response.status_code == 422
    assert [v["code"] for v in response.json()["violations"]] == ["players_count"]


@pytest.mark.parametrize("endpoint", [DEAL, AUCTION])
def test_scores_before_that_leave_players_out_are_a_400_naming_them(api, endpoint):
    body = plain_deal() | {"scores_before": {"Bert": 12, "Dominik": 9},
                           "calls": [{"player": "Anna", "call": "muli"}]}
    response = api.post(endpoint, body)
    assert response.status_code == 400
    (message,) = response.json()["errors"]["scores_before"]
    assert "Anna" in message and "Cilli" in message
    assert "Bert" not in message and "Dominik" not in message


def test_empty_scores_before_leave_everybody_out(api):
    response = api.post(DEAL, plain_deal() | {"scores_before": {}})
    assert response.status_code == 400
    assert "scores_before" in response.json()["errors"]


def test_without_scores_before_everybody_starts_at_the_start_score(api):
    response = api.post(DEAL, plain_deal())
    assert response.json()["scores_after"] == {"Anna": 20, "Bert": 18, "Cilli": 22,
                                               "Dominik": 20}


def test_a_blank_name_among_the_counts_answers_400_naming_the_field(api):
    """Found by test_schema_positive: the referee read the counts' names itself and an
    empty one made it raise past the view (a 500)."""
    deal = plain_deal()
    deal["deal"]["exchanged"] = {"": 1}
    response = api.post(DEAL, deal)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["deal.exchanged"]
