"""No input answers 500, and names are what they look like (issue 12, section 3).

- a stake is checked against its column (14 digits, 4 places: 10 before the point), not
  only against the referee's 12 digits: PostgreSQL refused the row with a 500;
- an import runs the API's field checks: a NUL or a lone surrogate in a name or a
  history user answers 400 with the field's path (a 500 before on PostgreSQL, silently
  stored on SQLite);
- player and group names are normalised (NFKC), refuse control and format characters
  (zero-width spaces, bidi overrides) and clash with another name of the group after
  case-folding ("Straße" is "STRASSE").
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from django.test import Client

from scorepad import rosters, services
from scorepad.transfer import exporting

from .factories import EVEN, group_with, played, record, session_at, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> dict[str, Any]:
    anna = user("anna")
    group = group_with(anna)
    client = Client(raise_request_exception=False)
    client.force_login(anna)
    return {"user": anna, "group": group, "client": client}


def post(client: Client, path: str, body: Any, **headers: str) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json", **headers)


# --- stakes --------------------------------------------------------------------------------


@pytest.mark.parametrize("stake", ["12345678901.23", "99999999999", "123456789012"])
def test_a_stake_larger_than_its_column_is_a_400_naming_the_stake(owner, stake):
    answer = post(owner["client"], "/api/v1/sessions/",
                  {"group": owner["group"].pk, "game": "mura", "seats": ["A", "B", "C", "D"],
                   "stake": stake, "currency": "EUR"}, HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400, answer.content
    errors = answer.json()["errors"]
    assert list(errors) == ["stake"]
    assert "10" in errors["stake"][0] and "Stellen" in errors["stake"][0]
    assert owner["group"].sessions.count() == 0


def test_the_largest_stake_the_column_holds_is_taken(owner):
    answer = post(owner["client"], "/api/v1/sessions/",
                  {"group": owner["group"].pk, "game": "mura", "seats": ["A", "B", "C", "D"],
                   "stake": "9999999999.99", "currency": "EUR"})
    assert answer.status_code == 201, answer.content
    assert str(owner["group"].sessions.get().stake) == "9999999999.9900"


def test_the_start_page_names_a_stake_that_is_too_large(owner):
    answer = owner["client"].post("/sessions/new/", {
        "group": owner["group"].pk, "game": "mura", "preset": "salzburg",
        "seat_0": "A", "seat_1": "B", "seat_2": "C", "seat_3": "D",
        "stake": "12345678901.23", "currency": "EUR"})
    assert answer.status_code == 200
    assert "at most 10 digits before the decimal point" in answer.content.decode()
    assert owner["group"].sessions.count() == 0


# --- names ---------------------------------------------------------------------------------

INVISIBLE = ["\u200b\u200b", "An\u200bna", "\u202eanna", "Anna\u2066", "\ufeffBert",
             "Cil\u00adli", "P\x00a", "Tab\tbed\x07", "P\ud800"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_player_name_with_control_or_format_characters_is_refused(owner, name):
    answer = post(owner["client"], f"/api/v1/groups/{owner['group'].pk}/players/",
                  {"name": name})
    assert answer.status_code == 400, (name, answer.content)
    assert "name" in answer.json()["errors"]
    assert owner["group"].players.count() == 0


@pytest.mark.parametrize("name", ["\u200b\u200b", "Mondsee\u202e", "\x00"])
def test_a_group_name_with_control_or_format_characters_is_refused(owner, name):
    answer = post(owner["client"], "/api/v1/groups/", {"name": name})
    assert answer.status_code == 400, (name, answer.content)
    assert "name" in answer.json()["errors"]


def test_the_service_names_the_character_in_the_users_language(owner):
    with pytest.raises(services.InputError) as caught:
        rosters.player_add(group=owner["group"], name="An\u200bna")
    assert caught.value.code == "bad_character"
    assert caught.value.params["char"] == "U+200B"
    answer = post(owner["client"], f"/api/v1/groups/{owner['group'].pk}/players/",
                  {"name": "An\u200bna"}, HTTP_ACCEPT_LANGUAGE="hu")
    assert "U+200B" in answer.json()["errors"]["name"][0]


def test_names_are_stored_in_nfkc(owner):
    player = rosters.player_add(group=owner["group"], name="Ｚｏë ﬁx")  # fullwidth, ligature
    assert player.name == "Zoë fix"
    assert player.name == unicodedata.normalize("NFKC", player.name)
    decomposed = rosters.player_add(group=owner["group"], name="Zoe\u0301")
    assert decomposed.name == "Zoé"
    group = rosters.group_create(user=owner["user"], name="Stammtisch Ⅱ")
    assert group.name == "Stammtisch II"


@pytest.mark.parametrize(("first", "second"), [
    ("Straße", "STRASSE"), ("anna", "ANNA"), ("Zoé", "Zoe\u0301"), ("Anna", "Ａnna"),
])
def test_a_name_equal_to_another_after_case_folding_is_taken(owner, first, second):
    rosters.player_add(group=owner["group"], name=first)
    with pytest.raises(services.InputError) as caught:
        rosters.player_add(group=owner["group"], name=second)
    assert caught.value.code == "name_taken"
    other = rosters.player_add(group=owner["group"], name="Bert")
    with pytest.raises(services.InputError):
        rosters.player_rename(player=other, name=second)
    assert owner["group"].players.count() == 2


def test_a_seat_matches_the_roster_after_case_folding(owner):
    rosters.player_add(group=owner["group"], name="Straße")
    session = services.session_start(group=owner["group"], user=owner["user"],
                                     preset="salzburg", overrides=None,
                                     seats=["STRASSE", "Bert", "Cilli"])
    assert [s.player.name for s in session.seats.select_related("player")] == [
        "Straße", "Bert", "Cilli"]
    assert owner["group"].players.count() == 3


def test_seating_the_same_name_twice_after_case_folding_is_refused(owner):
    with pytest.raises(services.InputError) as caught:
        services.session_start(group=owner["group"], user=owner["user"], preset="salzburg",
                               overrides=None, seats=["Straße", "STRASSE", "Cilli"])
    assert caught.value.code == "seated_twice"


def test_renaming_a_player_to_their_own_name_in_another_case_is_allowed(owner):
    player = rosters.player_add(group=owner["group"], name="strasse")
    assert rosters.player_rename(player=player, name="Straße").name == "Straße"


def test_the_group_page_refuses_an_invisible_name(owner):
    answer = owner["client"].post(f"/groups/{owner['group'].pk}/", {"name": "An\u200bna"})
    assert answer.status_code == 200
    assert "U+200B" in answer.content.decode()
    assert owner["group"].players.count() == 0


# --- imports ---------------------------------------------------------------------------------


def exported(owner: dict[str, Any]) -> dict[str, Any]:
    session = session_at(owner["group"], owner["user"])
    record(session, owner["user"], played("Anna", EVEN))
    return exporting.session_export(session)


@pytest.mark.parametrize("bad", ["P\x00a", "P\ud800", "An\u200bna"])
def test_an_import_with_a_bad_seat_name_is_a_400_with_the_seat_path(owner, bad):
    data = exported(owner)
    data["session"]["seats"][1] = bad
    target = group_with(owner["user"], name="Copy")
    answer = post(owner["client"], "/api/v1/sessions/import",
                  {"group": target.pk, "data": data})
    assert answer.status_code == 400, answer.content
    paths = [p["path"] for p in answer.json()["problems"]]
    assert "session/seats/1" in paths
    assert target.sessions.count() == 0 and target.players.count() == 0


@pytest.mark.parametrize("bad", ["an\x00na", "anna\ud800"])
def test_an_import_with_a_bad_history_user_is_a_400_with_the_user_path(owner, bad):
    data = exported(owner)
    data["session"]["history"][0]["user"] = bad
    target = group_with(owner["user"], name="Copy")
    answer = post(owner["client"], "/api/v1/sessions/import",
                  {"group": target.pk, "data": data})
    assert answer.status_code == 400, answer.content
    paths = [p["path"] for p in answer.json()["problems"]]
    assert paths == ["session/history/0/user"]
    assert target.sessions.count() == 0


@pytest.mark.parametrize("bad", ["x\x00", "\ud800"])
def test_an_import_with_a_bad_text_inside_the_history_is_a_400_with_its_path(owner, bad):
    data = exported(owner)
    data["session"]["history"][0]["after"]["note"] = bad
    data["session"]["history"][0]["after"][bad] = 1
    target = group_with(owner["user"], name="Copy")
    answer = post(owner["client"], "/api/v1/sessions/import",
                  {"group": target.pk, "data": data})
    assert answer.status_code == 400, answer.content
    paths = [p["path"] for p in answer.json()["problems"]]
    assert "session/history/0/after/note" in paths
    assert target.sessions.count() == 0


def test_an_upload_with_a_nul_in_a_seat_lists_the_problem_on_the_group_page(owner):
    import io

    data = exported(owner)
    data["session"]["seats"][2] = "Ci\x00lli"
    target = group_with(owner["user"], name="Copy")
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "session.json"
    answer = owner["client"].post(f"/groups/{target.pk}/import", {"file": upload})
    assert answer.status_code == 200
    assert "session/seats/2" in answer.content.decode()
    assert target.sessions.count() == 0
