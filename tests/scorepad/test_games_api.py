"""Mura and Müller Matz sessions through the API, and money in every game family."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from referee.money import Penalty, settle
from scorepad.models import Deal

from .factories import EVEN, group_with, played, user

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


@pytest.fixture
def owner():
    return user("owner")


@pytest.fixture
def api(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def call(client: Client, method: str, url: str, body: Any = None) -> Any:
    if body is None:
        return getattr(client, method)(url)
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


def start(api: Client, owner, game: str, seats=SEATS, **more) -> dict[str, Any]:
    group = group_with(owner, name=f"G-{game}")
    answer = call(api, "post", "/api/v1/sessions/",
                  {"group": group.pk, "game": game, "seats": seats, **more})
    assert answer.status_code == 201, answer.json()
    return answer.json()


def mura(tricks, figures) -> dict[str, Any]:
    return {"tricks": dict(zip(SEATS, tricks, strict=True)),
            "figures": dict(zip(SEATS, figures, strict=True))}


def test_a_mura_session_keeps_mura_zeros_and_money(api, owner):
    session = start(api, owner, "mura", stake="0.20", currency="EUR", dealer="Dominik")
    base = f"/api/v1/sessions/{session['id']}"
    first = call(api, "post", f"{base}/deals/", mura([2, 3, 3, 0], [2, 9, 7, 0]))
    assert first.status_code == 201, first.json()
    call(api, "post", f"{base}/deals/", mura([4, 2, 2, 0], [2, 8, 8, 0]))
    board = call(api, "get", f"{base}/scoreboard").json()
    assert board["mura"] == {"Anna": 6, "Bert": 0, "Cilli": 0, "Dominik": 0}
    assert board["zeros"] == {"Anna": 0, "Bert": 0, "Cilli": 0, "Dominik": 2}
    assert board["zeros_to_next_mura"]["Dominik"] == 7
    assert board["next_dealer"] == "Bert"  # Dominik → Anna → Bert: to the right
    expected = settle(Decimal("0.20"), "EUR", {"Anna": Penalty(6, 0), "Bert": Penalty(0, 0),
                                              "Cilli": Penalty(0, 0), "Dominik": Penalty(0, 2)})
    assert board["balances"] == {k: str(v) for k, v in expected.balances.items()}
    money = call(api, "get", f"{base}/settlement").json()
    assert money["transfers"] == [t.as_dict() for t in expected.transfers]
    assert money["pairs"] == [p.as_dict() for p in expected.pairs]


def test_a_mura_session_needs_four_players(api, owner):
    group = group_with(owner, name="three")
    answer = call(api, "post", "/api/v1/sessions/",
                  {"group": group.pk, "game": "mura", "seats": SEATS[:3]})
    assert answer.status_code == 400 and "seats" in answer.json()["errors"]


def test_an_illegal_mura_deal_answers_422_and_a_malformed_one_400(api, owner):
    base = f"/api/v1/sessions/{start(api, owner, 'mura')['id']}"
    bad = call(api, "post", f"{base}/deals/", mura([2, 3, 3, 1], [2, 9, 7, 0]))
    assert bad.status_code == 422
    assert "tricks_sum" in [v["code"] for v in bad.json()["violations"]]
    malformed = call(api, "post", f"{base}/deals/", {"tricks": {"Anna": 8}})
    assert malformed.status_code == 400 and "figures" in malformed.json()["errors"]
    assert Deal.objects.count() == 0


def test_correcting_a_mura_deal_replays_the_tally(api, owner):
    base = f"/api/v1/sessions/{start(api, owner, 'mura')['id']}"
    call(api, "post", f"{base}/deals/", mura([2, 3, 3, 0], [2, 9, 7, 0]))
    fixed = call(api, "put", f"{base}/deals/1/", mura([2, 3, 3, 0], [4, 8, 6, 0]))
    assert fixed.status_code == 200, fixed.json()
    assert fixed.json()["scoreboard"]["mura"]["Anna"] == 0


def test_a_muller_matz_session_counts_losses_and_settles_the_stake(api, owner):
    session = start(api, owner, "muller_matz", seats=SEATS + ["Erwin"], stake="1",
                    currency="EUR")
    base = f"/api/v1/sessions/{session['id']}"
    assert call(api, "post", f"{base}/deals/", {"loser": "Cilli"}).status_code == 201
    order = {"finish_order": ["Anna", "Bert", "Cilli", "Erwin", "Dominik"]}
    assert call(api, "post", f"{base}/deals/", order).status_code == 201
    board = call(api, "get", f"{base}/scoreboard").json()
    assert board["losses"] == {"Anna": 0, "Bert": 0, "Cilli": 1, "Dominik": 1, "Erwin": 0}
    assert board["games_played"] == 2
    assert board["packs"] == 2  # five players play with two packs
    assert board["balances"] == {"Anna": "2.00", "Bert": "2.00", "Cilli": "-3.00",
                                 "Dominik": "-3.00", "Erwin": "2.00"}
    money = call(api, "get", f"{base}/settlement").json()
    assert sum(Decimal(t["amount"]) for t in money["transfers"]) == Decimal("6.00")


def test_a_muller_matz_game_naming_nobody_is_400_and_a_stranger_422(api, owner):
    base = f"/api/v1/sessions/{start(api, owner, 'muller_matz')['id']}"
    assert call(api, "post", f"{base}/deals/", {}).status_code == 400
    assert call(api, "post", f"{base}/deals/", {"loser": "Zora"}).status_code == 422


def test_a_mulatschak_stake_is_settled_by_the_difference_to_the_winner(api, owner):
    session = start(api, owner, "mulatschak", rules={
        "preset": "salzburg", "overrides": {"start_score": 2, "no_bid_at_or_below": None,
                                            "must_play_at_or_below": None,
                                            "no_exchange_at_or_below": None}},
        stake="0.10", currency="EUR")
    base = f"/api/v1/sessions/{session['id']}"
    call(api, "post", f"{base}/deals/", played("Anna", EVEN))  # Anna reaches 0
    money = call(api, "get", f"{base}/settlement").json()
    assert money["balances"] == {"Anna": "0.30", "Bert": "-0.10", "Cilli": "-0.10",
                                 "Dominik": "-0.10"}


@pytest.mark.parametrize(("stake", "currency", "field"), [
    ("0.505", "EUR", "stake"), ("1", "XYZ", "currency"), ("1", "", "currency"),
    ("-1", "EUR", "stake")])
def test_a_bad_stake_is_refused_naming_the_field(api, owner, stake, currency, field):
    group = group_with(owner, name="bad-stake")
    answer = call(api, "post", "/api/v1/sessions/", {
        "group": group.pk, "game": "mura", "seats": SEATS, "stake": stake,
        "currency": currency})
    assert answer.status_code == 400 and field in answer.json()["errors"], answer.json()


def test_without_a_stake_there_is_no_money(api, owner):
    base = f"/api/v1/sessions/{start(api, owner, 'mura')['id']}"
    money = call(api, "get", f"{base}/settlement").json()
    assert money["stake"] is None and money["transfers"] == []
    assert money["balances"] == dict.fromkeys(SEATS, "0.00")


@pytest.mark.parametrize("game", ["mura", "muller_matz"])
def test_the_scoreboard_keeps_its_balances_without_a_stake(api, owner, game):
    """Mura and Müller Matz scoreboards always carry balances (docs/api.md,
    "The scorepad API"): all zero without a stake."""
    sid = start(api, owner, game)["id"]
    board = call(api, "get", f"/api/v1/sessions/{sid}/scoreboard").json()
    assert board["balances"] == dict.fromkeys(SEATS, "0.00")
    page = api.get(f"/sessions/{sid}/")
    assert page.status_code == 200 and "scoreboard" in page.content.decode()
    assert "0.00" not in page.content.decode()  # no money column without a stake
