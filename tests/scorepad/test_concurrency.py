"""Two (or twenty) phones writing at once: exactly one wins, nothing is lost or doubled;
a burst of requests from one address gets a limit's count and no more.

Real threads, each with its own database connection, against the suite's database
(a file for SQLite, so that connections share it; PostgreSQL in CI).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from rest_framework.authtoken.models import Token

from scorepad.models import Deal, DealEvent, Guest, Session

from .factories import EVEN, group_with, played, record, session_at, user

pytestmark = pytest.mark.django_db(transaction=True)

WRITERS = 20


def race(n: int, action: Any) -> list[Any]:
    """Run ``action(i)`` in n threads released at the same moment; return the results."""
    start = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = action(i)
        except Exception as e:  # noqa: BLE001 - reported by the assertions below
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


@pytest.fixture
def setup() -> dict[str, Any]:
    owner = user("owner")
    session = session_at(group_with(owner), owner)
    token = Token.objects.create(user=owner).key
    return {"owner": owner, "session": session, "auth": f"Token {token}"}


def post(setup: dict[str, Any], path: str, body: Any, **headers: str) -> Any:
    return Client().post(path, json.dumps(body), content_type="application/json",
                         HTTP_AUTHORIZATION=setup["auth"], **headers)


def test_twenty_phones_recording_the_next_deal_store_exactly_one(setup):
    url = f"/api/v1/sessions/{setup['session'].pk}/deals/"
    results = race(WRITERS, lambda i: post(setup, url, {**played("Anna", EVEN), "number": 1}))
    statuses = Counter(getattr(r, "status_code", repr(r)) for r in results)
    assert statuses == {201: 1, 409: WRITERS - 1}, statuses
    assert Deal.objects.count() == 1
    assert DealEvent.objects.count() == 1


def test_twenty_phones_correcting_one_deal_one_wins_the_rest_get_409(setup):
    record(setup["session"], setup["owner"], played("Anna", EVEN))
    url = f"/api/v1/sessions/{setup['session'].pk}/deals/1/"
    declarers = ["Anna", "Bert", "Cilli", "Dominik"]

    def correct(i: int) -> Any:
        declarer = declarers[i % 4]
        tricks = {p: 2 if p == declarer else 1 for p in declarers}
        return Client().put(url, json.dumps({**played(declarer, tricks), "version": 1}),
                            content_type="application/json",
                            HTTP_AUTHORIZATION=setup["auth"])

    statuses = Counter(getattr(r, "status_code", repr(r)) for r in race(WRITERS, correct))
    assert statuses == {200: 1, 409: WRITERS - 1}, statuses
    deal = Deal.objects.get()
    assert deal.version == 2
    assert DealEvent.objects.filter(action="update").count() == 1


def test_the_same_idempotency_key_sent_twice_at_once_records_one_deal(setup):
    url = f"/api/v1/sessions/{setup['session'].pk}/deals/"
    results = race(2, lambda i: post(setup, url, played("Anna", EVEN),
                                     HTTP_IDEMPOTENCY_KEY="double-tap"))
    assert [getattr(r, "status_code", repr(r)) for r in results] == [201, 201]
    assert results[0].json() == results[1].json()
    assert Deal.objects.count() == 1


def test_racing_writers_without_numbers_each_record_in_turn(setup):
    """Without a number, every deal is a new one: all are kept, numbered 1..n, none lost."""
    url = f"/api/v1/sessions/{setup['session'].pk}/deals/"
    results = race(8, lambda i: post(setup, url, {"kind": "passed"}))
    assert Counter(getattr(r, "status_code", repr(r)) for r in results) == {201: 8}
    assert sorted(Deal.objects.values_list("number", flat=True)) == list(range(1, 9))


# --- limits per address: no burst passes them (scorepad/limits.py) ---------------------------

BURST = 30


def test_a_burst_of_starts_without_an_account_gets_the_limit_and_no_more(settings):
    settings.SCHREIBER_GUEST_SESSIONS_PER_HOUR = 20
    start = {"preset": "salzburg", "seat_0": "Anna", "seat_1": "Bert", "seat_2": "Cilli",
             "seat_3": "Dominik"}
    results = race(BURST, lambda i: Client().post("/play/", start, REMOTE_ADDR="203.0.113.30"))
    statuses = Counter(getattr(r, "status_code", repr(r)) for r in results)
    assert statuses == {302: 20, 429: BURST - 20}, statuses
    assert Session.objects.count() == 20 and Guest.objects.count() == 20


def test_a_burst_of_sign_ups_gets_the_limit_and_no_more(settings):
    settings.SCHREIBER_SIGNUPS_PER_HOUR = 10

    def sign_up(i: int) -> Any:
        return Client().post("/api/v1/auth/register",
                             json.dumps({"username": f"burst{i}", "password": "kartenspiel-2026"}),
                             content_type="application/json", REMOTE_ADDR="203.0.113.31")

    statuses = Counter(getattr(r, "status_code", repr(r)) for r in race(BURST, sign_up))
    assert statuses == {201: 10, 429: BURST - 10}, statuses
    assert get_user_model().objects.filter(username__startswith="burst").count() == 10


def test_a_burst_of_guessed_passwords_gets_the_lockouts_five_guesses(settings, monkeypatch):
    User = get_user_model()
    user("anna")
    checked = []
    check_password = User.check_password

    def counted(self: Any, raw: str) -> bool:
        checked.append(raw)
        return bool(check_password(self, raw))

    monkeypatch.setattr(User, "check_password", counted)

    def guess(i: int) -> Any:
        return Client().post("/api/v1/auth/token",
                             json.dumps({"username": "anna", "password": f"guess-{i}"}),
                             content_type="application/json", REMOTE_ADDR="203.0.113.32")

    statuses = Counter(getattr(r, "status_code", repr(r)) for r in race(BURST, guess))
    assert len(checked) == settings.AXES_FAILURE_LIMIT, statuses
    assert set(statuses) == {400, 429}, statuses
    right = Client().post("/api/v1/auth/token",
                          json.dumps({"username": "anna", "password": "s3cret-pass!"}),
                          content_type="application/json", REMOTE_ADDR="203.0.113.32")
    assert right.status_code == 429
