"""Closing a session (issue 33, "Entry without friction"): a second tap before it closes,
closing and reopening in the session's history with who and when, no "deals next" on the
closed board, and the settlement a big button once a session with a stake is closed."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import services
from scorepad.models import Session, SessionEvent

from .factories import EVEN, member, played, record, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def phone(anna) -> Client:
    client = Client()
    client.force_login(anna)
    return client


def test_closing_and_reopening_go_into_the_history_with_who_and_when(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    phone.post(f"/sessions/{table.pk}/status", {"status": "closed"})
    phone.post(f"/sessions/{table.pk}/status", {"status": "open"})
    events = list(SessionEvent.objects.filter(session=table))
    assert [(e.action, e.user) for e in events] == [("close", anna), ("reopen", anna)]
    page = phone.get(f"/sessions/{table.pk}/history").content.decode()
    deal, closed, reopened = (page.index("Deal 1"), page.index("Session closed"),
                              page.index("Session reopened"))
    assert deal < closed < reopened


def test_setting_the_status_a_session_has_records_nothing(table, anna):
    services.session_set_status(session=table, status="closed", user=anna)
    version = Session.objects.get(pk=table.pk).version
    services.session_set_status(session=table, status="closed", user=anna)
    assert SessionEvent.objects.filter(session=table).count() == 1
    assert Session.objects.get(pk=table.pk).version == version


def test_the_api_records_who_closed_the_session(table):
    from django.contrib.auth import get_user_model

    from .factories import api_for

    rita_api = api_for("rita")
    rita = get_user_model().objects.get(username="rita")
    member(table.group, rita, "editor")
    answer = rita_api.call("patch", f"/api/v1/sessions/{table.pk}/", {"status": "closed"})
    assert answer.status_code == 200
    (event,) = SessionEvent.objects.filter(session=table)
    assert (event.action, event.user) == ("close", rita)


def test_a_refused_status_changes_nothing_and_says_why(phone, table):
    answer = phone.post(f"/sessions/{table.pk}/status", {"status": "gone"}, follow=True)
    assert answer.status_code == 200 and "status" in answer.content.decode()
    assert not SessionEvent.objects.filter(session=table).exists()
    assert Session.objects.get(pk=table.pk).status == "open"


def test_the_session_page_asks_a_second_tap_before_it_closes(phone, table):
    page = phone.get(f"/sessions/{table.pk}/").content.decode()
    ask = page.index('<details class="close-session">')
    assert ask < page.index('name="status" value="closed"') < page.index("</details>", ask)


def test_the_closed_board_says_nobody_deals_next(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    assert 'class="next"' in phone.get(f"/sessions/{table.pk}/").content.decode()
    phone.post(f"/sessions/{table.pk}/status", {"status": "closed"})
    page = phone.get(f"/sessions/{table.pk}/").content.decode()
    board = phone.get(f"/sessions/{table.pk}/board").content.decode()
    assert 'class="next"' not in page and 'class="next"' not in board
    assert "dealer-mark" not in board


def test_a_closed_session_with_a_stake_shows_its_settlement_as_a_button(phone, anna):
    from .factories import group_with

    session = services.session_start(group=group_with(anna, name="Kirtag"), user=anna,
                                     preset="salzburg", overrides=None,
                                     seats=["Anna", "Bert", "Cilli", "Dominik"],
                                     dealer="Dominik", stake="0.10", currency="EUR")
    link = f'href="/sessions/{session.pk}/settlement" class="button primary big"'
    assert link not in phone.get(f"/sessions/{session.pk}/").content.decode()
    phone.post(f"/sessions/{session.pk}/status", {"status": "closed"})
    assert link in phone.get(f"/sessions/{session.pk}/").content.decode()


def test_a_reader_cannot_close_a_session(table):
    reader = user("rosa")
    member(table.group, reader, "viewer")
    client = Client()
    client.force_login(reader)
    assert client.post(f"/sessions/{table.pk}/status", {"status": "closed"}).status_code == 403
    assert not SessionEvent.objects.exists()


def test_the_history_of_another_groups_session_is_not_found(table):
    services.session_set_status(session=table, status="closed")
    stranger = Client()
    stranger.force_login(user("zora"))
    assert stranger.get(f"/sessions/{table.pk}/history").status_code == 404
