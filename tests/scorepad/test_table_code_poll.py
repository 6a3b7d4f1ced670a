"""A table's phone polling its scoreboard through the API with its code (docs/tournaments.md,
"Table codes"): with the shared cache a 304 costs no query, and the code still ends with its
round and opens its own table's session alone."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad.tournaments import services as tour

from .factories import group_with
from .tournament_play import drawn, record, seats, sweep, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(anna):
    t = tournament(group_with(anna), anna, players=8, rounds=3, draw="random")
    return t, list(drawn(t, anna).tables.select_related("session").order_by("number"))


def _poll(table, etag="", code=None):
    headers = {"HTTP_AUTHORIZATION": f"Table {code or table.code}"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return Client().get(f"/api/v1/sessions/{table.session_id}/scoreboard", **headers)


def test_a_poll_that_finds_nothing_new_costs_no_query(tables, django_assert_num_queries):
    _t, (table, _other) = tables
    first = _poll(table)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = _poll(table, first["ETag"])
    assert again.status_code == 304


def test_without_a_shared_cache_it_costs_one_query_the_code_with_its_version(
        tables, settings, django_assert_num_queries):
    settings.SCHREIBER_CACHE_SHARED = False
    _t, (table, _other) = tables
    first = _poll(table)
    with django_assert_num_queries(1):
        again = _poll(table, first["ETag"])
    assert again.status_code == 304


def test_a_deal_at_the_table_moves_its_etag(tables, anna):
    _t, (table, _other) = tables
    before = _poll(table)
    _poll(table, before["ETag"])  # the code is in the cache now
    record(table.session, anna, sweep(table.session, seats(table.session)[0]))
    after = _poll(table, before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def test_a_code_in_the_cache_ends_with_its_round(tables):
    t, (table, _other) = tables
    first = _poll(table)
    assert _poll(table, first["ETag"]).status_code == 304
    tour.round_close(tournament=t, number=1, force=True)
    assert _poll(table, first["ETag"]).status_code == 401
    assert _poll(table).status_code == 401


def test_a_code_in_the_cache_opens_no_other_tables_session(tables):
    _t, (table, other) = tables
    _poll(table), _poll(other)  # both codes in the cache
    wrong = Client().get(f"/api/v1/sessions/{other.session_id}/scoreboard",
                         HTTP_AUTHORIZATION=f"Table {table.code}")
    assert wrong.status_code == 401
