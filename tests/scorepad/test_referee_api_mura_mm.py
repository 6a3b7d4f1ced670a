"""The referee API for Mura and Müller Matz (docs/api.md, "The referee API"), beyond the worked
examples."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

# Requests pass the whole middleware stack (sessions, login throttling, connection health
# checks), which may read the database even for the stateless referee.
pytestmark = pytest.mark.django_db


MURA = "/api/v1/referee/mura/deal"
SETTLE = "/api/v1/referee/mura/settle"
BEAT = "/api/v1/referee/muller-matz/beat"
SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


def counts(tricks: list[int], figures: list[int]) -> dict[str, Any]:
    return {
        "players": SEATS,
        "tricks": dict(zip(SEATS, tricks, strict=True)),
        "figures": dict(zip(SEATS, figures, strict=True)),
    }


def settle_body(**changes: Any) -> dict[str, Any]:
    body = {
        "stake": "0.50",
        "currency": "EUR",
        "penalties": {
            "Anna": {"mura": 3, "zeros": 2},
            "Bert": {"mura": 0, "zeros": 0},
            "Cilli": {"mura": 1, "zeros": 9},
            "Dominik": {"mura": 0, "zeros": 1},
        },
    }
    body.update(changes)
    return body


def test_a_mura_deal_with_every_count_problem_reports_them_all(api):
    response = api.post(MURA, counts([3, 3, 3, 0], [2, 9, 7, 1]))
    assert response.status_code == 422
    codes = [v["code"] for v in response.json()["violations"]]
    assert "tricks_sum" in codes and "figures_without_tricks" in codes


def test_mura_violations_are_told_in_german(api):
    response = api.post(MURA, counts([2, 3, 3, 0], [2, 9, 7, 2]), language="de")
    messages = [v["message"] for v in response.json()["violations"]]
    assert "Dominik hat keinen Stich und kann keine Figuren haben." in messages


def _card_by_card_deal() -> list[dict[str, Any]]:
    """Eight tricks where each player simply plays one suit: Anna hearts, Bert bells..."""
    ranks = ["10", "9", "ace", "king", "ober", "unter", "8", "7"]
    suits = {"Anna": "hearts", "Bert": "bells", "Cilli": "leaves", "Dominik": "acorns"}
    return [{"leader": "Anna", "cards": {p: f"{suits[p]}-{rank}" for p in SEATS}} for rank in ranks]


def test_a_mura_deal_card_by_card_derives_tricks_and_figures(api):
    response = api.post(MURA, {"players": SEATS, "trick_cards": _card_by_card_deal()})
    assert response.status_code == 200, response.json()
    results = response.json()["results"]
    # Anna leads hearts every time and nobody else holds a heart: she wins all eight,
    # with her ace counting 3 and the other figures 1 each: 16 + 2 = 18.
    assert results["Anna"] == {"tricks": 8, "figures": 18, "mura": 0, "zero": False}
    assert results["Bert"]["zero"] is True
    assert len(response.json()["tricks"]) == 8


def test_counts_and_trick_cards_together_are_refused(api):
    body = counts([2, 3, 3, 0], [2, 9, 7, 0]) | {"trick_cards": _card_by_card_deal()}
    response = api.post(MURA, body)
    assert response.status_code == 400
    assert {"tricks", "figures"} <= set(response.json()["errors"])


def test_a_garbage_card_in_a_mura_trick_is_400_naming_its_place(api):
    tricks = _card_by_card_deal()
    tricks[2]["cards"]["Bert"] = "bells-eleven"
    response = api.post(MURA, {"players": SEATS, "trick_cards": tricks})
    assert response.status_code == 400
    assert "trick_cards.2.cards.Bert" in response.json()["errors"]


def test_a_french_card_in_a_mura_deal_is_not_in_the_pack(api):
    tricks = _card_by_card_deal()
    tricks[0]["cards"]["Bert"] = "spades-ace"
    response = api.post(MURA, {"players": SEATS, "trick_cards": tricks})
    assert response.status_code == 422
    assert "card_not_in_pack" in [v["code"] for v in response.json()["violations"]]


def test_settlement_balances_add_up_to_zero_and_transfers_realize_them(api):
    body = api.post(SETTLE, settle_body()).json()
    balances = {k: Decimal(v) for k, v in body["balances"].items()}
    assert sum(balances.values()) == 0
    replay = dict.fromkeys(balances, Decimal(0))
    for t in body["transfers"]:
        replay[t["from"]] -= Decimal(t["amount"])
        replay[t["to"]] += Decimal(t["amount"])
    assert replay == balances
    assert len(body["transfers"]) <= len(balances) - 1


def test_settlement_in_yen_has_no_minor_unit(api):
    body = api.post(SETTLE, settle_body(stake="100", currency="JPY")).json()
    assert all("." not in v for v in body["balances"].values())


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"stake": 0.5}, "stake"),
        ({"stake": "0.505"}, "stake"),
        ({"stake": "-1"}, "stake"),
        ({"stake": "0"}, "stake"),
        ({"stake": "1e3"}, "stake"),
        ({"stake": "NaN"}, "stake"),
        ({"currency": "XYZ"}, "currency"),
        ({"currency": 978}, "currency"),
        ({"penalties": {"Anna": {"mura": -1, "zeros": 0}}}, "penalties.Anna.mura"),
        ({"penalties": {"Anna": {"mura": 1}}}, "penalties.Anna.zeros"),
        ({"penalties": {}}, "penalties"),
    ],
)
def test_bad_settlement_input_answers_400_naming_the_field(api, change, field):
    response = api.post(SETTLE, settle_body(**change))
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"], response.json()


def test_a_too_precise_stake_is_explained_in_german(api):
    response = api.post(SETTLE, settle_body(stake="0.505"), language="de")
    assert response.json()["errors"]["stake"] == [
        "darf höchstens 2 Nachkommastellen in dieser Währung haben"
    ]


def test_beat_answers_with_a_reason_in_the_users_language(api):
    body = {"trump": "hearts", "life": 2, "attack": "hearts-9", "defense": "spades-ace"}
    answer = api.post(BEAT, body, language="de").json()
    assert answer["legal"] is False
    assert answer["reason_code"] == "trump_only_beaten_by_higher_trump"
    assert answer["reason"] == "Nein: Trumpf sticht nur ein höherer Trumpf."


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"trump": "bells"}, "trump"),
        ({"life": 3}, "life"),
        ({"life": "1"}, "life"),
        ({"attack": "x-y"}, "attack"),
        ({"defense": "bells-7"}, "defense"),
    ],
)
def test_bad_beat_input_answers_400_naming_the_field(api, change, field):
    body = {"trump": "hearts", "life": 1, "attack": "spades-9", "defense": "spades-queen"}
    body.update(change)
    response = api.post(BEAT, body)
    assert response.status_code == 400
    assert field in response.json()["errors"], response.json()
