"""Ids typed, tampered with or put into URLs: one bounded parser (scorepad/ids.py).

An id is ASCII digits from 1 to 2**63 - 1 (the largest BIGINT); anything else (a
superscript "²", which str.isdigit() accepts, Arabic-Indic digits, which int() accepts,
a sign, blanks, a number past the database's range) finds nothing: a 404 on pages and in
URLs, a 400 naming the field in an API body. Never a 500 (the property test of the pages
once met ``OverflowError: Python int too large to convert to SQLite INTEGER``).
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from scorepad.ids import ID_MAX, parse_id

from .factories import group_with, member, session_at, user

pytestmark = pytest.mark.django_db

HUGE = "9" * 25
NOT_IDS = ["", " 1", "1 ", "+1", "-1", "0", "00", "1_0", "1.0", "²", "١٢", "１２",
           str(ID_MAX + 1), HUGE, "0x1f", "1e3"]


@pytest.mark.parametrize("value", NOT_IDS)
def test_it_refuses_what_is_not_a_plain_id(value):
    assert parse_id(value) is None


@pytest.mark.parametrize("value", [0, -1, ID_MAX + 1, True, 1.0, None, [], b"1"])
def test_it_refuses_values_that_are_not_ids(value):
    assert parse_id(value) is None


def test_it_reads_plain_ids_up_to_the_largest_bigint():
    assert parse_id("1") == 1
    assert parse_id("0042") == 42
    assert parse_id(str(ID_MAX)) == ID_MAX
    assert parse_id(7) == 7
    assert parse_id("12", most=10) is None


@pytest.fixture
def owner_phone():
    anna = user("anna")
    group = group_with(anna)
    session = session_at(group, anna)
    bert = user("bert")
    member(group, bert, "viewer")
    client = Client(raise_request_exception=False)
    client.force_login(anna)
    return {"client": client, "group": group, "session": session, "bert": bert}


@pytest.mark.parametrize("value", ["²", HUGE, str(ID_MAX + 1), "١٢"])
def test_linking_a_player_to_a_strange_account_id_is_refused_on_the_page(owner_phone, value):
    player = owner_phone["group"].players.get(name="Anna")
    answer = owner_phone["client"].post(f"/players/{player.pk}/link", {"user": value})
    assert answer.status_code == 200
    assert "is not a member of this group" in answer.content.decode()
    player.refresh_from_db()
    assert player.user_id is None


def test_the_arabic_digits_of_a_members_id_are_not_that_member(owner_phone):
    bert = owner_phone["bert"]
    arabic = "".join("٠١٢٣٤٥٦٧٨٩"[int(d)] for d in str(bert.pk))
    player = owner_phone["group"].players.get(name="Bert")
    answer = owner_phone["client"].post(f"/players/{player.pk}/link", {"user": arabic})
    assert answer.status_code == 200
    player.refresh_from_db()
    assert player.user_id is None


@pytest.mark.parametrize("value", ["²", HUGE, "١", "-1"])
def test_an_import_into_a_strange_group_id_is_a_400_naming_the_group(owner_phone, value):
    answer = owner_phone["client"].post(
        f"/api/v1/sessions/import?group={value}", json.dumps({"format": "schreiber"}),
        content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["problems"][0]["path"] == "group"


@pytest.mark.parametrize("value", [2**63, 10**30])
def test_a_session_in_a_group_past_the_id_range_is_a_400_naming_the_group(owner_phone, value):
    answer = owner_phone["client"].post(
        "/api/v1/sessions/", json.dumps({"group": value, "rules": "salzburg",
                                         "seats": ["A", "B", "C"]}),
        content_type="application/json")
    assert answer.status_code == 400
    assert "group" in answer.json()["errors"]


@pytest.mark.parametrize("path", [
    "/groups/{huge}/", "/sessions/{huge}/", "/sessions/{s}/deals/{huge}/edit",
    "/players/{huge}/", "/sessions/{huge}/board", "/api/v1/groups/{huge}/players/",
    "/api/v1/sessions/{s}/deals/{huge}/", "/api/v1/players/{huge}/stats",
])
@pytest.mark.parametrize("huge", [HUGE, str(ID_MAX + 1)])
def test_urls_with_ids_past_the_range_are_404(owner_phone, path, huge):
    url = path.format(huge=huge, s=owner_phone["session"].pk)
    assert owner_phone["client"].get(url).status_code == 404


@pytest.mark.parametrize("field", ["correcting", "number", "version", "player", "revoke"])
@pytest.mark.parametrize("value", ["²", HUGE, "١"])
def test_hidden_ids_of_the_forms_never_make_a_500(owner_phone, field, value):
    session, group = owner_phone["session"], owner_phone["group"]
    client = owner_phone["client"]
    for url in (f"/sessions/{session.pk}/check", f"/sessions/{session.pk}/deals/new",
                f"/groups/{group.pk}/", f"/groups/{group.pk}/invites"):
        answer = client.post(url, {field: value, "name": "Zoë", "kind": "passed"})
        assert answer.status_code < 500, (url, field, value)
    answer = client.get(f"/sessions/{session.pk}/fresh", {"number": value})
    assert answer.status_code < 500


@pytest.mark.parametrize(("value", "count"), [
    ("0", 0), ("7", 7), (0, 0), ("-1", None), (" 3", None), ("3.0", None), ("²", None),
    ("", None), (None, None), (True, None), ("99999999999999999999", None),
])
def test_a_count_typed_into_a_form_is_read_by_the_same_parser_from_zero(value, count):
    from scorepad.ids import parse_count

    assert parse_count(value) == count
