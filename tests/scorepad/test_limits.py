"""Input limits: every list and map is bounded, names are short, bodies are small; going
over answers a clear 400 (413 for the body) naming the field, and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scorepad.models import Deal, Player, Session

from .factories import Api

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
MANY = [f"P{i}" for i in range(13)]  # one more than the 12 players a table may have


def _start(api: Api, game: str = "mulatschak", seats: list[str] | None = None) -> str:
    group = api.call("post", "/api/v1/groups/", {"name": f"G {game}"}).json()
    session = api.call("post", "/api/v1/sessions/", {
        "group": group["id"], "game": game, "seats": seats or SEATS}).json()
    return f"/api/v1/sessions/{session['id']}"


def _names_field(answer: Any, field: str) -> None:
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert any(key == field or key.startswith(field + ".") for key in body["errors"]), body
    assert field.split(".")[0] in body["detail"]


def test_an_api_body_over_the_limit_answers_413_in_json_and_changes_nothing(anna_api, settings):
    base = _start(anna_api)
    huge = json.dumps({"kind": "passed", "padding": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE)})
    answer = anna_api.client.post(f"{base}/deals/", huge, content_type="application/json",
                              **anna_api.headers)
    assert answer.status_code == 413
    assert answer["Content-Type"] == "application/json"
    assert "256 KB" in answer.json()["detail"] and "body" in answer.json()["errors"]
    assert Deal.objects.count() == 0


def test_the_referee_api_refuses_an_oversized_body_too():
    answer = Client().post("/api/v1/referee/mulatschak/deal", "[" + "1," * 200_000 + "1]",
                           content_type="application/json")
    assert answer.status_code == 413 and answer.json()["detail"]


def test_a_player_name_longer_than_40_characters_is_refused_by_name(anna_api):
    group = anna_api.call("post", "/api/v1/groups/", {"name": "G"}).json()
    answer = anna_api.call("post", f"/api/v1/groups/{group['id']}/players/", {"name": "x" * 41})
    _names_field(answer, "name")
    assert Player.objects.count() == 0


def test_a_seat_name_longer_than_40_characters_is_refused_by_name(anna_api):
    group = anna_api.call("post", "/api/v1/groups/", {"name": "G"}).json()
    answer = anna_api.call("post", "/api/v1/sessions/", {
        "group": group["id"], "seats": ["x" * 41, "Bert", "Cilli", "Dominik"]})
    _names_field(answer, "seats")
    assert Session.objects.count() == 0


def test_a_group_name_longer_than_80_characters_is_refused(anna_api):
    _names_field(anna_api.call("post", "/api/v1/groups/", {"name": "x" * 81}), "name")


def test_more_than_12_seats_are_refused(anna_api):
    group = anna_api.call("post", "/api/v1/groups/", {"name": "G"}).json()
    _names_field(anna_api.call("post", "/api/v1/sessions/", {"group": group["id"], "seats": MANY}),
                 "seats")
    assert Session.objects.count() == 0


@pytest.mark.parametrize("field, value", [
    ("stayed_home", MANY),
    ("tricks", dict.fromkeys(MANY, 0)),
    ("exchanged", dict.fromkeys(MANY, 0)),
])
def test_every_list_and_map_of_a_mulatschak_deal_is_bounded(anna_api, field, value):
    base = _start(anna_api)
    deal = {"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
            "tricks": {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}, field: value}
    _names_field(anna_api.call("post", f"{base}/deals/", deal), field)
    assert Deal.objects.count() == 0


def test_a_mura_deal_has_at_most_16_tricks_and_12_cards_a_trick(anna_api):
    base = _start(anna_api, "mura")
    trick = {"leader": "Anna", "cards": {"Anna": "hearts-ace"}}
    _names_field(anna_api.call("post", f"{base}/deals/", {"trick_cards": [trick] * 17}),
                 "trick_cards")
    crowded = {"leader": "Anna", "cards": dict.fromkeys(MANY, "hearts-ace")}
    _names_field(anna_api.call("post", f"{base}/deals/", {"trick_cards": [crowded]}),
                 "trick_cards")
    assert Deal.objects.count() == 0


def test_a_muller_matz_finishing_order_is_bounded(anna_api):
    base = _start(anna_api, "muller_matz", seats=["Anna", "Bert", "Cilli"])
    _names_field(anna_api.call("post", f"{base}/deals/", {"finish_order": MANY}), "finish_order")
    assert Deal.objects.count() == 0


def test_an_auction_has_at_most_60_calls():
    body = {"rules": "salzburg", "players": SEATS, "dealer": "Dominik",
            "calls": [{"player": "Anna", "call": "pass"}] * 61}
    answer = Client().post("/api/v1/referee/mulatschak/auction", json.dumps(body),
                           content_type="application/json")
    _names_field(answer, "calls")


def test_rule_overrides_are_bounded_to_known_parameters(anna_api):
    group = anna_api.call("post", "/api/v1/groups/", {"name": "G"}).json()
    overrides = {f"made_up_{i}": 1 for i in range(50)}
    answer = anna_api.call("post", "/api/v1/sessions/", {
        "group": group["id"], "seats": SEATS,
        "rules": {"preset": "salzburg", "overrides": overrides}})
    assert answer.status_code == 400
    assert any("made_up_" in key or "rules" in key for key in answer.json()["errors"])
    assert Session.objects.count() == 0


def test_settlement_penalties_are_bounded():
    body = {"stake": "0.10", "currency": "EUR",
            "penalties": {name: {"mura": 0, "zeros": 0} for name in MANY}}
    answer = Client().post("/api/v1/referee/mura/settle", json.dumps(body),
                           content_type="application/json")
    _names_field(answer, "penalties")


@pytest.mark.parametrize("levels", [40, 1000, 5000])
@pytest.mark.parametrize("where", ["body", "field"])
def test_deeply_nested_json_answers_400_not_500(anna_api, levels, where):
    """json recurses per level: a 2 KB body of [[[...]]] raised RecursionError (a 500)."""
    nested = "[" * levels + "]" * levels
    body = nested if where == "body" else '{"players": ["A", "B"], "deal": ' + nested + '}'
    client = Client(raise_request_exception=False)
    for path, who in (("/api/v1/referee/mulatschak/deal", client), ("/api/v1/groups/", anna_api)):
        headers = {} if who is client else anna_api.headers
        answer = client.post(path, body, content_type="application/json", **headers)
        assert answer.status_code == 400, (path, answer.status_code, answer.content[:200])
        assert "32 levels" in answer.json()["detail"]


def test_nesting_up_to_the_bound_is_parsed_and_judged_as_usual(anna_api):
    from scorepad.api.parsers import MAX_DEPTH, depth

    assert depth({"a": [1, {"b": []}]}) == 4 and depth(7) == 0
    body: dict[str, Any] = {"rules": "salzburg", "players": ["A", "B", "C", "D"],
                            "dealer": "A", "deal": {"kind": "passed"}}
    inner: Any = []
    for _ in range(MAX_DEPTH - 3):
        inner = [inner]
    body["extra"] = inner  # an unknown field, ignored: the deal is still judged
    answer = Client().post("/api/v1/referee/mulatschak/deal", json.dumps(body),
                           content_type="application/json")
    assert depth(body) == MAX_DEPTH - 1
    assert answer.status_code == 200, answer.content
