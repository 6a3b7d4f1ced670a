"""The public screen's two polled parts (docs/tournaments.md, "The screen"): the ranking,
answered by the tournament's version, and the open round's live tables, answered by their
sessions' versions; a poll that finds nothing new costs one query and renders nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import services
from scorepad.tournaments import services as tour

from .factories import group_with
from .tournament_play import drawn, finish_game, record, seats, sweep, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(anna):
    """Eight players, round 1 closed (both tables finished), round 2 open."""
    t = tournament(group_with(anna), anna, players=8, rounds=3)
    for table in drawn(t, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[0])
    tour.round_close(tournament=t, number=1)
    drawn(t, anna, seed=2)
    t.refresh_from_db()
    return t


def _parts(t):
    base = f"/screen/{t.screen_token}/"
    return base + "board", base + "live"


def test_a_poll_of_the_ranking_that_finds_nothing_new_costs_one_query(
        evening, django_assert_num_queries):
    board, _live = _parts(evening)
    first = Client().get(board)
    assert first.status_code == 200
    with django_assert_num_queries(1):
        again = Client().get(board, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_poll_of_the_live_tables_that_finds_nothing_new_costs_one_query(
        evening, django_assert_num_queries):
    _board, live = _parts(evening)
    first = Client().get(live)
    assert first.status_code == 200
    with django_assert_num_queries(1):
        again = Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_deal_at_one_table_moves_the_live_part_but_not_the_ranking(evening, anna):
    board, live = _parts(evening)
    ranking_before, live_before = Client().get(board), Client().get(live)
    session = evening.round_set.get(number=2).tables.get(number=2).session
    record(session, anna, sweep(session, seats(session)[1]))
    ranking_after = Client().get(board, HTTP_IF_NONE_MATCH=ranking_before["ETag"])
    live_after = Client().get(live, HTTP_IF_NONE_MATCH=live_before["ETag"])
    assert ranking_after.status_code == 304
    assert live_after.status_code == 200 and live_after["ETag"] != live_before["ETag"]
    assert "10.00" in live_after.content.decode()  # 15 − 5 for the sweeper


def test_a_deal_at_a_table_with_fewer_versions_than_another_still_moves_the_live_part(
        evening, anna):
    _board, live = _parts(evening)
    tables = list(evening.round_set.get(number=2).tables.select_related("session"))
    busy, quiet = tables[0].session, tables[1].session
    record(busy, anna, sweep(busy, seats(busy)[0]))
    before = Client().get(live)
    record(quiet, anna, sweep(quiet, seats(quiet)[0]))
    after = Client().get(live, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def test_a_correction_in_a_closed_round_moves_the_ranking(evening, anna):
    board, _live = _parts(evening)
    before = Client().get(board)
    session = evening.round_set.get(number=1).tables.get(number=1).session
    services.deal_delete(session=session, user=anna, number=2)
    after = Client().get(board, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.content != before.content


def test_the_screen_page_carries_both_parts_and_a_wrong_token_finds_neither(evening):
    board, live = _parts(evening)
    page = Client().get(f"/screen/{evening.screen_token}/").content.decode()
    assert f'hx-get="{board}"' in page and f'hx-get="{live}"' in page
    wrong = "x" * 43
    assert Client().get(f"/screen/{wrong}/live").status_code == 404
    assert Client().get(f"/screen/{wrong}/board").status_code == 404
