"""A write that waits too long for another's lock answers 503 with Retry-After in the
user's language, in time, and changes nothing
(docs/deploy.md, "A write that waits too long"): another connection holds the lock, as a
stuck transaction would. On PostgreSQL
the session's row lock (dealwrite.lock, ``lock_timeout``: SCHREIBER_LOCK_SECONDS); on
SQLite the database's write lock (its busy timeout, made short here)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import Client

from scorepad import dealwrite
from scorepad.models import Deal, Session

from .factories import EVEN, group_with, played, session_at, user

pytestmark = pytest.mark.django_db(transaction=True)

#: The wait a write is given here; the answer must come well before a stuck
#: transaction would end (never, or SQLite's 20 s).
WAIT = 0.5
IN_TIME = 8.0


@pytest.fixture
def table() -> dict[str, Any]:
    anna = user("anna")
    phone = Client()
    phone.force_login(anna)
    return {"anna": anna, "session": session_at(group_with(anna), anna), "phone": phone}


@pytest.fixture
def held(table: dict[str, Any], settings: Any) -> Iterator[None]:
    """Another connection holds the session's lock (PostgreSQL: its row; SQLite: the
    database's write lock) until the test ends."""
    settings.SCHREIBER_LOCK_SECONDS = WAIT
    sqlite = connection.vendor == "sqlite"
    if sqlite:  # this thread's connection is the one the requests use
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {int(WAIT * 1000)}")
    other = connections.create_connection("default")
    with other.cursor() as cursor:
        if sqlite:
            cursor.execute("BEGIN IMMEDIATE")
        else:
            cursor.execute("BEGIN")
            cursor.execute(f"SELECT id FROM {Session._meta.db_table} WHERE id = %s FOR UPDATE",
                           [table["session"].pk])
    try:
        yield
    finally:
        with other.cursor() as cursor:
            cursor.execute("ROLLBACK")
        other.close()
        if sqlite:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA busy_timeout = 20000")


def timed(send: Any) -> tuple[Any, float]:
    start = time.monotonic()
    answer = send()
    return answer, time.monotonic() - start


def test_a_deal_sent_to_the_api_while_another_write_holds_the_lock_answers_503_in_time(
        table, held):
    phone, session = table["phone"], table["session"]
    answer, took = timed(lambda: phone.post(
        f"/api/v1/sessions/{session.pk}/deals/", json.dumps(played("Anna", EVEN)),
        content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"))
    assert answer.status_code == 503 and answer["Retry-After"] == "5"
    assert answer.json() == {"detail": "Eine andere Speicherung läuft noch. Es wurde nichts "
                                       "geändert: Versuch es in ein paar Sekunden noch einmal."}
    assert WAIT * 0.8 <= took < IN_TIME
    assert not Deal.objects.exists()


def test_a_deal_saved_on_the_page_while_another_write_holds_the_lock_answers_503_in_time(
        table, held):
    phone, session = table["phone"], table["session"]
    form = {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns",
            "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1", "number": "1"}
    answer, took = timed(lambda: phone.post(f"/sessions/{session.pk}/deals/new", form,
                                            HTTP_ACCEPT_LANGUAGE="hu"))
    assert answer.status_code == 503 and answer["Retry-After"] == "5"
    assert "Egy másik mentés még folyamatban van" in answer.content.decode()
    assert WAIT * 0.8 <= took < IN_TIME
    assert not Deal.objects.exists()


def test_once_the_lock_is_free_the_same_deal_is_recorded(table):
    phone, session = table["phone"], table["session"]
    answer = phone.post(f"/api/v1/sessions/{session.pk}/deals/",
                        json.dumps(played("Anna", EVEN)), content_type="application/json")
    assert answer.status_code == 201 and Deal.objects.count() == 1


def test_the_lock_is_taken_only_inside_a_transaction(table):
    with pytest.raises(RuntimeError, match="outside a transaction"):
        dealwrite.lock(table["session"].pk)
    with transaction.atomic():
        assert dealwrite.lock(table["session"].pk).next_number == 1
