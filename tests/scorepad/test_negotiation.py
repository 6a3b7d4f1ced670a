"""Content negotiation (scorepad.api.negotiation.FormatFirst): what phones and API clients
send takes JSON at once; anything else is negotiated as DRF does."""

from __future__ import annotations

import pytest
from django.test import Client

from .factories import group_with, session_at, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_url():
    anna = user("anna")
    return anna, f"/api/v1/sessions/{session_at(group_with(anna), anna).pk}/scoreboard"


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", " application/json ",
                                    "application/json; indent=2", "text/html, */*;q=0.8"])
def test_json_is_answered_to_every_accept_that_takes_it(board_url, accept):
    anna, url = board_url
    client = Client()
    client.force_login(anna)
    extra = {} if accept is None else {"HTTP_ACCEPT": accept}
    answer = client.get(url, **extra)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/json")
    assert answer.json()["next_number"] == 1


def test_an_accept_without_json_is_not_acceptable(board_url):
    anna, url = board_url
    client = Client()
    client.force_login(anna)
    assert client.get(url, HTTP_ACCEPT="text/html").status_code == 406


def test_drf_passes_the_accepts_parameters_on(board_url):
    anna, _url = board_url
    client = Client()
    client.force_login(anna)
    answer = client.get("/api/v1/groups/", HTTP_ACCEPT="application/json; indent=2")
    assert b'\n  {' in answer.content  # indented: DRF's negotiation kept the parameter
    assert b"\n" not in client.get("/api/v1/groups/").content
