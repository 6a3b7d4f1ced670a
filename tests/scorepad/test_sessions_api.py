"""The scorepad API (docs/api.md, "The scorepad API"): accounts, groups, sessions, deals,
scoreboard, history."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorepad.models import Group, Membership

from .factories import SEATS, Api, api_for, group_with, member, played, record, session_at, user

pytestmark = pytest.mark.django_db

EVEN = {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}


@pytest.fixture
def table(anna_api: Api) -> dict[str, Any]:
    group = anna_api.call("post", "/api/v1/groups/", {"name": "Stammtisch"}).json()
    session = anna_api.call("post", "/api/v1/sessions/", {
        "group": group["id"], "game": "mulatschak", "rules": "salzburg",
        "seats": SEATS, "dealer": "Dominik"}).json()
    return {"group": group, "session": session, "base": f"/api/v1/sessions/{session['id']}"}


def test_register_checks_the_password_and_the_username():
    api = Api()
    weak = api.call("post", "/api/v1/auth/register", {"username": "bert", "password": "123"})
    assert weak.status_code == 400 and "password" in weak.json()["errors"]
    ok = api.call("post", "/api/v1/auth/register",
                  {"username": "bert", "password": "kartenspiel-2026"})
    assert ok.status_code == 201
    again = api.call("post", "/api/v1/auth/register",
                     {"username": "Bert", "password": "kartenspiel-2026"})
    assert again.status_code == 400 and "username" in again.json()["errors"]


def test_a_wrong_password_gets_no_token():
    api_for("cilli")
    answer = Api().call("post", "/api/v1/auth/token",
                        {"username": "cilli", "password": "wrong-password"})
    assert answer.status_code == 400


def test_the_scorepad_needs_a_login():
    assert Api().call("get", "/api/v1/groups/").status_code == 401


def test_a_session_starts_with_the_scoreboard(table):
    board = table["session"]["scoreboard"]
    assert board["scores"] == dict.fromkeys(SEATS, 21)
    assert board["next_dealer"] == "Dominik"
    assert table["session"]["seats"] == SEATS
    assert table["session"]["rules"]["start_score"] == 21


def test_a_session_with_bad_rules_names_the_parameter(anna_api, table):
    answer = anna_api.call("post", "/api/v1/sessions/", {
        "group": table["group"]["id"], "rules": {"preset": "salzburg",
                                                 "overrides": {"knock_doubles": 2}},
        "seats": SEATS})
    assert answer.status_code == 400
    assert "rules.overrides.knock_doubles" in answer.json()["errors"]


def test_recording_a_deal_answers_201_with_the_new_scores(anna_api, table):
    answer = anna_api.call("post", f"{table['base']}/deals/", played("Anna", EVEN))
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["deal"]["number"] == 1
    assert body["deal"]["dealer"] == "Dominik"
    assert body["deal"]["deltas"] == {"Anna": -2, "Bert": -1, "Cilli": -1, "Dominik": -1}
    assert body["scoreboard"]["scores"]["Anna"] == 19
    assert body["scoreboard"]["next_dealer"] == "Anna"


def test_an_illegal_deal_answers_422_with_names(anna_api, table):
    answer = anna_api.call("post", f"{table['base']}/deals/",
                       played("Anna", EVEN, trump="hearts", stayed_home=["Bert"]),
                       HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 422
    violation = answer.json()["violations"][0]
    assert violation["player"] == "Bert"
    assert "Bert" in violation["message"] and "Herz" in violation["message"]


def test_malformed_deals_answer_400(anna_api, table):
    answer = anna_api.call("post", f"{table['base']}/deals/", {"kind": "played", "bid": "two"})
    assert answer.status_code == 400
    assert "bid" in answer.json()["errors"]


@pytest.mark.parametrize(("number", "german"), [
    ("1", "muss eine ganze Zahl sein"), (0, "muss mindestens 1 sein"),
    (1_000_001, "darf höchstens 1000000 sein")])
def test_a_bad_deal_number_answers_400_naming_it_in_the_requests_language(anna_api, table, number,
                                                                          german):
    answer = anna_api.call("post", f"{table['base']}/deals/", {"kind": "passed", "number": number},
                       HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"number": [german]}


def test_a_deal_number_already_taken_answers_409_with_the_scoreboard(anna_api, table):
    assert anna_api.call("post", f"{table['base']}/deals/",
                     {**played("Anna", EVEN), "number": 1}).status_code == 201
    answer = anna_api.call("post", f"{table['base']}/deals/", {**played("Bert", EVEN), "number": 1})
    assert answer.status_code == 409
    assert answer.json()["scoreboard"]["deals"] == 1


def test_correcting_and_deleting_keep_the_history(anna_api, table):
    base = table["base"]
    anna_api.call("post", f"{base}/deals/", played("Anna", EVEN))
    anna_api.call("post", f"{base}/deals/", played("Bert", EVEN))
    deal = anna_api.call("get", f"{base}/deals/1/").json()
    fixed = anna_api.call("put", f"{base}/deals/1/",
                      {**played("Cilli", {"Anna": 1, "Bert": 1, "Cilli": 2, "Dominik": 1}),
                       "version": deal["version"]})
    assert fixed.status_code == 200, fixed.json()
    stale = anna_api.call("put", f"{base}/deals/1/", {**played("Anna", EVEN), "version": 1})
    assert stale.status_code == 409
    assert anna_api.call("delete", f"{base}/deals/2/").status_code == 200
    history = anna_api.call("get", f"{base}/history").json()
    assert [(e["action"], e["deal_number"]) for e in history] == [
        ("create", 1), ("create", 2), ("update", 1), ("delete", 2)]
    assert history[2]["before"]["declarer"] == "Anna"
    assert history[2]["after"]["declarer"] == "Cilli"
    assert history[2]["user"] == "anna"


def test_the_scoreboard_answers_304_when_nothing_changed(anna_api, table):
    first = anna_api.call("get", f"{table['base']}/scoreboard")
    etag = first["ETag"]
    again = anna_api.call("get", f"{table['base']}/scoreboard", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    anna_api.call("post", f"{table['base']}/deals/", played("Anna", EVEN))
    changed = anna_api.call("get", f"{table['base']}/scoreboard", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_closing_a_session_stops_recording(anna_api, table):
    closed = anna_api.call("patch", f"{table['base']}/", {"status": "closed"})
    assert closed.json()["status"] == "closed"
    assert anna_api.call("post", f"{table['base']}/deals/", played("Anna", EVEN)).status_code == 409
    listed = anna_api.call("get", "/api/v1/sessions/?status=closed").json()
    assert [s["id"] for s in listed] == [table["session"]["id"]]


def test_other_peoples_groups_and_sessions_are_404(table):
    bert = api_for("bert")
    assert bert.call("get", table["base"] + "/").status_code == 404
    assert bert.call("get", f"/api/v1/groups/{table['group']['id']}/players/").status_code == 404
    assert bert.call("post", f"{table['base']}/deals/", played("Anna", EVEN)).status_code == 404
    assert bert.call("get", "/api/v1/groups/").json() == []


def test_viewers_read_but_may_not_write(anna_api, table):
    bert = api_for("bert")
    invited = anna_api.call("post", f"/api/v1/groups/{table['group']['id']}/members/",
                        {"username": "bert", "role": "viewer"})
    assert invited.status_code == 202
    assert bert.call("get", f"{table['base']}/scoreboard").status_code == 404  # not yet
    invitation = invited.json()["invitation"]["id"]
    assert bert.call("post", f"/api/v1/invitations/{invitation}/accept").status_code == 200
    assert bert.call("get", f"{table['base']}/scoreboard").status_code == 200
    assert bert.call("post", f"{table['base']}/deals/", played("Anna", EVEN)).status_code == 403


def test_the_roster_keeps_names_unique_and_renames_keep_history(anna_api, table):
    gid = table["group"]["id"]
    taken = anna_api.call("post", f"/api/v1/groups/{gid}/players/", {"name": "anna"})
    assert taken.status_code == 400
    anna_api.call("post", f"{table['base']}/deals/", played("Anna", EVEN))
    players = anna_api.call("get", f"/api/v1/groups/{gid}/players/").json()
    anna_id = next(p["id"] for p in players if p["name"] == "Anna")
    renamed = anna_api.call("patch", f"/api/v1/groups/{gid}/players/{anna_id}/", {"name": "Anni"})
    assert renamed.status_code == 200
    deal = anna_api.call("get", f"{table['base']}/deals/1/").json()
    assert deal["deal"]["declarer"] == "Anni"


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("path", ["scoreboard", "deals/"])
def test_the_scoreboard_and_deal_entry_cost_the_same_however_long_the_session(path):
    owner = user("owner")
    session = session_at(group_with(owner), owner)
    client = Client()
    client.force_login(owner)
    url = f"/api/v1/sessions/{session.pk}/{path}"

    def hit():
        if path == "deals/":
            response = client.post(url, json.dumps(played("Anna", EVEN)),
                                   content_type="application/json")
            assert response.status_code == 201, response.json()
        else:
            assert client.get(url).status_code == 200

    hit()  # the first request of a member fills the caches (scorepad.cache)
    for _ in range(3):
        record(session, owner, played("Anna", EVEN))
    short = _queries(hit)
    for _ in range(20):
        record(session, owner, {"kind": "passed"})
    long = _queries(hit)
    assert short == long


def test_the_members_endpoint_keeps_an_owner(anna_api, table):
    gid = table["group"]["id"]
    answer = anna_api.call("post", f"/api/v1/groups/{gid}/members/",
                       {"username": "anna", "role": "viewer"})
    assert answer.status_code == 400


def test_a_member_added_by_username_sees_the_group():
    owner = user("sepp")
    group = group_with(owner)
    resi = user("resi")
    member(group, resi, "editor")
    client = Client()
    client.force_login(resi)
    assert [g["id"] for g in client.get("/api/v1/groups/").json()] == [group.pk]


def test_unknown_api_paths_answer_json_404(anna_api):
    response = anna_api.call("get", "/api/v1/sessions/not-a-number/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_an_unknown_status_filter_answers_400(anna_api):
    response = anna_api.call("get", "/api/v1/sessions/?status=someday")
    assert response.status_code == 400 and "status" in response.json()["errors"]


def test_a_member_is_removed_by_the_username_in_the_query(anna_api, table):
    """The schema names the member to remove in the query: a DELETE's body is not
    something every client sends (a JSON body is still taken)."""
    gid = table["group"]["id"]
    member(Group.objects.get(pk=gid), user("resi"), "viewer")
    answer = anna_api.call("delete", f"/api/v1/groups/{gid}/members/?username=resi")
    assert answer.status_code == 204
    assert not Membership.objects.filter(group_id=gid, user__username="resi").exists()


@pytest.mark.parametrize("name", ["\ud92e", "\x00", "x" * 41])
def test_a_card_by_card_mura_deal_naming_a_bad_player_is_a_400_naming_the_cards(name):
    """Found by the positive schema cases on PostgreSQL: the cards of a trick were keyed
    by names nobody checked, and a lone surrogate reached the database (a 500)."""
    from rest_framework.authtoken.models import Token

    from .factories import game_start

    anna = user("anna")
    session = game_start(anna, "mura")
    body = json.dumps({"trick_cards": [{"leader": "Anna", "cards": {name: "hearts-7"}}]})
    answer = Client().post(f"/api/v1/sessions/{session.pk}/deals/", body,
                           content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=anna).key}")
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["trick_cards.0.cards"]
