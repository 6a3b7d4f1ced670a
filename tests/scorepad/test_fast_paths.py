"""Fast where the table waits (scorepad.cache.logins, grants.member): the token, the seats
and the member's role come from the cache, and every revocation still takes effect on
the next request; the scoreboard pages its finished games."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from scorepad import rosters, services, sharing

from .factories import SEATS, group_with, member, phone_of, session_at, user

pytestmark = pytest.mark.django_db


def api_client(who) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=who).key}")


@pytest.fixture
def owner():
    return user("anna")


@pytest.fixture
def session(owner):
    return session_at(group_with(owner), owner)


def test_a_known_token_costs_no_query(owner, session, django_assert_num_queries):
    api = api_client(owner)
    board = f"/api/v1/sessions/{session.pk}/scoreboard"
    assert api.get(board).status_code == 200
    assert api.get(board).status_code == 200
    with django_assert_num_queries(0):
        assert api.get(board).status_code == 200


def test_a_cached_token_of_a_deactivated_account_stops_at_once(owner, session):
    api = api_client(owner)
    board = f"/api/v1/sessions/{session.pk}/scoreboard"
    assert api.get(board).status_code == 200
    owner.is_active = False
    owner.save()
    assert api.get(board).status_code == 401


def test_a_rotated_token_stops_at_once(owner, session):
    api = api_client(owner)
    board = f"/api/v1/sessions/{session.pk}/scoreboard"
    assert api.get(board).status_code == 200
    Token.objects.filter(user=owner).delete()
    assert api.get(board).status_code == 401


def test_a_removed_member_loses_the_cached_scoreboard_at_once(owner, session):
    bert = user("bert")
    member(session.group, bert, "viewer")
    api = api_client(bert)
    board = f"/api/v1/sessions/{session.pk}/scoreboard"
    for _ in range(3):
        assert api.get(board).status_code == 200
    rosters.member_remove(group=session.group, user=bert)
    assert api.get(board).status_code == 404
    # what a token request read ahead (its authenticator's ``ahead``) belongs to it
    # alone: a request by login afterwards reads the cache itself
    browser = Client()
    browser.force_login(bert)
    assert browser.get(board).status_code == 404


def test_a_renamed_player_shows_on_the_next_answer(owner, session):
    api = api_client(owner)
    board = f"/api/v1/sessions/{session.pk}/scoreboard"
    assert "Anna" in api.get(board).json()["scores"]
    rosters.player_rename(player=session.group.players.get(name="Anna"), name="Anni")
    assert "Anni" in api.get(board).json()["scores"]


def test_the_deal_answer_carries_the_scoreboard_the_next_get_is_served_from(
        owner, session, django_assert_num_queries):
    api = api_client(owner)
    url = f"/api/v1/sessions/{session.pk}/deals/"
    api.post(url, {"kind": "passed"}, content_type="application/json")  # warm the caches
    api.get(f"/api/v1/sessions/{session.pk}/scoreboard")
    answer = api.post(url, {"kind": "passed"}, content_type="application/json")
    assert answer.status_code == 201
    board = answer.json()["scoreboard"]
    assert board["next_number"] == 3 and set(board["scores"]) == set(SEATS)
    with django_assert_num_queries(0):
        got = api.get(f"/api/v1/sessions/{session.pk}/scoreboard")
    assert got.json() == board


def test_a_viewer_cannot_record_a_deal_and_a_stranger_sees_nothing(owner, session):
    bert, cilli = user("bert"), user("cilli")
    member(session.group, bert, "viewer")
    url = f"/api/v1/sessions/{session.pk}/deals/"
    body = {"kind": "passed"}
    assert api_client(bert).post(url, body, content_type="application/json"
                                 ).status_code == 403
    assert api_client(cilli).post(url, body, content_type="application/json"
                                  ).status_code == 404
    assert not session.deals.exists()


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5"])
def test_a_bad_games_page_is_refused_naming_the_field(owner, session, page):
    answer = api_client(owner).get(
        f"/api/v1/sessions/{session.pk}/scoreboard?games_page={page}")
    assert answer.status_code == 400
    assert "games_page" in answer.json()["errors"]


def test_the_scoreboard_says_how_many_games_there_are(owner, session):
    board = api_client(owner).get(f"/api/v1/sessions/{session.pk}/scoreboard").json()
    assert (board["games"], board["games_total"], board["games_page"],
            board["games_pages"]) == ([], 0, 1, 1)


GAME_NUMBERS = list(range(1, 46))


def test_the_first_page_holds_the_most_recent_games_oldest_first():
    assert GAME_NUMBERS[services._games_slice(45, 1)] == list(range(26, 46))
    board: dict = {}
    services._page_games(board, 1, 45)
    assert (board["games_total"], board["games_page"], board["games_pages"]) == (45, 1, 3)


def test_the_last_page_holds_the_first_games_and_beyond_it_nothing():
    assert GAME_NUMBERS[services._games_slice(45, 3)] == list(range(1, 6))
    assert GAME_NUMBERS[services._games_slice(45, 4)] == []


# --- the session page, rendered once per version ----------------------------------------


def page_of(client: Client, session) -> str:
    answer = client.get(f"/sessions/{session.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()



def test_a_reused_session_page_carries_each_answers_own_key_token_and_grant(owner, session):
    import re

    phone, tablet = phone_of(owner), phone_of(owner)
    first, second = page_of(phone, session), page_of(tablet, session)
    keys = [re.findall(r'name="idempotency_key" value="([^"]+)"', p) for p in (first, second)]
    assert keys[0] and keys[1] and keys[0] != keys[1]
    for page in (first, second):
        assert "__csrfmark__" not in page and "__idempotencymark__" not in page
        assert "__pollgrant__" not in page and "board?g=" in page
    csrf = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', p).group(1)
            for p in (first, second)]
    assert csrf[0] != csrf[1]


def test_a_reused_session_page_shows_the_deal_recorded_since(owner, session):
    phone = phone_of(owner)
    assert "Deal 1" in page_of(phone, session)
    api_client(owner).post(f"/api/v1/sessions/{session.pk}/deals/", {"kind": "passed"},
                           content_type="application/json")
    assert "Deal 2" in page_of(phone, session)


def test_a_viewer_never_gets_the_editors_page(owner, session):
    bert = user("bert")
    member(session.group, bert, "viewer")
    page_of(phone_of(owner), session)  # the editor's page, cached
    assert 'name="idempotency_key"' not in page_of(phone_of(bert), session)


def test_a_watch_link_made_or_revoked_shows_on_the_reused_page_at_once(owner, session):
    phone = phone_of(owner)
    for _ in range(3):  # the page and the role are reused from the cache now
        assert "/watch/" not in page_of(phone, session)
    token = sharing.watch_link_create(session=session)
    assert f"/watch/{token}/" in page_of(phone, session)
    sharing.watch_link_revoke(session=session)
    assert "/watch/" not in page_of(phone, session)


def test_the_reused_session_page_asks_no_query(owner, session, django_assert_num_queries):
    phone = phone_of(owner)
    for _ in range(3):
        page_of(phone, session)
    with django_assert_num_queries(0):
        assert "Deal 1" in page_of(phone, session)


def test_a_removed_member_loses_the_reused_session_page_at_once(owner, session):
    bert = user("bert")
    member(session.group, bert, "editor")
    phone = phone_of(bert)
    for _ in range(3):
        assert 'name="idempotency_key"' in page_of(phone, session)
    rosters.member_set(group=session.group, user=bert, role="viewer", by=owner)
    assert 'name="idempotency_key"' not in page_of(phone, session)
    rosters.member_remove(group=session.group, user=bert, by=owner)
    assert phone.get(f"/sessions/{session.pk}/").status_code == 404


def test_a_logged_out_phone_gets_the_login_page_not_the_reused_one(owner, session):
    phone = phone_of(owner)
    for _ in range(3):
        page_of(phone, session)
    phone.post("/accounts/logout/")
    assert phone.get(f"/sessions/{session.pk}/").status_code == 302


# --- finished games stay in the database --------------------------------------------------


def test_a_long_evening_of_short_games_keeps_every_game_and_pages_them(owner):
    from scorepad import games as game_modules
    from scorepad.loaded import Loaded

    from .factories import EVEN, played

    session = session_at(group_with(owner), owner, overrides={
        "start_score": 2, "no_bid_at_or_below": None, "must_play_at_or_below": None,
        "no_exchange_at_or_below": None})
    api = api_client(owner)
    url = f"/api/v1/sessions/{session.pk}/deals/"
    for i in range(50):
        declarer = SEATS[i % 4]
        tricks = {p: 2 if p == declarer else 1 for p in SEATS}
        answer = api.post(url, played(declarer, tricks) if i % 3 else played("Anna", EVEN),
                          content_type="application/json")
        assert answer.status_code == 201, answer.json()
    session.refresh_from_db()
    loaded = Loaded.of(session)
    replay = game_modules.of(session).replayer(session, loaded.seats)
    for deal in session.deals.order_by("number"):
        replay.apply(deal.data)
    assert session.state == replay.state()  # the running state a fresh replay leaves
    game = game_modules.of(session)
    finished = list(session.finished_games.values_list("summary", flat=True))
    assert finished == [game.finished_game(d.result) for d in session.deals.all()
                        if d.result["game_over"]]  # a row per game, written with its deal
    assert session.state["games"] == finished[-services.GAMES_PER_PAGE:]
    assert len(finished) > services.GAMES_PER_PAGE
    board = answer.json()["scoreboard"]
    assert board["games_total"] == len(finished)
    assert [g["number"] for g in board["games"]] == [
        g["number"] for g in finished[-services.GAMES_PER_PAGE:]]
    older = api.get(f"/api/v1/sessions/{session.pk}/scoreboard?games_page=2").json()
    assert [g["number"] for g in older["games"]] == [
        g["number"] for g in finished[-2 * services.GAMES_PER_PAGE:-services.GAMES_PER_PAGE]]


def test_a_token_and_the_members_role_are_read_in_one_round_trip(owner, session, monkeypatch):
    from scorepad.cache import backend

    api = api_client(owner)
    board = f"/api/v1/sessions/{session.pk}/scoreboard"
    for _ in range(3):
        etag = api.get(board)["ETag"]
    calls = []
    real = backend.get_many
    monkeypatch.setattr(backend, "get_many", lambda keys: calls.append(keys) or real(keys))
    assert api.get(board, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert len(calls) == 1  # the token, the user's generation, the role, the version
