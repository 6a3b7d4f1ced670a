"""The tournament API (docs/tournaments.md): making a tournament, registering, drawing and
closing rounds, table codes (their own table only, ended with the round), the ranking
with its ETag, and the public screen with hidden rounds."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scorepad import accounts, games, services
from scorepad.models import Tournament

from .factories import group_with, member, user
from .tournament_play import NAMES

pytestmark = pytest.mark.django_db

GAMES = games.for_tournaments()
ENDS_WITH_GAME = [g for g in GAMES if games.get(g).TOURNAMENT.ends_with_game][0]
DEALS_ONLY = [g for g in GAMES if not games.get(g).TOURNAMENT.ends_with_game][0]


class Api:
    def __init__(self, auth: str | None) -> None:
        self.client = Client()
        self.headers = {"HTTP_AUTHORIZATION": auth} if auth else {}

    def call(self, method: str, path: str, body: Any = None, **extra: Any) -> Any:
        kwargs = {**self.headers, **extra}
        if body is not None:
            kwargs |= {"data": json.dumps(body), "content_type": "application/json"}
        return getattr(self.client, method)(path, **kwargs)


@pytest.fixture
def group(anna):
    return group_with(anna)


@pytest.fixture
def director(anna):
    return Api(f"Token {accounts.token_of(user=anna)}")


def _make(director, group, players=8, **kw):
    body = {"group": group.pk, "name": "Preis-Abend", "game": ENDS_WITH_GAME,
            "rules": "geiser", "rounds": 2, "round_ends": "game", "table_size": 4,
            "scoring": "placement", "draw": "random", **kw}
    made = director.call("post", "/api/v1/tournaments/", body)
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for name in NAMES[:players]:
        assert director.call("post", f"/api/v1/tournaments/{tid}/players/",
                             {"name": name}).status_code == 201
    return made.json()


def _table_api(code):
    return Api(f"Table {code}")


def _finish(api, session_id, winner, seats):
    for _ in range(2):
        data = sweep_by(seats, winner)
        answer = api.call("post", f"/api/v1/sessions/{session_id}/deals/", data)
        assert answer.status_code == 201, answer.content


def sweep_by(seats, winner):
    tricks = dict.fromkeys(seats, 0)
    tricks[winner] = 5
    return {"kind": "played", "declarer": winner, "bid": 4, "trump": "hearts",
            "tricks": tricks, "stayed_home": []}


def test_a_tournament_is_made_with_an_id_and_a_public_screen_url(director, group):
    made = _make(director, group, players=0)
    assert made["status"] == "registering" and made["screen_url"].startswith("http")
    assert made["rounds_total"] == 2 and made["rounds"] == [] and made["players"] == []
    assert made["game"] == ENDS_WITH_GAME and made["rules"]["start_score"] == 15


def test_a_game_without_an_end_needs_round_ends_deals_and_deals_per_round(director, group):
    body = {"group": group.pk, "name": "M", "game": DEALS_ONLY, "rounds": 2,
            "round_ends": "game", "table_size": 4, "scoring": "score", "draw": "random"}
    refused = director.call("post", "/api/v1/tournaments/", body)
    assert refused.status_code == 400 and "round_ends" in refused.json()["errors"]
    missing = director.call("post", "/api/v1/tournaments/", body | {"round_ends": "deals"})
    assert missing.status_code == 400 and "deals_per_round" in missing.json()["errors"]
    made = director.call("post", "/api/v1/tournaments/",
                         body | {"round_ends": "deals", "deals_per_round": 3})
    assert made.status_code == 201 and made.json()["deals_per_round"] == 3


def test_players_register_with_start_numbers_and_a_name_twice_is_a_400_naming_name(
        director, group):
    made = _make(director, group, players=3)
    path = f"/api/v1/tournaments/{made['id']}/players/"
    again = director.call("post", path, {"name": "ANNA"})
    assert again.status_code == 400 and list(again.json()["errors"]) == ["name"]
    listed = director.call("get", path).json()
    assert [(p["name"], p["number"], p["withdrawn"]) for p in listed] == [
        ("Anna", 1, False), ("Bert", 2, False), ("Cilli", 3, False)]
    gone = director.call("delete", path, {"name": "Bert"})
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True
    detail = director.call("get", f"/api/v1/tournaments/{made['id']}/").json()
    assert [p["withdrawn"] for p in detail["players"]] == [False, True, False]


def test_a_whole_round_by_the_api_with_table_codes(director, group):
    made = _make(director, group, players=8)
    tid = made["id"]
    drawn = director.call("post", f"/api/v1/tournaments/{tid}/rounds/")
    assert drawn.status_code == 201, drawn.content
    body = drawn.json()
    assert body["number"] == 1 and [t["table"] for t in body["tables"]] == [1, 2]
    for table in body["tables"]:
        assert set(table) >= {"table", "session", "seats", "dealer", "table_code"}
        assert table["dealer"] in table["seats"] and len(table["seats"]) == 4
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/").status_code == 409
    one, two = body["tables"]
    phone = _table_api(one["table_code"])
    # its own table: read, record, correct
    assert phone.call("get", f"/api/v1/sessions/{one['session']}/").status_code == 200
    assert phone.call("get", f"/api/v1/sessions/{one['session']}/scoreboard").status_code \
        == 200
    # nothing else: the other table, the tournament, the watch link, closing the session
    assert phone.call("get", f"/api/v1/sessions/{two['session']}/").status_code == 401
    assert phone.call("post", f"/api/v1/sessions/{two['session']}/deals/",
                      sweep_by(two["seats"], two["seats"][0])).status_code == 401
    assert phone.call("get", f"/api/v1/tournaments/{tid}/").status_code == 401
    assert phone.call("get", "/api/v1/sessions/").status_code == 401
    assert phone.call("post", f"/api/v1/sessions/{one['session']}/watch-link"
                      ).status_code == 401
    assert phone.call("patch", f"/api/v1/sessions/{one['session']}/",
                      {"status": "closed"}).status_code == 401
    assert _table_api("x" * 43).call("get", f"/api/v1/sessions/{one['session']}/"
                                     ).status_code == 401
    _finish(phone, one["session"], one["seats"][1], one["seats"])
    refused = phone.call("post", f"/api/v1/sessions/{one['session']}/deals/",
                         sweep_by(one["seats"], one["seats"][1]))
    assert refused.status_code == 422
    assert [v["code"] for v in refused.json()["violations"]] == ["table_finished"]
    # a table code corrects its own deal (and a key sent twice writes once)
    fix = phone.call("put", f"/api/v1/sessions/{one['session']}/deals/2/",
                     sweep_by(one["seats"], one["seats"][1]), HTTP_IDEMPOTENCY_KEY="k1")
    assert fix.status_code == 200, fix.content
    again = phone.call("put", f"/api/v1/sessions/{one['session']}/deals/2/",
                       sweep_by(one["seats"], one["seats"][1]), HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    unfinished = director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close")
    assert unfinished.status_code == 409 and unfinished.json()["tables"] == [2]
    assert "detail" in unfinished.json()
    forced = director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close",
                           {"force": True})
    assert forced.status_code == 200 and forced.json()["status"] == "closed"
    # the code ended with the round
    assert phone.call("get", f"/api/v1/sessions/{one['session']}/").status_code == 401
    finished = director.call("post", f"/api/v1/sessions/{one['session']}/deals/",
                             sweep_by(one["seats"], one["seats"][2]))
    assert finished.status_code == 422  # a finished table says so, its round closed or not
    assert finished.json()["violations"][0]["code"] == "table_finished"
    # the director still corrects a closed round's table (now unfinished: 15, 15, 35, 35)
    fix = director.call("put", f"/api/v1/sessions/{one['session']}/deals/2/",
                        sweep_by(one["seats"], one["seats"][2]))
    assert fix.status_code == 200, fix.content
    new = director.call("post", f"/api/v1/sessions/{one['session']}/deals/",
                        sweep_by(one["seats"], one["seats"][2]))
    assert new.status_code == 409  # unfinished, but closed to new deals with its round


def test_the_ranking_has_an_etag_and_follows_a_correction(director, group):
    made = _make(director, group, players=4, rounds=1)
    tid = made["id"]
    table = director.call("post", f"/api/v1/tournaments/{tid}/rounds/").json()["tables"][0]
    _finish(director, table["session"], table["seats"][0], table["seats"])
    assert director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close"
                         ).status_code == 200
    path = f"/api/v1/tournaments/{tid}/ranking"
    first = director.call("get", path)
    assert first.status_code == 200 and first["ETag"]
    body = first.json()
    assert body["rounds_closed"] == 1
    top = body["ranking"][0]
    assert (top["place"], top["name"], top["points"], top["score"], top["wins"]) == (
        1, table["seats"][0], "3.00", "20.00", 1)
    assert top["rounds"] == [{"round": 1, "table": 1, "place": 1, "points": "3.00",
                              "score": "20.00"}]
    others = body["ranking"][1:]
    assert {o["points"] for o in others} == {"1.00"} and {o["place"] for o in others} == {2}
    assert director.call("get", path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    director.call("delete", f"/api/v1/sessions/{table['session']}/deals/2/")
    moved = director.call("get", path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    # one deal left: the sweeper 15 − 5 = 10, the others −10
    assert moved.json()["ranking"][0]["score"] == "10.00"


def test_a_viewer_reads_but_does_not_direct_and_a_stranger_sees_nothing(director, group):
    made = _make(director, group, players=4)
    bert = user("bert")
    member(group, bert, "viewer")
    viewer = Api(f"Token {accounts.token_of(user=bert)}")
    tid = made["id"]
    assert viewer.call("get", f"/api/v1/tournaments/{tid}/").status_code == 200
    assert viewer.call("post", f"/api/v1/tournaments/{tid}/rounds/").status_code == 403
    assert viewer.call("post", f"/api/v1/tournaments/{tid}/players/",
                       {"name": "Zora"}).status_code == 403
    stranger = Api(f"Token {accounts.token_of(user=user('zora'))}")
    assert stranger.call("get", f"/api/v1/tournaments/{tid}/").status_code == 404
    assert stranger.call("get", f"/api/v1/tournaments/{tid}/ranking").status_code == 404
    director.call("post", f"/api/v1/tournaments/{tid}/rounds/")
    seen = viewer.call("get", f"/api/v1/tournaments/{tid}/").json()
    assert {t["table_code"] for t in seen["rounds"][0]["tables"]} == {None}


def test_the_screen_needs_no_login_and_hides_the_last_rounds(director, group):
    made = _make(director, group, players=4, rounds=2)
    tid = made["id"]
    table = director.call("post", f"/api/v1/tournaments/{tid}/rounds/").json()["tables"][0]
    _finish(director, table["session"], table["seats"][3], table["seats"])
    director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close")
    screen = Client().get(made["screen_url"])
    assert screen.status_code == 200
    page = screen.content.decode()
    assert table["seats"][3] in page and "3.00" in page and "20.00" in page
    hidden = director.call("patch", f"/api/v1/tournaments/{tid}/", {"screen_hides_rounds": 1})
    assert hidden.status_code == 200 and hidden.json()["screen_hides_rounds"] == 1
    page = Client().get(made["screen_url"]).content.decode()
    assert "20.00" not in page and "3.00" not in page
    # the ranking API still has it
    assert director.call("get", f"/api/v1/tournaments/{tid}/ranking").json()[
        "rounds_closed"] == 1
    # the polled part answers 304 while nothing changed
    board = made["screen_url"] + "board"
    first = Client().get(board)
    assert first.status_code == 200
    assert Client().get(board, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert Client().get(made["screen_url"].replace(made["screen_url"].rsplit("/", 2)[1],
                                                   "x" * 43)).status_code == 404


def test_the_screen_shows_the_open_rounds_tables_live(director, group):
    made = _make(director, group, players=4)
    table = director.call("post", f"/api/v1/tournaments/{made['id']}/rounds/"
                          ).json()["tables"][0]
    before = Client().get(made["screen_url"] + "live")
    director.call("post", f"/api/v1/sessions/{table['session']}/deals/",
                  sweep_by(table["seats"], table["seats"][0]))
    after = Client().get(made["screen_url"] + "live", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert "10.00" in after.content.decode()  # 15 − 5 for the sweeper


def test_ending_the_tournament(director, group):
    made = _make(director, group, players=4, rounds=1)
    tid = made["id"]
    table = director.call("post", f"/api/v1/tournaments/{tid}/rounds/").json()["tables"][0]
    assert director.call("patch", f"/api/v1/tournaments/{tid}/",
                         {"status": "finished"}).status_code == 409
    _finish(director, table["session"], table["seats"][0], table["seats"])
    director.call("post", f"/api/v1/tournaments/{tid}/rounds/1/close")
    late = director.call("post", f"/api/v1/tournaments/{tid}/players/", {"name": "Zora"})
    assert late.status_code == 409
    done = director.call("patch", f"/api/v1/tournaments/{tid}/", {"status": "finished"})
    assert done.status_code == 200 and done.json()["status"] == "finished"
    assert Tournament.objects.get(pk=tid).finished_at is not None
    assert services.Names  # the tables stay ordinary sessions
