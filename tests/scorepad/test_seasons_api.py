"""The season API (docs/tournaments.md, "Seasons"): making, reading, changing and deleting a
season, each wrong field a 400 naming it, who may do what, and the standings with their
ETag and a bounded number of queries."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorepad import accounts, rosters, services
from scorepad.models import Season, Session
from scorepad.seasons import services as seasons
from scorepad.seasons import standings

from .factories import Api, group_with, member, user
from .season_play import day, evening, finished_tournament, season
from .tournament_play import record, sweep

pytestmark = pytest.mark.django_db

BODY = {"name": "Jahreswertung 2026", "game": "mulatschak", "start": "2026-01-01",
        "end": "2026-12-31", "events": "both"}


def api_of(who):
    return Api(accounts.token_of(user=who))


@pytest.fixture
def owner():
    return user("anna")


@pytest.fixture
def club(owner):
    return group_with(owner, "Kartenclub Mondsee")


@pytest.fixture
def api(owner):
    return api_of(owner)


def made(api, club, **more):
    answer = api.call("post", f"/api/v1/groups/{club.pk}/seasons/", {**BODY, **more})
    assert answer.status_code == 201, answer.content
    return answer.json()


# --- making, reading, changing, deleting ----------------------------------------------------


def test_a_season_is_made_with_its_defaults_and_answered_with_its_id(api, club):
    body = made(api, club)
    assert body == {"id": Season.objects.get().pk, "group": club.pk, **BODY,
                    "cup_points": [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
                    "best_of": None, "min_events": 0}


def test_its_choices_are_kept_and_answered_as_numbers(api, club):
    body = made(api, club, cup_points=[12.5, 10, 0], best_of=10, min_events=3)
    assert (body["cup_points"], body["best_of"], body["min_events"]) == ([12.5, 10, 0], 10, 3)
    assert api.call("get", f"/api/v1/seasons/{body['id']}/").json() == body


def test_the_groups_seasons_are_listed_the_latest_first(api, club):
    first = made(api, club, start="2025-01-01", end="2025-12-31")
    second = made(api, club)
    listed = api.call("get", f"/api/v1/groups/{club.pk}/seasons/").json()
    assert [s["id"] for s in listed] == [second["id"], first["id"]]


@pytest.mark.parametrize(("change", "field"), [
    ({"name": ""}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"game": "skat"}, "game"),
    ({"start": "1. 1. 2026"}, "start"),
    ({"end": "2025-12-31"}, "end"),
    ({"events": "some"}, "events"),
    ({"cup_points": []}, "cup_points"),
    ({"cup_points": [1] * 51}, "cup_points"),
    ({"cup_points": [20, -1]}, "cup_points.1"),
    ({"best_of": 0}, "best_of"),
    ({"best_of": "3"}, "best_of"),
    ({"min_events": -1}, "min_events"),
])
def test_each_wrong_field_is_a_400_naming_it_and_nothing_is_made(api, club, change, field):
    answer = api.call("post", f"/api/v1/groups/{club.pk}/seasons/", {**BODY, **change})
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"]
    assert not Season.objects.exists()


def test_a_missing_field_is_a_400_naming_it(api, club):
    answer = api.call("post", f"/api/v1/groups/{club.pk}/seasons/", {"name": "2026"})
    assert answer.status_code == 400
    assert {"game", "start", "end", "events"} <= set(answer.json()["errors"])


def test_the_end_before_the_start_is_refused_in_german_naming_end(api, club):
    answer = api.call("post", f"/api/v1/groups/{club.pk}/seasons/",
                      {**BODY, "end": "2025-12-31"}, HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert answer.json()["errors"]["end"] == ["darf nicht vor dem Beginn liegen"]


def test_a_change_keeps_what_it_does_not_name_and_checks_end_against_the_kept_start(api,
                                                                                    club):
    body = made(api, club, best_of=5)
    url = f"/api/v1/seasons/{body['id']}/"
    changed = api.call("patch", url, {"name": "Cup", "min_events": 2})
    assert changed.status_code == 200
    assert changed.json() == {**body, "name": "Cup", "min_events": 2}
    refused = api.call("patch", url, {"end": "2025-01-01"})
    assert refused.status_code == 400 and "end" in refused.json()["errors"]
    assert api.call("get", url).json()["end"] == "2026-12-31"


def test_a_change_of_nothing_changes_nothing(api, club):
    body = made(api, club)
    answer = api.call("patch", f"/api/v1/seasons/{body['id']}/", {})
    assert answer.status_code == 200 and answer.json() == body


def test_deleting_a_season_leaves_its_events(api, club, owner):
    body = made(api, club)
    played = evening(club, owner, ["Anna"], at=day(1))
    assert api.call("delete", f"/api/v1/seasons/{body['id']}/").status_code == 204
    assert not Season.objects.exists()
    assert Session.objects.filter(pk=played.pk).exists()
    assert api.call("get", f"/api/v1/seasons/{body['id']}/").status_code == 404


# --- who may ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "read", "write"), [
    ("viewer", 200, 403), ("editor", 200, 200), ("owner", 200, 200)])
def test_owners_and_editors_write_and_members_read(club, owner, role, read, write):
    body = made(api_of(owner), club)
    who = owner if role == "owner" else user(role)
    if role != "owner":
        member(club, who, role)
    asker = api_of(who)
    url = f"/api/v1/seasons/{body['id']}/"
    assert asker.call("get", url).status_code == read
    assert asker.call("get", url + "standings").status_code == read
    assert asker.call("patch", url, {"name": f"{role}'s"}).status_code == write
    created = asker.call("post", f"/api/v1/groups/{club.pk}/seasons/", BODY)
    assert created.status_code == (201 if write == 200 else 403)


def test_a_viewer_cannot_delete_a_season(club, owner):
    body = made(api_of(owner), club)
    viewer = user("viewer")
    member(club, viewer, "viewer")
    assert api_of(viewer).call("delete", f"/api/v1/seasons/{body['id']}/").status_code == 403
    assert Season.objects.exists()


def test_another_groups_member_gets_404_everywhere(club, owner):
    body = made(api_of(owner), club)
    stranger = user("stranger")
    group_with(stranger, "Elsewhere")
    asker = api_of(stranger)
    url = f"/api/v1/seasons/{body['id']}/"
    for method, path, data in (("get", url, None), ("get", url + "standings", None),
                               ("patch", url, {"name": "mine"}), ("delete", url, None),
                               ("get", f"/api/v1/groups/{club.pk}/seasons/", None),
                               ("post", f"/api/v1/groups/{club.pk}/seasons/", BODY)):
        assert asker.call(method, path, data).status_code == 404, (method, path)
    assert Season.objects.get().name == BODY["name"]


def test_nobody_without_an_account_gets_anything(club, owner):
    body = made(api_of(owner), club)
    assert Api().call("get", f"/api/v1/seasons/{body['id']}/standings").status_code == 401


def test_an_unknown_season_is_404(api):
    assert api.call("get", "/api/v1/seasons/999999/standings").status_code == 404


# --- the standings -------------------------------------------------------------------------


def test_the_standings_answer_the_events_and_the_figures_as_two_place_strings(api, club,
                                                                              owner):
    body = made(api, club)
    played = evening(club, owner, ["Anna", "Anna", "Bert"], at=day(1))
    answer = api.call("get", f"/api/v1/seasons/{body['id']}/standings")
    assert answer.status_code == 200
    shown = answer.json()
    assert shown["season"] == body["id"]
    assert shown["events"] == [{"kind": "evening", "id": played.pk, "date": "2026-03-02",
                                "name": str(played), "players": 4}]
    first, second, third, fourth = shown["standings"]
    assert first == {"place": 1, "name": "Anna", "points": "25.00", "events": 1, "wins": 1,
                     "average": "25.00", "qualified": True,
                     "results": [{"event": 0, "place": 1, "points": "25.00",
                                  "counted": True}]}
    assert (third["name"], third["place"], third["points"]) == ("Cilli", 3, "14.50")
    assert (fourth["name"], fourth["place"]) == ("Dominik", 3)
    assert second["name"] == "Bert"


def test_a_category_is_asked_for_by_query_and_a_wrong_one_is_a_400(api, club, owner):
    body = made(api, club)
    evening(club, owner, ["Anna", "Anna", "Bert"], at=day(1))
    rosters.player_categorize(player=club.players.get(name="Cilli"), category="Damen")
    url = f"/api/v1/seasons/{body['id']}/standings"
    shown = api.call("get", url + "?category=damen").json()
    assert [(line["name"], line["place"]) for line in shown["standings"]] == [("Cilli", 1)]
    refused = api.call("get", url + "?category=" + "x" * 30)
    assert refused.status_code == 400 and "category" in refused.json()["errors"]


def test_the_same_etag_answers_304_and_a_deal_correction_changes_etag_and_figures(api, club,
                                                                                   owner):
    body = made(api, club, events="tournaments")
    done = finished_tournament(club, owner, ["Anna"], at=day(1))
    url = f"/api/v1/seasons/{body['id']}/standings"
    first = api.call("get", url)
    tag = first["ETag"]
    assert api.call("get", url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    table = done.round_set.get().tables.get(session__seats__player__name="Anna")
    names = services.Names.of(table.session)
    for number in (1, 2):
        services.deal_correct(session=table.session, user=owner, number=number,
                              data=names.deal_ids(sweep(table.session, "Anna")))
    same = api.call("get", url, HTTP_IF_NONE_MATCH=tag)
    assert same.status_code == 200 and same["ETag"] != tag  # any correction: a new ETag
    assert same.json() == first.json()  # the same winner: the same figures
    loser = next(n for n in names.by_id.values() if n != "Anna")
    for number in (1, 2):
        services.deal_correct(session=table.session, user=owner, number=number,
                              data=names.deal_ids(sweep(table.session, loser)))
    moved = api.call("get", url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    lines = {line["name"]: line for line in moved.json()["standings"]}
    before = {line["name"]: line for line in first.json()["standings"]}
    assert lines["Anna"]["points"] != before["Anna"]["points"]
    assert lines[loser]["results"][0]["place"] == 1


def test_a_deal_recorded_at_an_evening_counted_changes_the_etag(api, club, owner):
    body = made(api, club)
    played = evening(club, owner, ["Anna"], at=day(1))
    url = f"/api/v1/seasons/{body['id']}/standings"
    tag = api.call("get", url)["ETag"]
    services.session_set_status(session=played, status=Session.Status.OPEN)
    record(played, owner, sweep(played, "Bert"))
    services.session_set_status(session=played, status=Session.Status.CLOSED)
    again = api.call("get", url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag


def _queries(api, url):
    with CaptureQueriesContext(connection) as seen:
        assert api.call("get", url).status_code == 200
    return len(seen.captured_queries)


def test_the_standings_queries_do_not_grow_with_deals_and_grow_linearly_with_events(
        api, club, owner):
    body = made(api, club)
    url = f"/api/v1/seasons/{body['id']}/standings"
    evening(club, owner, ["Anna"], at=day(1))
    evening(club, owner, ["Bert"], at=day(2))
    base = _queries(api, url)
    evening(club, owner, ["Anna", "Bert", "Cilli", "Dominik", "Anna"], at=day(3))
    assert _queries(api, url) == base  # more evenings and deals: the same queries
    counts = []
    for n, winner in enumerate(("Anna", "Bert", "Cilli")):
        finished_tournament(club, owner, [winner], at=day(4 + n))
        counts.append(_queries(api, url))
    # the first tournament adds its reads and the tournaments' history; each next one the
    # same few reads of its ranking
    per_tournament = counts[1] - counts[0]
    assert counts[2] - counts[1] == per_tournament <= 2
    assert counts[0] - base <= per_tournament + 1
    assert base <= 9


def test_the_service_figures_are_decimals_with_two_places(club, owner):
    made_season = season(club, owner)
    evening(club, owner, ["Anna", "Anna", "Bert"], at=day(1))
    line = standings(made_season)["standings"][2]
    assert line["points"] == Decimal("14.50") and isinstance(line["average"], Decimal)
    assert seasons.season_update(made_season, {}) is made_season


def test_head_answers_the_standings_without_a_body(api, club, owner):
    body = made(api, club)
    evening(club, owner, ["Anna"], at=day(1))
    url = f"/api/v1/seasons/{body['id']}/standings"
    get, head = api.call("get", url), api.call("head", url)
    assert head.status_code == get.status_code == 200
    assert head["ETag"] == get["ETag"] and head.content == b""
