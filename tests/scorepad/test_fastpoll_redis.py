"""The fast poll on the shared cache it is made for: Redis, as several workers or app
servers use it (SCHREIBER_CACHE_URL). Runs against the local Redis on 127.0.0.1:6379
(.ci/run starts it; SCHREIBER_TEST_REDIS_URL points elsewhere); a missing Redis fails,
it is never skipped."""

from __future__ import annotations

import os
import secrets
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from scorepad.cache import versions

from .factories import EVEN, played, record
from .test_fastpoll import (  # noqa: F401 -- the same behaviour, collected again on Redis
    board,
    polled_url,
    test_a_cached_scoreboard_is_served_by_the_grant_without_a_query,
    test_a_poll_right_after_a_deal_sees_the_new_version,
    test_a_removed_member_gets_404_on_the_next_poll_not_a_304,
    test_a_revoked_watch_link_gets_404_on_the_next_poll,
    test_an_unchanged_poll_with_its_grant_is_a_304_without_a_query,
    test_the_watch_board_polls_without_a_query,
)

pytestmark = pytest.mark.django_db

URL = os.environ.get("SCHREIBER_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture(autouse=True)
def redis_cache(settings):
    """Redis under a key prefix of its own (other test runs may share the server)."""
    prefix = f"test-{secrets.token_hex(6)}"
    settings.CACHES = {"default": {"BACKEND": "scorepad.cache.backend.RedisCache",
                                   "LOCATION": URL, "KEY_PREFIX": prefix}}
    backend = caches["default"]
    backend.set("alive", 1, 30)  # fails loudly when Redis is not there
    assert backend.get("alive") == 1
    yield backend
    client = backend.client
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_redis_keeps_the_highest_version_whatever_the_order_of_writers(redis_cache):
    versions.raise_to(7, 4)
    versions.raise_to(7, 2)
    versions.raise_to(7, 5)
    assert redis_cache.get("sv:7") == 5


def test_a_version_and_the_answers_made_for_it_go_to_redis_in_one_round_trip(
        redis_cache, monkeypatch):
    client = redis_cache.client
    sent = []
    real = type(client).pipeline
    monkeypatch.setattr(type(client), "pipeline",
                        lambda self, *a, **k: sent.append(1) or real(self, *a, **k))
    versions.raise_to(8, 3, {"board:s8-v3": (b"{}", "application/json")}, 30)
    assert sent == [1]
    assert redis_cache.get("sv:8") == 3
    assert redis_cache.get("board:s8-v3") == (b"{}", "application/json")
    assert 0 < client.ttl(redis_cache.make_key("board:s8-v3")) <= 30


def test_the_api_deal_answer_is_what_the_next_get_of_the_scoreboard_serves(
        table, anna, redis_cache, django_assert_num_queries):
    from rest_framework.authtoken.models import Token

    api = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=anna).key}")
    url = f"/api/v1/sessions/{table.pk}/"
    for _ in range(2):  # the token, the role and the session's group are cached now
        api.get(url + "scoreboard")
    posted = api.post(url + "deals/", played("Anna", EVEN), content_type="application/json")
    assert posted.status_code == 201
    with django_assert_num_queries(0):  # from Redis, as the deal's write left it
        got = api.get(url + "scoreboard")
    assert got.json() == posted.json()["scoreboard"]


def test_a_change_from_another_process_shows_within_a_second_and_never_goes_back(
        phone, table, anna, redis_cache, monkeypatch):
    url = polled_url(phone.get(f"/sessions/{table.pk}/"))
    old = board(phone, url)["ETag"]
    assert board(Client(), url, old).status_code == 304  # now remembered in this process
    # another worker records a deal: the database and Redis change, not our memory
    monkeypatch.setattr(versions, "forget", lambda key: None)
    record(table, anna, played("Anna", EVEN))
    assert board(Client(), url, old).status_code == 304  # at most LOCAL_SECONDS behind
    fresh = board(Client(), url)  # a body is never taken from the memory
    assert fresh.status_code == 200 and fresh["ETag"] != old
    assert board(Client(), url, fresh["ETag"]).status_code == 304  # its newer one: fresh
    versions._local.clear()  # LOCAL_SECONDS later
    assert board(Client(), url, old).status_code == 200
    assert versions.LOCAL_SECONDS < 2  # less than the poll interval


def test_the_cache_reuses_one_redis_client_for_every_call_and_thread(redis_cache):
    """scorepad.cache.backend: Django's client builds a redis.Redis per call (~60 µs)."""
    import threading

    first = redis_cache.client
    redis_cache.set("k", 1, 30)
    assert redis_cache.get("k") == 1
    assert redis_cache.client is first
    other: list[Any] = []  # another thread has a backend of its own, and the same client
    thread = threading.Thread(target=lambda: other.append(caches["default"].client))
    thread.start()
    thread.join()
    assert other == [first]
