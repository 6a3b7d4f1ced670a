"""A lost database connection (PostgreSQL restarting) answers 503 with Retry-After and a
short page or JSON body, never a 500; the next request just works.

The database is "lost" by making every statement fail the way psycopg fails while the
server restarts (OperationalError / InterfaceError); the fault run against a real
PostgreSQL restart is in the issue's note (gunicorn, a loop of deal POSTs).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client

from .factories import group_with, session_at, user

pytestmark = pytest.mark.django_db


@contextmanager
def database_down(monkeypatch: pytest.MonkeyPatch, error: type[Exception] = OperationalError,
                  ) -> Iterator[None]:
    def fail(self: Any, *args: Any, **kwargs: Any) -> None:
        raise error("terminating connection due to administrator command")

    with monkeypatch.context() as m:
        m.setattr(CursorWrapper, "execute", fail)
        m.setattr(CursorWrapper, "executemany", fail)
        yield


@pytest.fixture
def table() -> dict[str, Any]:
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    phone = Client(raise_request_exception=False)
    phone.force_login(anna)
    return {"session": session, "phone": phone}


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_page_answers_503_with_retry_after_and_a_short_page(table, monkeypatch, error):
    with database_down(monkeypatch, error):
        answer = table["phone"].get(f"/sessions/{table['session'].pk}/",
                                    HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert answer["Content-Type"].startswith("text/html")
    assert "Datenbank" in answer.content.decode()
    assert answer["Cache-Control"].startswith("no-store") or "no-cache" in answer[
        "Cache-Control"]


def test_an_api_call_answers_503_in_json(table, monkeypatch):
    body = {"deal": {"kind": "collapsed"}}
    with database_down(monkeypatch):
        answer = table["phone"].post(f"/api/v1/sessions/{table['session'].pk}/deals/",
                                     json.dumps(body), content_type="application/json")
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert "detail" in answer.json()


def test_a_poll_answers_503_and_the_next_one_works(table, monkeypatch):
    url = f"/sessions/{table['session'].pk}/board"
    with database_down(monkeypatch):
        assert table["phone"].get(url).status_code == 503
    assert table["phone"].get(url).status_code == 200


def test_an_anonymous_page_answers_503_too(monkeypatch):
    with database_down(monkeypatch):
        answer = Client(raise_request_exception=False).post(
            "/accounts/login/", {"username": "anna", "password": "x"})
    assert answer.status_code == 503


def test_a_deal_form_post_answers_503_and_records_nothing(table, monkeypatch):
    session = table["session"]
    with database_down(monkeypatch):
        answer = table["phone"].post(f"/sessions/{session.pk}/deals/new",
                                     {"kind": "collapsed", "number": "1"})
    assert answer.status_code == 503
    assert session.deals.count() == 0


def test_other_errors_are_still_500(table, monkeypatch):
    from scorepad.views import session

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(session, "render_session", broken)
    answer = table["phone"].get(f"/sessions/{table['session'].pk}/")
    assert answer.status_code == 500


def test_a_connection_lost_outside_a_view_is_a_503_from_the_error_handler(rf):
    """A middleware that saves the session after the view is beyond process_exception:
    handler500 answers 503 for it all the same."""
    from scorepad.views import server_error

    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        page = server_error(rf.get("/sessions/1/"))
        api = server_error(rf.get("/api/v1/sessions/1/"))
    assert (page.status_code, api.status_code) == (503, 503)
    assert api["Retry-After"] and "detail" in json.loads(api.content)
    try:
        raise KeyError("a bug")
    except KeyError:
        assert server_error(rf.get("/api/v1/sessions/1/")).status_code == 500
