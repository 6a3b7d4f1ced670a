"""A name holding a line or paragraph separator (U+2028, U+2029: categories Zl and Zp) is
refused like a control or format character, wherever names come in: the services, the
API, the pages, imports and a restored backup. Python counts them as blanks, so they
were folded into a space before (and broke the line wherever the name was shown)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scorepad import rosters, services
from scorepad.transfer import backups, exporting, fileformat, importing

from .factories import EVEN, group_with, played, record, session_at, user

pytestmark = pytest.mark.django_db

BREAKS = ["Anna\u2028Bert", "Anna\u2029", "\u2028"]
#: Inside a name: the API and the pages strip blanks at the ends (U+2028 and U+2029 too,
#: as a tab or a newline), so these reach the service as they are.
INSIDE = ["Anna\u2028Bert", "Mond\u2029see"]


@pytest.fixture
def owner() -> dict[str, Any]:
    anna = user("anna")
    group = group_with(anna)
    client = Client()
    client.force_login(anna)
    return {"user": anna, "group": group, "client": client}


def post(client: Client, path: str, body: Any) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("name", BREAKS)
def test_the_services_refuse_a_line_separator_and_name_it(owner, name):
    for add in (lambda: rosters.player_add(group=owner["group"], name=name),
                lambda: rosters.group_create(user=owner["user"], name=name)):
        with pytest.raises(services.InputError) as caught:
            add()
        assert caught.value.code == "bad_character"
        assert caught.value.params["char"] in ("U+2028", "U+2029")


def test_a_renamed_player_may_not_take_a_paragraph_separator(owner):
    player = rosters.player_add(group=owner["group"], name="Anna")
    with pytest.raises(services.InputError):
        rosters.player_rename(player=player, name="An\u2029na")


@pytest.mark.parametrize("name", INSIDE)
def test_the_api_refuses_a_group_or_player_with_a_line_separator(owner, name):
    assert post(owner["client"], "/api/v1/groups/", {"name": name}).status_code == 400
    answer = post(owner["client"], f"/api/v1/groups/{owner['group'].pk}/players/",
                  {"name": name})
    assert answer.status_code == 400 and "name" in answer.json()["errors"]
    assert owner["group"].players.count() == 0


def test_the_api_refuses_a_seat_with_a_line_separator(owner):
    answer = post(owner["client"], "/api/v1/sessions/",
                  {"group": owner["group"].pk, "game": "mulatschak", "rules": "salzburg",
                   "seats": ["Anna", "Be\u2028rt", "Cilli", "Dominik"]})
    assert answer.status_code == 400, answer.content
    assert owner["group"].sessions.count() == 0


def test_the_group_page_refuses_a_line_separator(owner):
    answer = owner["client"].post(f"/groups/{owner['group'].pk}/", {"name": "An\u2028na"})
    assert answer.status_code == 200
    assert "U+2028" in answer.content.decode()
    assert owner["group"].players.count() == 0


def test_an_import_with_a_line_separator_in_a_seat_is_refused_with_its_path(owner):
    session = session_at(owner["group"], owner["user"])
    record(session, owner["user"], played("Anna", EVEN))
    data = exporting.session_export(session)
    data["session"]["seats"][1] = "Bert\u2028"
    target = group_with(owner["user"], name="Copy")
    answer = post(owner["client"], "/api/v1/sessions/import", {"group": target.pk,
                                                                "data": data})
    assert answer.status_code == 400, answer.content
    assert "session/seats/1" in [p["path"] for p in answer.json()["problems"]]
    assert target.players.count() == 0


def test_a_group_import_with_a_paragraph_separator_in_the_roster_is_refused(owner):
    rosters.player_add(group=owner["group"], name="Anna")
    data = exporting.group_export(owner["group"])
    data["group"]["roster"] = ["Anna", "Zo\u2029e"]
    target = group_with(owner["user"], name="Copy")
    with pytest.raises(fileformat.ImportRejected) as caught:
        importing.group_import(group=target, data=data)
    assert "group/roster/1" in [p.path for p in caught.value.problems]


def test_a_backup_with_a_line_separator_in_a_group_name_is_refused(owner):
    data = backups.backup_export()
    data["groups"][0]["name"] = "Stamm\u2028tisch"
    with pytest.raises(fileformat.ImportRejected) as caught:
        backups.backup_restore(data=data, merge=True)
    assert "groups/0/name" in [p.path for p in caught.value.problems]


def test_plain_blanks_in_a_name_are_still_folded_to_one_space(owner):
    assert rosters.player_add(group=owner["group"], name=" Anna \t Maria\n").name == \
        "Anna Maria"


def test_a_separator_at_the_end_never_reaches_a_stored_name(owner):
    answer = post(owner["client"], f"/api/v1/groups/{owner['group'].pk}/players/",
                  {"name": "Zoe\u2029"})
    assert answer.status_code in (201, 400)
    assert not any("\u2029" in n for n in owner["group"].players.values_list("name",
                                                                             flat=True))
