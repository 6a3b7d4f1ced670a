"""Two (or twenty) phones writing at once: exactly one wins, nothing is lost or doubled.

Real threads, each with its own database connection, against the suite's database
(a file for SQLite, so that connections share it; PostgreSQL in CI).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from rest_framework.authtoken.models import Token

from scorepad.models import Deal, DealEvent

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
