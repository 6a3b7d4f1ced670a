"""A session's name, date and note (docs/using.md, "Sessions with a name, a date and a note"):
editable on the session page by those who may write, shown in the lists, in the API, kept
in exports, imports and backups; a bad one is refused naming its field, in the
request's language."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorepad import services
from scorepad.models import Group, Session
from scorepad.transfer import backups, exporting, fileformat, importing

from .factories import EVEN, group_with, member, phone_of, played, record, session_at, user

pytestmark = pytest.mark.django_db

NAME = "Kirtag bei Hőfer–Űrsula"
NOTE = "Bert brachte die Karten.\nNächstes Mal: Mura!"


def describe(session: Session, **about: Any) -> Session:
    return services.session_describe(session=session, **about)


# --- the service ---------------------------------------------------------------------------


def test_a_new_session_is_dated_today_and_has_no_name_or_note(table):
    from django.utils import timezone

    assert table.date == timezone.localdate()
    assert table.name == "" and table.note == ""


def test_it_names_dates_and_notes_a_session_as_a_new_version(table):
    before = table.version
    describe(table, name="  Kirtag   bei Hőfer ", date="2025-11-23", note=" a\r\nb \n")
    table.refresh_from_db()
    assert (table.name, table.date, table.note) == (
        "Kirtag bei Hőfer", datetime.date(2025, 11, 23), "a\nb")
    assert table.version == before + 1


def test_fields_not_given_stay_as_they_are(table):
    describe(table, name="Kirtag", note="x")
    describe(table, date=datetime.date(2024, 1, 2))
    table.refresh_from_db()
    assert (table.name, table.note, table.date) == ("Kirtag", "x", datetime.date(2024, 1, 2))


@pytest.mark.parametrize(("field", "value", "code"), [
    ("name", "a\u200bb", "bad_character"),
    ("name", "x" * 81, "too_long"),
    ("name", 5, "not_string"),
    ("note", "y" * 2001, "too_long"),
    ("note", "bell\x07", "bad_character"),
    ("date", "23.11.2025", "not_date"),
    ("date", "2025-02-30", "not_date"),
    ("date", "", "not_date"),
])
def test_a_bad_field_is_refused_naming_it_and_nothing_changes(table, field, value, code):
    version = table.version
    with pytest.raises(services.InputError) as caught:
        describe(table, **({"note": "kept?"} | {field: value}))
    assert (caught.value.field, caught.value.code) == (field, code)
    table.refresh_from_db()
    assert (table.name, table.note, table.version) == ("", "", version)


def test_every_bad_field_is_named_at_once(table):
    with pytest.raises(services.InputError) as caught:
        describe(table, name="a\x00", date="soon", note="ok")
    assert [p.field for p in caught.value.problems] == ["name", "date"]


def test_a_session_can_start_with_a_name_a_date_and_a_note(anna):
    session = services.session_start(group=group_with(anna), user=anna, preset="salzburg",
                                     seats=["Anna", "Bert", "Cilli"], name=NAME,
                                     date="2025-12-31", note=NOTE)
    assert (session.name, session.date, session.note) == (
        NAME, datetime.date(2025, 12, 31), NOTE)


def test_a_session_with_a_bad_date_does_not_start(anna):
    with pytest.raises(services.InputError) as caught:
        services.session_start(group_name="Neu", user=anna, preset="salzburg",
                               seats=["Anna", "Bert", "Cilli"], date="31.12.")
    assert caught.value.field == "date"
    assert not Group.objects.filter(name="Neu").exists()


# --- the API -------------------------------------------------------------------------------



def _patch(client: Client, session: Session, body: Any, language: str = "en") -> Any:
    return client.patch(f"/api/v1/sessions/{session.pk}/", json.dumps(body),
                        content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


def test_the_api_shows_and_changes_name_date_and_note(anna, table):
    client = phone_of(anna)
    answer = _patch(client, table, {"name": NAME, "date": "2025-11-23", "note": NOTE})
    assert answer.status_code == 200, answer.content
    got = client.get(f"/api/v1/sessions/{table.pk}/").json()
    assert (got["name"], got["date"], got["note"]) == (NAME, "2025-11-23", NOTE)
    listed = client.get("/api/v1/sessions/").json()
    assert listed[0]["name"] == NAME


def test_the_api_closes_and_names_in_one_patch(anna, table):
    answer = _patch(phone_of(anna), table, {"status": "closed", "name": "Schluss"})
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["name"]) == ("closed", "Schluss")


def test_an_empty_patch_is_refused(anna, table):
    assert _patch(phone_of(anna), table, {}).status_code == 400


@pytest.mark.parametrize(("language", "words"), [
    ("en", "must be a date like 2025-11-23"),
    ("de", "muss ein Datum wie 2025-11-23 sein"),
    ("hu", "dátumnak kell lennie"),
])
def test_an_impossible_date_is_refused_naming_the_field_in_the_language(
        anna, table, language, words):
    answer = _patch(phone_of(anna), table, {"date": "2025-02-30"}, language)
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["date"]
    answer = _patch(phone_of(anna), table, {"date": "02/03/2025"}, language)
    assert list(answer.json()["errors"]) == ["date"]


@pytest.mark.parametrize(("language", "words"), [
    ("en", "must be at most 80 characters"),
    ("de", "höchstens 80 Zeichen"),
    ("hu", "legfeljebb 80 karakter"),
])
def test_a_long_name_is_refused_naming_the_field_in_the_language(anna, table, language, words):
    answer = _patch(phone_of(anna), table, {"name": "x" * 81}, language)
    assert answer.status_code == 400
    assert words in json.dumps(answer.json()["errors"]["name"], ensure_ascii=False)


@pytest.mark.parametrize(("language", "words"), [
    ("en", "invisible or control characters (U+200B)"),
    ("de", "U+200B"),
    ("hu", "U+200B"),
])
def test_an_invisible_character_in_the_note_is_refused_naming_it(anna, table, language, words):
    answer = _patch(phone_of(anna), table, {"note": "a\u200bb"}, language)
    assert answer.status_code == 400
    assert words in answer.json()["errors"]["note"][0]


def test_a_viewer_may_not_rename_a_session(anna, table):
    bert = user("bert")
    member(table.group, bert, "viewer")
    assert _patch(phone_of(bert), table, {"name": "Meins"}).status_code == 403


def test_sessions_start_with_their_name_through_the_api(anna, table):
    answer = phone_of(anna).post("/api/v1/sessions/", json.dumps({
        "group": table.group_id, "seats": ["Anna", "Bert", "Cilli"], "name": NAME,
        "date": "2025-01-06", "note": NOTE}), content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["name"], answer.json()["date"]) == (NAME, "2025-01-06")


# --- the pages -----------------------------------------------------------------------------


def test_the_session_page_shows_the_evening_and_a_form_to_change_it(anna, phone, table):
    describe(table, name=NAME, note=NOTE)
    page = phone.get(reverse("scorepad:session", args=[table.pk])).content.decode()
    assert NAME in page
    assert "Bert brachte die Karten.<br>Nächstes Mal: Mura!" in page
    assert reverse("scorepad:session_about", args=[table.pk]) in page


def test_a_viewer_sees_the_evening_but_no_form(anna, table):
    bert = user("bert")
    member(table.group, bert, "viewer")
    describe(table, name=NAME)
    page = phone_of(bert).get(reverse("scorepad:session", args=[table.pk])).content.decode()
    assert NAME in page
    assert reverse("scorepad:session_about", args=[table.pk]) not in page
    answer = phone_of(bert).post(reverse("scorepad:session_about", args=[table.pk]),
                             {"name": "x", "date": "2025-01-01", "note": ""})
    assert answer.status_code == 403


def test_the_form_saves_and_goes_back_to_the_session(anna, phone, table):
    answer = phone.post(reverse("scorepad:session_about", args=[table.pk]),
                        {"name": NAME, "date": "2025-11-23", "note": NOTE})
    assert answer.status_code == 302
    table.refresh_from_db()
    assert (table.name, table.date, table.note) == (NAME, datetime.date(2025, 11, 23), NOTE)
    page = phone.get(answer["Location"]).content.decode()
    assert NAME in page  # a new version: not the page rendered before


@pytest.mark.parametrize(("language", "label", "words"), [
    ("en", "Date", "must be a date like 2025-11-23"),
    ("de", "Datum", "muss ein Datum wie 2025-11-23 sein"),
    ("hu", "Dátum", "dátumnak kell lennie, például 2025-11-23"),
])
def test_the_form_names_a_bad_field_in_the_language(anna, phone, table, language, label,
                                                    words):
    answer = phone.post(reverse("scorepad:session_about", args=[table.pk]),
                        {"name": "Kirtag", "date": "gestern", "note": ""},
                        HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    page = answer.content.decode()
    assert f"{label}: {words}" in page
    table.refresh_from_db()
    assert table.name == ""  # nothing saved


def test_the_lists_show_the_name_and_the_date(anna, phone, table):
    describe(table, name=NAME, date="2025-11-23", note=NOTE)
    for url in (reverse("scorepad:home"), reverse("scorepad:session_list"),
                reverse("scorepad:group_sessions", args=[table.group_id])):
        page = phone.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert NAME in page, url
        assert "23.11.2025" in page, url


def test_the_past_sessions_filter_by_the_evening_s_date(anna, phone, table):
    describe(table, date="2020-05-01")
    url = reverse("scorepad:group_sessions", args=[table.group_id])
    assert "1 session" in phone.get(url + "?since=2020-05-01&until=2020-05-01").content.decode()
    assert "0 sessions" in phone.get(url + "?since=2020-05-02").content.decode()


# --- files ---------------------------------------------------------------------------------


def test_an_export_keeps_them_and_an_import_brings_them_back(anna, table):
    record(table, anna, played("Anna", EVEN))
    describe(table, name=NAME, date="2025-11-23", note=NOTE)
    table.refresh_from_db()
    data = json.loads(json.dumps(exporting.session_export(table)))
    assert (data["session"]["name"], data["session"]["date"], data["session"]["note"]) == (
        NAME, "2025-11-23", NOTE)
    copy = importing.session_import(group=group_with(anna, "Other"), data=data)
    assert (copy.name, copy.date, copy.note) == (NAME, datetime.date(2025, 11, 23), NOTE)


def test_a_file_from_before_names_imports_dated_by_its_start(anna, table):
    data = json.loads(json.dumps(exporting.session_export(table)))
    for field in ("name", "date", "note"):
        del data["session"][field]
    data["session"]["created_at"] = "2024-03-01T22:30:00+00:00"  # 23:30 in Vienna
    copy = importing.session_import(group=group_with(anna, "Other"), data=data)
    assert (copy.name, copy.date, copy.note) == ("", datetime.date(2024, 3, 1), "")


def test_a_bad_date_in_a_file_is_refused_with_its_place(anna, table):
    data = json.loads(json.dumps(exporting.session_export(table)))
    data["session"]["date"] = "2024-13-01"
    with pytest.raises(fileformat.ImportRejected) as caught:
        importing.session_import(group=group_with(anna, "Other"), data=data)
    assert [p.path for p in caught.value.problems] == ["session/date"]


def test_a_backup_keeps_them(anna, table):
    describe(table, name=NAME, date="2025-11-23", note=NOTE)
    data = json.loads(json.dumps(backups.backup_export()))
    backups.backup_restore(data=data, merge=True)
    copy = Session.objects.exclude(pk=table.pk).get()
    assert (copy.name, copy.date, copy.note) == (NAME, datetime.date(2025, 11, 23), NOTE)


def test_a_new_session_of_another_table_starts_without_them(anna, table):
    describe(table, name=NAME)
    other = session_at(table.group, anna, seats=["Anna", "Bert", "Cilli"], dealer=None)
    assert other.name == ""
