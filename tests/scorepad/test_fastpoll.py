"""Polls that touch no database (scorepad/cache/grants.py): a signed grant in the polled URL
stands for the login, the version comes from the cache; and every change still shows on
the next poll, every revocation takes effect on the next poll."""

from __future__ import annotations

import html
import re

import pytest
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.test import Client

from scorepad import rosters, services, sharing
from scorepad.cache import grants, versions

from .factories import EVEN, member, played, record, user

pytestmark = pytest.mark.django_db


def polled_url(page) -> str:
    """The URL the scoreboard polls, as htmx would read it from the page."""
    found = re.search(r'id="scoreboard"[^>]*hx-get="([^"]+)"', page.content.decode(), re.S)
    assert found, "no polled scoreboard on the page"
    return html.unescape(found.group(1))


def board(client: Client, url: str, etag: str | None = None):
    extra = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, **extra)


# --- no database on the common path --------------------------------------------------------


def test_the_session_page_polls_its_scoreboard_with_a_signed_grant(phone, table):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    assert url.startswith(f"/sessions/{table.pk}/board?g=")
    kind, sid, _group, uid, role, *_gens = signing.loads(url.split("g=")[1],
                                                         salt=grants.SALT)
    assert (kind, sid, role) == ("u", table.pk, "owner")


def test_an_unchanged_poll_with_its_grant_is_a_304_without_a_query(
        phone, table, anna, django_assert_num_queries):
    record(table, anna, played("Anna", EVEN))
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    # not even the login: a phone that lost its cookie polls on by the grant alone
    with django_assert_num_queries(0):
        response = board(Client(), url, etag)
    assert response.status_code == 304 and response["ETag"] == etag


def test_a_cached_scoreboard_is_served_by_the_grant_without_a_query(
        phone, table, anna, django_assert_num_queries):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    board(phone, url)  # rendered once, cached
    with django_assert_num_queries(0):
        response = board(phone, url)
    assert response.status_code == 200 and b"Dominik" in response.content
    assert polled_url(response) == url  # it polls on with the same grant


def test_the_watch_board_polls_without_a_query(table, django_assert_num_queries):
    token = sharing.watch_link_create(session=table)
    url = polled_url(Client().get(f"/watch/{token}/"))
    assert url.startswith(f"/watch/{token}/board?g=")
    etag = board(Client(), url)["ETag"]
    with django_assert_num_queries(0):
        assert board(Client(), url, etag).status_code == 304
        assert board(Client(), url).status_code == 200


def test_a_cached_render_carries_each_readers_own_grant(phone, table, anna):
    bert = user("bert")
    member(table.group, bert, "owner")
    other = Client()
    other.force_login(bert)
    mine = polled_url(phone.get(f"/sessions/{table.pk}/"))
    board(phone, mine)  # Anna's poll renders and caches this version
    bert_url = polled_url(other.get(f"/sessions/{table.pk}/"))
    answer = board(other, bert_url)
    assert polled_url(answer) == bert_url != mine


# --- changes show on the next poll --------------------------------------------------------


def test_a_poll_right_after_a_deal_sees_the_new_version(phone, table, anna):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    record(table, anna, played("Anna", EVEN))
    response = board(Client(), url, etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert "#1" in response.content.decode()


@pytest.mark.parametrize("change", ["correct", "delete", "close", "rename"])
def test_every_write_that_changes_the_scoreboard_ends_the_304s(phone, table, anna, change):
    record(table, anna, played("Anna", EVEN))
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    table.refresh_from_db()
    names = services.Names.of(table)
    if change == "correct":
        services.deal_correct(session=table, user=anna, number=1,
                              data=names.deal_ids(played("Bert", EVEN | {"Anna": 1,
                                                                         "Bert": 2})))
    elif change == "delete":
        services.deal_delete(session=table, user=anna, number=1)
    elif change == "close":
        services.session_set_status(session=table, status="closed")
    else:
        rosters.player_rename(player=table.group.players.get(name="Bert"), name="Berti")
    assert board(Client(), url, etag).status_code == 200


def test_the_cached_version_never_goes_back():
    versions.raise_to(99, 5)
    versions.raise_to(99, 3)  # a late writer or a poll that read before the commit
    assert cache.get("sv:99") == 5


@pytest.mark.django_db(transaction=True)
def test_the_cache_learns_a_version_only_after_its_commit(anna):
    from .factories import group_with, session_at

    table = session_at(group_with(anna), anna)
    versions.raise_to(table.pk, table.version)
    with transaction.atomic():
        record(table, anna, played("Anna", EVEN))
        assert cache.get(f"sv:{table.pk}") == 0  # not committed: polls keep the old one
    assert cache.get(f"sv:{table.pk}") == 1


# --- revocation on the next poll ----------------------------------------------------------


def test_a_removed_member_gets_404_on_the_next_poll_not_a_304(table, anna):
    bert = user("bert")
    member(table.group, bert, "viewer")
    client = Client()
    client.force_login(bert)
    url = polled_url(client.get(f"/sessions/{table.pk}/"))
    etag = board(client, url)["ETag"]
    assert board(client, url, etag).status_code == 304
    rosters.member_remove(group=table.group, user=bert)
    assert board(client, url, etag).status_code == 404


def test_a_changed_role_is_seen_on_the_next_poll(table, anna):
    bert = user("bert")
    member(table.group, bert, "editor")
    client = Client()
    client.force_login(bert)
    url = polled_url(client.get(f"/sessions/{table.pk}/"))
    etag = board(client, url)["ETag"]
    assert etag.endswith('-w"')
    member(table.group, bert, "viewer")
    response = board(client, url, etag)
    assert response.status_code == 200 and response["ETag"].endswith('-r"')


def test_a_logged_out_user_is_sent_to_the_login_on_the_next_poll(phone, table):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    phone.post("/accounts/logout/")
    response = board(phone, url, etag)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_changed_password_ends_the_grants_of_the_account(phone, table, anna):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    anna.set_password("a-new-secret-9")
    anna.save()
    assert board(Client(), url, etag).status_code == 302  # no login behind it any more


def test_a_revoked_watch_link_gets_404_on_the_next_poll(table):
    token = sharing.watch_link_create(session=table)
    url = polled_url(Client().get(f"/watch/{token}/"))
    etag = board(Client(), url)["ETag"]
    assert board(Client(), url, etag).status_code == 304
    sharing.watch_link_revoke(session=table)
    assert board(Client(), url, etag).status_code == 404


# --- expired, tampered or borrowed grants fall back to the full check --------------------


def test_an_expired_grant_falls_back_to_the_login_and_gets_a_fresh_one(
        phone, table, monkeypatch):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    monkeypatch.setattr(grants, "GRANT_SECONDS", -1)
    assert board(Client(), url, etag).status_code == 302  # without the login: nothing
    response = board(phone, url, etag)  # with it: the board again, with a new grant
    assert response.status_code == 200 and response["ETag"] == etag
    fresh = polled_url(response).split("g=")[1]  # signed now (same second: same text)
    assert signing.loads(fresh, salt=grants.SALT, max_age=5)[1] == table.pk


def test_a_tampered_grant_is_ignored(phone, table, anna):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    payload = signing.loads(url.split("g=")[1], salt=grants.SALT)
    forged = signing.dumps(payload, salt=grants.SALT, key="not-the-secret-key")
    head, _, _ = url.partition("g=")
    assert board(Client(), head + "g=" + forged, etag).status_code == 302
    assert board(Client(), url[:-2] + "xx", etag).status_code == 302


def test_a_grant_for_one_session_opens_no_other(phone, table, anna):
    from .factories import group_with, session_at

    eve = user("eve")
    secret = session_at(group_with(eve, "Elsewhere"), eve)
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    grant = url.split("g=")[1]
    assert board(phone, f"/sessions/{secret.pk}/board?g={grant}").status_code == 404
    token = sharing.watch_link_create(session=table)
    assert board(Client(), f"/watch/{token}/board?g={grant}").status_code == 200  # by token


# --- one cache per process: the database decides each poll -------------------------------


def test_without_a_shared_cache_each_poll_asks_the_database_once(
        phone, table, anna, settings, django_assert_num_queries):
    settings.SCHREIBER_CACHE_SHARED = False
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    etag = board(phone, url)["ETag"]
    with django_assert_num_queries(1):
        assert board(Client(), url, etag).status_code == 304
    cache.set(f"sv:{table.pk}", 0)  # what another worker's memory may still hold
    record(table, anna, played("Anna", EVEN))
    cache.set(f"sv:{table.pk}", 0)
    assert board(Client(), url, etag).status_code == 200
    bert = user("bert")
    member(table.group, bert, "viewer")
    client = Client()
    client.force_login(bert)
    bert_url = polled_url(client.get(f"/sessions/{table.pk}/"))
    rosters.member_remove(group=table.group, user=bert)
    cache.clear()  # the bump reached only one worker's memory
    assert board(client, bert_url).status_code == 404


@pytest.mark.parametrize(("env", "backend", "shared"), [
    ({"SCHREIBER_CACHE_URL": "redis://127.0.0.1:6379/1"}, "RedisCache", True),
    ({}, "LocMemCache", False),  # several workers may each have their own memory
    ({"SCHREIBER_ONE_PROCESS": "1"}, "LocMemCache", True),
])
def test_polls_trust_the_cache_only_when_every_process_shares_it(env, backend, shared):
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items()
             if k not in ("SCHREIBER_CACHE_URL", "SCHREIBER_ONE_PROCESS", "DJANGO_REDIS_URL",
                          "DJANGO_DEBUG")}
    out = subprocess.run(
        [sys.executable, "-c", "import scorepad.settings as s; "
         "print(s.CACHES['default']['BACKEND'].rsplit('.', 1)[1], s.SCHREIBER_CACHE_SHARED)"],
        env={**clean, "DJANGO_SECRET_KEY": "x" * 50, **env}, capture_output=True, text=True,
        check=True).stdout.split()
    assert out == [backend, str(shared)]
