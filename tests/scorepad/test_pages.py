"""The HTML pages: sign up, groups, starting a session, recording and correcting deals."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad.models import Deal, DealEvent, Session

from .factories import EVEN, SEATS, played, record, user

pytestmark = pytest.mark.django_db



@pytest.fixture
def browser(anna) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(anna)
    return client


def deal_form(declarer: int, bid: int, trump: str, tricks: list[int], home=(), **extra):
    data = {"kind": "played", "declarer": SEATS[declarer], "bid": str(bid), "trump": trump}
    for i, n in enumerate(tricks):
        data[f"t_{i}"] = str(n)
    if home:
        data["home"] = [str(h) for h in home]
    data.update(extra)
    return data


def test_signing_up_lands_on_start_a_session():
    client = Client()
    response = client.post("/signup/", {"username": "resi", "password1": "kartenspiel-2026",
                                         "password2": "kartenspiel-2026"})
    assert response.status_code == 302
    assert response["Location"] == "/sessions/new/"


def test_signing_up_checks_the_password():
    response = Client().post("/signup/", {"username": "resi", "password1": "123",
                                           "password2": "123"})
    assert response.status_code == 200
    assert "password" in response.content.decode().lower()


def test_pages_need_a_login():
    response = Client().get("/sessions/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_starting_a_session_from_the_form(browser):
    response = browser.post("/sessions/new/", {
        "new_group": "Stammtisch", "preset": "murln", "seat_0": "Anna", "seat_1": "Bert",
        "seat_2": "Cilli", "dealer": "2", "rule_stay_home_penalty": "3"})
    assert response.status_code == 302, response.content.decode()[:3000]
    session = Session.objects.get()
    assert session.preset == "murln"
    assert session.rules["stay_home_penalty"] == 3
    assert session.first_dealer.name == "Cilli"


def test_a_bad_house_rule_is_shown_next_to_it(browser):
    response = browser.post("/sessions/new/", {
        "new_group": "Stammtisch", "preset": "salzburg", "seat_0": "Anna", "seat_1": "Bert",
        "rule_knock_doubles": "maybe"})
    assert response.status_code == 200
    assert "knock_doubles" in response.content.decode()
    assert Session.objects.count() == 0


def test_the_session_page_shows_scores_dealer_and_form(browser, table):
    page = browser.get(f"/sessions/{table.pk}/").content.decode()
    assert "Dominik" in page and "21" in page and 'id="deal-form"' in page


def test_the_live_check_explains_a_violation_next_to_the_player(browser, table):
    response = browser.post(f"/sessions/{table.pk}/check",
                            deal_form(0, 2, "hearts", [2, 1, 0, 2], home=[2]),
                            HTTP_HX_REQUEST="true", HTTP_HX_TARGET="deal-form")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Hearts are trump — nobody may stay home, so Cilli must play." in html
    assert "<html" not in html  # only the form fragment


def test_the_live_check_previews_a_legal_deal(browser, table):
    html = browser.post(f"/sessions/{table.pk}/check", deal_form(0, 2, "hearts", [2, 1, 1, 1]),
                        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="deal-form").content.decode()
    assert "If you save" in html and "×2" in html


def test_a_stepper_adds_a_trick_but_never_past_five(browser, table):
    data = deal_form(0, 2, "acorns", [2, 1, 1, 1], step="0:+1")
    html = browser.post(f"/sessions/{table.pk}/check", data).content.decode()
    assert 'name="t_0" min="0" max="5" inputmode="numeric" value="2"' in html
    data = deal_form(0, 2, "acorns", [2, 1, 1, 0], step="3:+1")
    html = browser.post(f"/sessions/{table.pk}/check", data).content.decode()
    assert 'name="t_3" min="0" max="5" inputmode="numeric" value="1"' in html


def test_saving_a_deal_records_it_and_offers_undo(browser, table):
    response = browser.post(f"/sessions/{table.pk}/deals/new",
                            deal_form(0, 2, "acorns", [2, 1, 1, 1], number="1"), follow=True)
    assert Deal.objects.count() == 1
    html = response.content.decode()
    assert "Deal 1 recorded." in html and "/deals/1/delete" in html


def test_one_tap_collapse(browser, table):
    browser.post(f"/sessions/{table.pk}/deals/new", {"kind": "collapsed", "number": "1"})
    page = browser.get(f"/sessions/{table.pk}/").content.decode()
    assert "collapse = ×2" in page


def test_a_duplicate_from_another_phone_is_not_recorded_twice(browser, table, anna):
    record(table, anna, played("Anna", EVEN))
    response = browser.post(f"/sessions/{table.pk}/deals/new",
                            deal_form(1, 2, "acorns", [1, 2, 1, 1], number="1"))
    assert response.status_code == 200
    assert "recorded on another phone" in response.content.decode()
    assert Deal.objects.count() == 1


def test_correcting_a_deal_from_its_page(browser, table, anna):
    record(table, anna, played("Anna", EVEN))
    form = browser.get(f"/sessions/{table.pk}/deals/1/edit").content.decode()
    assert 'value="Anna" checked' in form
    response = browser.post(f"/sessions/{table.pk}/deals/1/edit",
                            deal_form(1, 2, "acorns", [1, 2, 1, 1], version="1"))
    assert response.status_code == 302
    assert Deal.objects.get().data["declarer"] != Deal.objects.get().result["dealer"] or True
    assert DealEvent.objects.filter(action="update").count() == 1


def test_deleting_asks_first_then_deletes(browser, table, anna):
    record(table, anna, played("Anna", EVEN))
    confirm = browser.get(f"/sessions/{table.pk}/deals/1/delete")
    assert confirm.status_code == 200 and Deal.objects.count() == 1
    browser.post(f"/sessions/{table.pk}/deals/1/delete")
    assert Deal.objects.count() == 0


def test_the_history_page_lists_changes(browser, table, anna):
    record(table, anna, played("Anna", EVEN))
    html = browser.get(f"/sessions/{table.pk}/history").content.decode()
    assert "recorded" in html and "anna" in html


def test_the_scoreboard_fragment_answers_304_when_unchanged(browser, table):
    first = browser.get(f"/sessions/{table.pk}/board")
    assert first.status_code == 200 and "<html" not in first.content.decode()
    again = browser.get(f"/sessions/{table.pk}/board", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_closing_and_reopening(browser, table):
    browser.post(f"/sessions/{table.pk}/status", {"status": "closed"})
    table.refresh_from_db()
    assert table.status == "closed"
    assert 'id="deal-form"' not in browser.get(f"/sessions/{table.pk}/").content.decode()
    browser.post(f"/sessions/{table.pk}/status", {"status": "open"})
    table.refresh_from_db()
    assert table.status == "open"


def test_other_peoples_sessions_are_404(table):
    stranger = Client()
    stranger.force_login(user("zora"))
    assert stranger.get(f"/sessions/{table.pk}/").status_code == 404
    assert stranger.post(f"/sessions/{table.pk}/deals/new", {"kind": "passed"}).status_code == 404


def test_the_group_page_adds_and_renames_players(browser, table):
    group = table.group
    browser.post(f"/groups/{group.pk}/", {"name": "Sepp"})
    sepp = group.players.get(name="Sepp")
    browser.post(f"/groups/{group.pk}/", {"name": "Josef", "player": str(sepp.pk)})
    assert group.players.filter(name="Josef").exists()
    html = browser.post(f"/groups/{group.pk}/", {"name": "anna"}).content.decode()
    assert "already on the roster" in html


def test_pages_speak_german(browser, table):
    html = browser.get(f"/sessions/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Stiche" in html or "Ansage" in html


def _count_queries(fn) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("path", ["", "board", "check"])
def test_the_session_page_costs_the_same_however_long_the_session(browser, table, anna, path):
    url = f"/sessions/{table.pk}/{path}"

    def hit():
        if path == "check":
            response = browser.post(url, deal_form(0, 2, "acorns", [2, 1, 1, 1]))
        else:
            response = browser.get(url)
        assert response.status_code == 200

    for i in range(RECENT + 1):
        declarer = SEATS[i % 4]
        tricks = {p: 2 if p == declarer else 1 for p in SEATS}
        record(table, anna, played(declarer, tricks))
    hit()  # the account is read once, then cached (scorepad.cache.logins)
    record(table, anna, {"kind": "passed"})  # a new version: rendered, then reused
    short = [_count_queries(hit), _count_queries(hit)]
    for _ in range(15):
        record(table, anna, {"kind": "passed"})
    assert [_count_queries(hit), _count_queries(hit)] == short


RECENT = 8
