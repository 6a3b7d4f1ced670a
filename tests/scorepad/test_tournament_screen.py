"""The public screen's two polled parts (docs/tournaments.md, "The screen"): the ranking,
answered by the tournament's version, and the open round's live tables, answered by their
sessions' versions; a poll that finds nothing new renders nothing and costs no query with the
shared cache (one without)."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import rosters, services
from scorepad.tournaments import services as tour

from .factories import group_with
from .tournament_play import drawn, finish_game, record, seats, sweep, tournament

pytestmark = pytest.mark.django_db


def _second_round_open(anna, draw):
    """Eight players, round 1 closed (both tables finished by their first seat), round 2
    drawn (``draw``: random, or by standing) and open."""
    t = tournament(group_with(anna), anna, players=8, rounds=3, draw=draw)
    for table in drawn(t, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[0])
    tour.round_close(tournament=t, number=1)
    drawn(t, anna, seed=2)
    t.refresh_from_db()
    return t


@pytest.fixture
def evening(anna):
    return _second_round_open(anna, "random")


def _parts(t):
    base = f"/screen/{t.screen_token}/"
    return base + "board", base + "live"


def test_a_poll_of_the_ranking_that_finds_nothing_new_costs_no_query(
        evening, django_assert_num_queries):
    board, _live = _parts(evening)
    first = Client().get(board)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = Client().get(board, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_poll_of_the_live_tables_that_finds_nothing_new_costs_no_query(
        evening, django_assert_num_queries):
    _board, live = _parts(evening)
    first = Client().get(live)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_without_a_shared_cache_a_poll_that_finds_nothing_new_costs_one_query(
        evening, settings, django_assert_num_queries):
    settings.SCHREIBER_CACHE_SHARED = False
    for part in _parts(evening):
        first = Client().get(part)
        with django_assert_num_queries(1):
            again = Client().get(part, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, part


def _keys(t):
    return (tour.screen_ranking_key_cached(t.screen_token, "x"),
            tour.screen_live_key(t.screen_token, "x"))


def _database_keys(t, settings):
    """The keys as the database alone makes them (no shared cache)."""
    settings.SCHREIBER_CACHE_SHARED = False
    try:
        t = type(t).objects.get(pk=t.pk)
        return tour.screen_ranking_key(t, "x"), tour.screen_live_key(t.screen_token, "x")
    finally:
        settings.SCHREIBER_CACHE_SHARED = True


def test_the_cached_keys_follow_every_change_the_database_sees(
        evening, anna, settings, django_assert_num_queries):
    """The keys from the cache are the database's after each kind of write, and move."""
    _follow(evening, anna, settings, django_assert_num_queries)


def test_a_deal_moves_the_cached_live_key_without_a_query(
        evening, anna, settings, django_assert_num_queries):
    Client().get(_parts(evening)[1])
    session = evening.round_set.get(number=2).tables.get(number=1).session
    with django_assert_num_queries(0):
        before = _keys(evening)
    record(session, anna, sweep(session, seats(session)[0]))
    with django_assert_num_queries(0):
        after = _keys(evening)
    assert after[0] == before[0] and after[1] != before[1]
    assert after == _database_keys(evening, settings)


def _follow(
        evening, anna, settings, django_assert_num_queries):
    Client().get(_parts(evening)[1])  # the first poll tells the cache
    tables = evening.round_set.get(number=2).tables.select_related("session")
    writes = [
        ("a deal", lambda: record(tables[0].session, anna,
                                  sweep(tables[0].session, seats(tables[0].session)[1]))),
        ("a correction in a closed round", lambda: services.deal_delete(
            session=evening.round_set.get(number=1).tables.get(number=1).session,
            user=anna, number=2)),
        ("a player's category", lambda: rosters.player_categorize(
            player=evening.entrants.first().player, category="Damen")),
        ("rounds hidden", lambda: tour.tournament_change(tournament=evening,
                                                         screen_hides_rounds=1)),
        ("the round closed", lambda: tour.round_close(tournament=evening, number=2,
                                                      force=True)),
        ("the next round drawn", lambda: drawn(evening, anna, seed=3)),
    ]
    before = _keys(evening)
    for what, write in writes:
        write()
        Client().get(_parts(evening)[1])  # a poll after a change of the tournament tells
        with django_assert_num_queries(0):
            now = _keys(evening)
        assert now == _database_keys(evening, settings), what
        assert now != before, what
        before = now


def test_a_tournament_version_older_than_the_cached_one_is_never_put_back(evening):
    from scorepad.cache import screens

    token = evening.screen_token
    Client().get(_parts(evening)[1])
    newest = screens.known(token)
    screens.remember(token, evening.pk, newest.version - 1, [])
    found = screens.known(token)
    assert found.version == newest.version
    assert found.sessions is None  # the sessions of another version: asked again


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



def test_both_parts_of_the_screen_ask_for_news_every_five_seconds(evening):
    board, live = _parts(evening)
    for url in (f"/screen/{evening.screen_token}/", board, live):
        body = Client().get(url).content.decode()
        assert body.count('hx-trigger="every 5s"') == (2 if url.endswith("/") else 1), url

# --- what the screen keeps to itself while rounds are hidden -----------------------------------


@pytest.fixture
def swiss(anna):
    """Round 2 drawn from round 1's standings (Swiss: the winners together)."""
    return _second_round_open(anna, "swiss")


def _round_names(t, number):
    return {name for table in t.round_set.get(number=number).tables.all()
            for name in seats(table.session)}


def test_while_rounds_are_hidden_the_tables_drawn_from_them_show_no_names(swiss):
    tour.tournament_change(tournament=swiss, screen_hides_rounds=1)
    _board, live = _parts(swiss)
    names = _round_names(swiss, 2)
    for page in (Client().get(live), Client().get(f"/screen/{swiss.screen_token}/")):
        assert page.status_code == 200
        text = page.content.decode()
        part = text[text.index('<section id="screen-live"'):]
        part = part[:part.index("</section>")]
        assert not [name for name in names if name in part], part
        assert "Seat 1" in part and "Table 2" in part  # the tables and their live scores stay


def test_the_tables_show_their_names_again_once_nothing_is_hidden(swiss):
    _board, live = _parts(swiss)
    text = Client().get(live).content.decode()
    assert all(name in text for name in _round_names(swiss, 2)) and "Seat 1" not in text


def test_a_random_draw_reveals_no_standings_and_keeps_its_names(evening):
    tour.tournament_change(tournament=evening, screen_hides_rounds=1)
    _board, live = _parts(evening)
    text = Client().get(live).content.decode()
    assert all(name in text for name in _round_names(evening, 2))


def test_the_screens_etags_name_neither_the_tournament_nor_its_version(evening):
    board, live = _parts(evening)
    for part in (board, live):
        etag = Client().get(part)["ETag"]
        assert f"t{evening.pk}" not in etag and f"v{evening.version}" not in etag, etag
        assert "ranking" not in etag and "live" not in etag, etag


def test_a_correction_in_a_hidden_round_changes_nothing_the_screen_shows(swiss, anna):
    tour.tournament_change(tournament=swiss, screen_hides_rounds=1)
    board, live = _parts(swiss)
    before = {part: Client().get(part) for part in (board, live)}
    session = swiss.round_set.get(number=1).tables.get(number=1).session
    services.deal_delete(session=session, user=anna, number=2)
    swiss.refresh_from_db()
    for part in (board, live):
        again = Client().get(part, HTTP_IF_NONE_MATCH=before[part]["ETag"])
        assert again.status_code == 304, part
        fresh = Client().get(part)
        assert fresh["ETag"] == before[part]["ETag"] and fresh.content == before[part].content



# --- each table rendered once per version, for every watcher ------------------------------------


@pytest.fixture
def table_renders():
    """The numbers of the tables whose part of the live screen is rendered."""
    from django.test.signals import template_rendered

    numbers = []

    def seen(sender, template, context, **kwargs):
        if template.name == "scorepad/_tournament_screen_table.html":
            numbers.append(context["table"]["number"])

    template_rendered.connect(seen)
    yield numbers
    template_rendered.disconnect(seen)


def _live_section(response):
    text = response.content.decode()
    return text[text.index('<section id="screen-live"'):]


def test_watchers_of_the_same_tables_get_one_render_and_no_query(
        evening, table_renders, django_assert_num_queries):
    _board, live = _parts(evening)
    first = Client().get(live)
    assert sorted(table_renders) == [1, 2]
    with django_assert_num_queries(0):
        second = Client().get(live)  # another watcher, without an ETag yet
    assert second.status_code == 200 and second.content == first.content
    assert sorted(table_renders) == [1, 2]


def test_a_deal_renders_its_table_again_and_reads_the_others_back(
        evening, anna, table_renders):
    _board, live = _parts(evening)
    before = Client().get(live)
    table_renders.clear()
    session = evening.round_set.get(number=2).tables.get(number=2).session
    record(session, anna, sweep(session, seats(session)[1]))
    after = Client().get(live)
    assert table_renders == [2]
    assert after.content != before.content and "10.00" in after.content.decode()
    assert after.content.decode().index("Table 1") < after.content.decode().index("Table 2")


def test_each_language_has_its_own_tables(evening, table_renders):
    _board, live = _parts(evening)
    german = _live_section(Client().get(live, HTTP_ACCEPT_LANGUAGE="de"))
    english = _live_section(Client().get(live, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Tisch 1" in german and "Table 1" not in german
    assert "Table 1" in english and "Tisch 1" not in english
    assert len(table_renders) == 4  # two tables in each language
    assert _live_section(Client().get(live, HTTP_ACCEPT_LANGUAGE="de")) == german


def test_a_table_is_kept_under_the_version_it_was_rendered_from(
        evening, anna, monkeypatch, table_renders):
    """A deal that lands while the screen renders (after it read the tables' versions,
    before it read their sessions) is shown, and the table is kept under the version it
    shows, not the one read before: the next poll renders nothing and shows it still."""
    from scorepad.cache import screens

    _board, live = _parts(evening)
    session = evening.round_set.get(number=2).tables.get(number=1).session
    read = tour.live_tables

    def with_a_deal_meanwhile(*args, **kwargs):
        monkeypatch.setattr(tour, "live_tables", read)
        record(session, anna, sweep(session, seats(session)[0]))
        return read(*args, **kwargs)

    version_before = session.version
    monkeypatch.setattr(tour, "live_tables", with_a_deal_meanwhile)
    shown = Client().get(live).content.decode()
    assert "10.00" in shown  # the sweep (15 − 5)
    evening.refresh_from_db()
    session.refresh_from_db()
    at = (evening.pk, evening.version)
    kept = screens.rendered_tables([screens.table_key(at, (session.pk, v), "en")
                                    for v in (version_before, session.version)])
    assert list(kept) == [screens.table_key(at, (session.pk, session.version), "en")]
    table_renders.clear()
    again = Client().get(live).content.decode()
    assert table_renders == [] and "10.00" in again


def test_a_cache_that_cannot_answer_still_shows_the_tables(evening, monkeypatch):
    from django.core.cache import caches
    from redis.exceptions import ConnectionError as RedisConnectionError

    def unreachable(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    for method in ("get", "get_many", "set", "set_many", "delete_many"):
        monkeypatch.setattr(caches["default"], method, unreachable)
    board, live = _parts(evening)
    for part in (board, live):
        answer = Client().get(part)
        assert answer.status_code == 200, part
    assert "Table 1" in answer.content.decode() and "Table 2" in answer.content.decode()
