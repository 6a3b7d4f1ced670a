"""The session page's picture and files for whoever sees the page: the guest who plays it
and its members alike (the API's card and export know accounts alone)."""

from __future__ import annotations

import json

import pytest

from .factories import EVEN, group_with, phone_of, played, record, session_at, user
from .test_guests import FIRST_DEAL, playing

pytestmark = pytest.mark.django_db


def test_a_guest_gets_the_card_and_both_files_of_its_session_the_api_refuses_it():
    phone, session = playing()
    phone.post(f"/sessions/{session.pk}/deals/new", FIRST_DEAL)
    picture = phone.get(f"/sessions/{session.pk}/card.png?theme=dark&lang=hu")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert picture.content.startswith(b"\x89PNG")
    rows = phone.get(f"/sessions/{session.pk}/file.csv")
    assert rows.status_code == 200 and rows["Content-Type"].startswith("text/csv")
    assert "Anna" in rows.content.decode() and "attachment" in rows["Content-Disposition"]
    whole = phone.get(f"/sessions/{session.pk}/file.json")
    assert whole.status_code == 200 and whole.json()["session"]["deals"]
    assert phone.get(f"/api/v1/sessions/{session.pk}/export?format=csv").status_code == 401


def test_the_pages_files_are_the_apis_files():
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    record(session, anna, played("Anna", EVEN))
    phone = phone_of(anna)
    api_csv = phone.get(f"/api/v1/sessions/{session.pk}/export?format=csv")
    api_json = phone.get(f"/api/v1/sessions/{session.pk}/export")
    assert phone.get(f"/sessions/{session.pk}/file.csv").content == api_csv.content
    page_json = json.loads(phone.get(f"/sessions/{session.pk}/file.json").content)
    assert {**page_json, "exported_at": None} == {**api_json.json(), "exported_at": None}


@pytest.mark.parametrize("path", ["file.xlsx", "file.", "card.png?theme=%00&lang=xx"])
def test_an_unknown_file_is_404_and_a_strange_picture_request_the_usual_card(path):
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    answer = phone_of(anna).get(f"/sessions/{session.pk}/{path}")
    assert answer.status_code == (200 if path.startswith("card") else 404)


def test_another_guest_gets_nothing_of_the_session():
    _phone, session = playing()
    other, _own = playing("203.0.113.21")
    for path in ("card.png", "file.csv", "file.json"):
        assert other.get(f"/sessions/{session.pk}/{path}").status_code == 404


def test_the_file_takes_few_queries(django_assert_max_num_queries):
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    record(session, anna, played("Anna", EVEN))
    phone = phone_of(anna)
    with django_assert_max_num_queries(8):
        assert phone.get(f"/sessions/{session.pk}/file.csv").status_code == 200


def test_the_picture_drawn_once_is_answered_with_one_query(django_assert_max_num_queries):
    phone, session = playing()
    assert phone.get(f"/sessions/{session.pk}/card.png").status_code == 200
    with django_assert_max_num_queries(1):   # the session and the role: drawn before
        assert phone.get(f"/sessions/{session.pk}/card.png").status_code == 200
