"""Points of docs/api.md, "The scorepad API", that an outside audit found answered
differently: every write takes an Idempotency-Key (registration too), open endpoints
ignore a stale token, ``?format=`` wins over the Accept header."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scorepad.models import IdempotencyKey

from .factories import api_for

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/auth/register"


def _post(client: Client, path: str, body: Any, **headers: Any) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json", **headers)


def test_a_registration_sent_twice_with_one_key_creates_one_account_and_answers_alike():
    body = {"username": "greta", "password": "long-enough-pass!"}
    first = _post(Client(), REGISTER, body, HTTP_IDEMPOTENCY_KEY="reg-1")
    again = _post(Client(), REGISTER, body, HTTP_IDEMPOTENCY_KEY="reg-1")
    assert first.status_code == 201, first.content
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert get_user_model().objects.filter(username="greta").count() == 1
    stored = IdempotencyKey.objects.get()
    assert "reg-1" not in stored.key and "long-enough" not in json.dumps(stored.response)
    assert "long-enough" not in stored.fingerprint


def test_a_registration_key_reused_for_another_body_is_refused():
    body = {"username": "greta", "password": "long-enough-pass!"}
    assert _post(Client(), REGISTER, body, HTTP_IDEMPOTENCY_KEY="reg-2").status_code == 201
    other_password = _post(Client(), REGISTER, {**body, "password": "another-pass-123!"},
                           HTTP_IDEMPOTENCY_KEY="reg-2")
    other_name = _post(Client(), REGISTER, {**body, "username": "hanna"},
                       HTTP_IDEMPOTENCY_KEY="reg-2")
    assert other_password.status_code == 400 and "Idempotency-Key" in other_password.json()[
        "detail"]
    assert other_name.status_code == 400
    assert get_user_model().objects.count() == 1
    # without a key, a second registration of the name is the usual 400
    taken = _post(Client(), REGISTER, body)
    assert taken.status_code == 400 and "username" in taken.json()["errors"]


@pytest.mark.parametrize("path", [REGISTER, "/api/v1/auth/token"])
def test_open_endpoints_ignore_a_stale_token_header(path):
    api_for("ida")  # an account to ask a token for
    body = {"username": "ida" if "token" in path else "jon", "password": "kartenspiel-2026"}
    answer = _post(Client(), path, body, HTTP_AUTHORIZATION="Token not-a-token")
    assert answer.status_code in (200, 201), answer.content


def test_csv_export_is_served_whatever_the_client_accepts():
    api = api_for("kai")
    group = api.call("post", "/api/v1/groups/", {"name": "G"}).json()
    session = api.call("post", "/api/v1/sessions/", {
        "group": group["id"], "game": "mulatschak",
        "seats": ["Anna", "Bert", "Cilli", "Dominik"]}).json()
    path = f"/api/v1/sessions/{session['id']}/export?format=csv"
    for accept in ("application/json", "text/csv", "*/*"):
        answer = api.client.get(path, HTTP_ACCEPT=accept, **api.headers)
        assert answer.status_code == 200, (accept, answer.status_code)
        assert answer["Content-Type"].startswith("text/csv")
    assert api.client.get(path.replace("csv", "xml"), **api.headers).status_code == 404
    assert api.client.get(path.replace("csv", ""), **api.headers).status_code == 404
    plain = api.client.get(path.split("?")[0], HTTP_ACCEPT="application/json", **api.headers)
    assert plain.status_code == 200 and plain.json()["format"] == "schreiber"


@pytest.mark.parametrize("game", ["mulatschak", "mura", "muller_matz"])
def test_the_scoreboard_names_the_next_deal_number_also_after_a_removal(game):
    """A removed deal keeps its number in the history, so the next number is not always
    deals + 1: the scoreboard says it, and a POST with it is recorded."""
    api = api_for("lea")
    group = api.call("post", "/api/v1/groups/", {"name": "G"}).json()
    seats = ["Anna", "Bert", "Cilli", "Dominik"]
    session = api.call("post", "/api/v1/sessions/", {
        "group": group["id"], "game": game, "seats": seats}).json()
    base = f"/api/v1/sessions/{session['id']}"
    deal = {"mulatschak": {"kind": "passed"},
            "mura": {"tricks": dict(zip(seats, [2, 2, 2, 2], strict=True)),
                     "figures": dict(zip(seats, [4, 4, 4, 4], strict=True))},
            "muller_matz": {"loser": "Bert"}}[game]
    assert api.call("get", f"{base}/scoreboard").json()["next_number"] == 1
    for number in (1, 2, 3):
        answer = api.call("post", f"{base}/deals/", {**deal, "number": number})
        assert answer.status_code == 201, answer.content
        assert answer.json()["scoreboard"]["next_number"] == number + 1
    assert api.call("delete", f"{base}/deals/3/").status_code == 200
    assert api.call("get", f"{base}/scoreboard").json()["next_number"] == 3
    assert api.call("delete", f"{base}/deals/1/").status_code == 200
    board = api.call("get", f"{base}/scoreboard").json()
    assert board.get("deals", board.get("games_played")) == 1 and board["next_number"] == 3
    stale = api.call("post", f"{base}/deals/", {**deal, "number": 2})
    assert stale.status_code == 409 and stale.json()["scoreboard"]["next_number"] == 3
    assert api.call("post", f"{base}/deals/", {**deal, "number": 3}).status_code == 201
    listed = api.call("get", "/api/v1/sessions/").json()
    assert listed[0]["scoreboard"]["next_number"] == 4
