"""The looking-back pages: past sessions (filters, pages, query counts), deal sheets with
their chart, player statistics; and statistics after corrections equal a fresh replay."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import rosters, services, stats
from scorepad.models import Session

from ..strength import examples
from .factories import EVEN, SEATS, apply_actions, group_with, played, record, session_at, user
from .test_stats import script_matz, script_mulatschak, script_mura

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(anna: Any) -> Client:
    client = Client()
    client.force_login(anna)
    client.get("/groups/")  # the account is read once, then cached (scorepad.cache.logins)
    return client


def many_sessions(group: Any, who: Any, n: int) -> list[Session]:
    out = []
    for i in range(n):
        session = session_at(group, who)
        record(session, who, played("Anna", EVEN))
        record(session, who, played("Bert", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1},
                                    trump="hearts"))
        if i % 2:
            services.session_set_status(session=session, status="closed")
        out.append(session)
    return out


def query_count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


# --- the session history ---------------------------------------------------------------


def test_the_history_lists_sessions_with_players_winners_money_and_deal_counts(anna, logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    script_mura(group, anna)
    script_matz(group, anna)
    page = logged_in.get(reverse("scorepad:group_sessions", args=[group.pk])).content.decode()
    assert "3 sessions" in page
    assert "9 deals" in page and "Won: Anna" in page
    assert "Anna €19.80, Bert −€6.60, Cilli −€7.90, Dominik −€5.30" in page
    assert "Anna 6/0" in page  # Mura: mura/zeros
    assert "Losses: Anna 1, Bert 2, Cilli 0" in page
    assert page.count(">Deal sheet and chart<") == 3


def test_the_history_filters_by_game_player_and_dates_without_javascript(anna, logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    script_mura(group, anna)
    script_matz(group, anna)
    url = reverse("scorepad:group_sessions", args=[group.pk])
    assert "1 session<" in logged_in.get(url, {"game": "mura"}).content.decode()
    dominik = group.players.get(name="Dominik")
    assert "2 sessions" in logged_in.get(url, {"player": dominik.pk}).content.decode()
    today = datetime.date.today()
    tomorrow = (today + datetime.timedelta(days=1)).isoformat()
    assert "0 sessions" in logged_in.get(url, {"since": tomorrow}).content.decode()
    assert "3 sessions" in logged_in.get(url, {"until": today.isoformat()}).content.decode()


def test_bad_filter_values_are_reported_next_to_the_field_and_ignored(anna, logged_in):
    group = group_with(anna)
    script_mura(group, anna)
    url = reverse("scorepad:group_sessions", args=[group.pk])
    response = logged_in.get(url, {"game": "poker", "since": "yesterday", "player": "x",
                                   "until": "31.13.2026"})
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('class="errorlist"') == 4
    assert "1 session<" in page
    swapped = logged_in.get(url, {"since": "2026-02-01", "until": "2026-01-01"})
    assert "must not be before" in swapped.content.decode()


def test_the_htmx_filter_gets_only_the_results(anna, logged_in):
    group = group_with(anna)
    script_mura(group, anna)
    url = reverse("scorepad:group_sessions", args=[group.pk])
    page = logged_in.get(url, {"game": "mura"}, HTTP_HX_REQUEST="true",
                         HTTP_HX_TARGET="results").content.decode()
    assert page.lstrip().startswith('<section id="results"')
    assert "<html" not in page
    bad = logged_in.get(url, {"since": "soon"}, HTTP_HX_REQUEST="true",
                        HTTP_HX_TARGET="results").content.decode()
    assert "Ignored filters: From — Enter a valid date." in bad


def test_the_history_pages_through_twenty_sessions_at_a_time(anna, logged_in):
    group = group_with(anna)
    many_sessions(group, anna, 23)
    url = reverse("scorepad:group_sessions", args=[group.pk])
    first = logged_in.get(url).content.decode()
    assert first.count('class="past-session"') == 20 and 'rel="next"' in first
    second = logged_in.get(url, {"page": 2, "game": "mulatschak"}).content.decode()
    assert second.count('class="past-session"') == 3
    assert "game=mulatschak&amp;page=1" in second
    assert logged_in.get(url, {"page": "999"}).status_code == 200


def test_the_history_costs_the_same_queries_for_two_or_twenty_sessions(
        anna, logged_in, django_assert_num_queries):
    group = group_with(anna)
    many_sessions(group, anna, 2)
    url = reverse("scorepad:group_sessions", args=[group.pk])
    few = query_count(logged_in, url)
    many_sessions(group, anna, 18)
    with django_assert_num_queries(few):
        logged_in.get(url)


# --- the deal sheet and its chart --------------------------------------------------------


def test_the_deal_sheet_has_a_row_per_deal_and_marks_the_game_end(anna, logged_in):
    group = group_with(anna)
    session = script_mulatschak(group, anna)
    page = logged_in.get(reverse("scorepad:sheet", args=[session.pk])).content.decode()
    assert len(re.findall(r'<tr class="(game-end)?">', page)) == 9  # one row per deal
    assert page.count('<tr class="game-end">') == 1
    assert "Game 1 over — won by Anna" in page
    assert "<strong>\u221213</strong><span class=\"star\"> ★</span>" in page  # one minus (U+2212)
    assert "♥ × collapse = ×4" not in page  # never a bare, invented factor
    assert 'role="img"' in page and "<title id=\"session-chart-t\">" in page
    assert page.count('class="boundary"') == 1  # one game boundary (after deal 8)
    assert page.count('class="reference"') == 2  # start score and target


def test_the_deal_sheet_of_mura_and_muller_matz(anna, logged_in):
    group = group_with(anna)
    mura = script_mura(group, anna)
    matz = script_matz(group, anna)
    page = logged_in.get(reverse("scorepad:sheet", args=[mura.pk])).content.decode()
    assert "2 mura" in page and "<strong>6</strong> / 0" in page
    page = logged_in.get(reverse("scorepad:sheet", args=[matz.pk])).content.decode()
    assert "Anna → Cilli → Bert" in page and page.count("loser-cell") == 3


def test_the_sheet_of_a_session_without_deals_shows_no_chart(anna, logged_in):
    session = session_at(group_with(anna), anna)
    page = logged_in.get(reverse("scorepad:sheet", args=[session.pk])).content.decode()
    assert "No deals yet." in page
    assert "<svg" in page  # one line from the start score: a chart with one point each


def test_the_session_footer_links_the_sheet(table, anna, logged_in):
    page = logged_in.get(reverse("scorepad:session", args=[table.pk])).content.decode()
    assert reverse("scorepad:sheet", args=[table.pk]) in page


def test_no_page_here_has_an_inline_style(anna, logged_in):
    group = group_with(anna)
    session = script_mulatschak(group, anna)
    for url in (reverse("scorepad:sheet", args=[session.pk]),
                reverse("scorepad:group_stats", args=[group.pk]),
                reverse("scorepad:group_sessions", args=[group.pk]),
                reverse("scorepad:player", args=[group.players.get(name="Anna").pk])):
        page = logged_in.get(url).content.decode()
        assert not re.search(r"\sstyle=", page), url


# --- statistics pages ------------------------------------------------------------------------


def test_the_group_statistics_list_every_player_and_sort(anna, logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    url = reverse("scorepad:group_stats", args=[group.pk])
    page = logged_in.get(url, {"sort": "-points_per_deal"}).content.decode()
    page = page.split('class="sheet stats-table"')[1].split("</table>")[0]  # not the ratings
    order = re.findall(r'<th scope="row"><a href="[^"]+">(?:<span class="pname">)?(\w+)<', page)
    assert order == ["Cilli", "Bert", "Dominik", "Anna"]
    assert 'aria-sort="descending"' in page
    assert logged_in.get(url, {"sort": "drop table"}).status_code == 200


def _stats_page(client: Client, group: Any, **query: str) -> str:
    url = reverse("scorepad:group_stats", args=[group.pk])
    return client.get(url, query).content.decode()


def _headings(page: str) -> list[str]:
    """The headings of the statistics table's columns."""
    table = page.split('class="sheet stats-table"')[1].split("</thead>")[0]
    return re.findall(r'<a href="\?sort=[^"]*">([^<]+)</a>', table)


def _card(page: str, name: str) -> str:
    """The player's card (a phone's view of their row)."""
    cards = re.findall(r'<article class="stat-card".*?</article>', page, re.S)
    return next(card for card in cards if f'<span class="pname">{name}</span>' in card)


def test_a_group_that_played_mulatschak_only_shows_no_other_games_figures(anna, logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    page = _stats_page(logged_in, group)
    assert _headings(page) == ["Player", "Sessions", "Games", "Wins", "Win rate",
                               "Points per deal", "Bids made", "Muli made", "Stayed home"]
    card = _card(page, "Anna")
    assert "<dt>Wins</dt>" in card and "Zeros" not in card and "Müller Matz" not in card
    assert "Zeros: the deals without a trick" not in page   # Mura's note on its figures
    script_mura(group, anna)
    page = _stats_page(logged_in, group)
    assert _headings(page)[-2:] == ["Mura", "Zeros"]
    assert re.findall(r'<th scope="colgroup" colspan="(\d+)">([^<]+)</th>', page) == [
        ("7", "Mulatschak"), ("2", "Mura")]   # each game over its columns
    assert "Zeros: the deals without a trick" in page
    assert '<p class="stat-game">Mura</p>' in _card(page, "Anna")


def test_a_group_without_sessions_shows_no_games_figures(anna, logged_in):
    group = group_with(anna)
    rosters.player_add(group=group, name="Anna")
    page = _stats_page(logged_in, group)
    assert _headings(page) == ["Player", "Sessions"]
    card = _card(page, "Anna")
    assert "0 sessions" in card and "<dt>" not in card and "<details" not in card


def test_a_players_card_shows_the_figures_that_matter_and_the_rest_a_tap_away(anna,
                                                                               logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    card = _card(_stats_page(logged_in, group), "Anna")
    first, more = card.split("<details")
    assert "1 session" in first
    assert re.findall(r"<dt>([^<]+)</dt>", first) == ["Wins", "Points per deal", "Bids made"]
    assert re.findall(r"<dt>([^<]+)</dt>", more) == ["Games", "Win rate", "Muli made",
                                                     "Stayed home"]
    assert "<dt>Points per deal</dt><dd>-4.38</dd>" in first


def test_the_phones_sort_form_keeps_the_season_and_shows_the_order(anna, logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    page = _stats_page(logged_in, group, sort="-wins", season="year")
    form = page.split('class="stat-sort')[1].split("</form>")[0]
    assert '<input type="hidden" name="season" value="year">' in form
    assert re.findall(r'<option value="([^"]+)" selected>', form) == ["-wins"]
    names = re.findall(r'<article class="stat-card".*?class="pname">(\w+)<', page, re.S)
    assert names[0] == "Anna"


def test_the_player_page_shows_the_figures(anna, logged_in):
    group = group_with(anna)
    script_mulatschak(group, anna)
    script_mura(group, anna)
    page = logged_in.get(reverse("scorepad:player", args=[group.players.get(
        name="Anna").pk])).content.decode()
    assert "1 / 1 (100 %)" in page  # games won
    assert "×2" in page  # biggest multiplier survived
    assert "€10.91" in page  # +19.80 Mulatschak, −8.89 Mura
    assert "<h2>Mura</h2>" in page and "<h2>Müller Matz</h2>" not in page


def test_statistics_pages_cost_the_same_queries_for_few_and_many_sessions(
        anna, logged_in, django_assert_num_queries):
    group = group_with(anna)
    many_sessions(group, anna, 2)
    anna_player = group.players.get(name="Anna")
    urls = [reverse("scorepad:group_stats", args=[group.pk]),
            reverse("scorepad:player", args=[anna_player.pk]),
            f"/api/v1/players/{anna_player.pk}/stats"]
    counts = [query_count(logged_in, u) for u in urls]
    many_sessions(group, anna, 10)
    for url, count in zip(urls, counts, strict=True):
        with django_assert_num_queries(count):
            logged_in.get(url)


def test_strangers_get_404_on_every_looking_back_page(anna):
    group = group_with(anna)
    session = script_mura(group, anna)
    client = Client()
    client.force_login(user("stranger"))
    for url in (reverse("scorepad:sheet", args=[session.pk]),
                reverse("scorepad:group_stats", args=[group.pk]),
                reverse("scorepad:group_sessions", args=[group.pk]),
                reverse("scorepad:player", args=[group.players.first().pk]),
                reverse("scorepad:player", args=[999999])):
        assert client.get(url).status_code == 404, url


# --- statistics after corrections equal a fresh replay ---------------------------------------

DEALS = [
    played("Anna", EVEN),
    played("Bert", {"Anna": 1, "Bert": 3, "Dominik": 1}, bid=3, trump="leaves",
           stayed_home=["Cilli"]),
    played("Cilli", {"Anna": 1, "Bert": 1, "Cilli": 2, "Dominik": 1}, bid=3, trump="hearts"),
    {"kind": "collapsed"},
    played("Anna", {"Anna": 5, "Bert": 0, "Cilli": 0, "Dominik": 0}, bid=5),
    played("Dominik", {"Anna": 4, "Dominik": 1}, bid=2, stayed_home=["Bert", "Cilli"]),
    {"kind": "passed"},
]
ACTIONS = st.lists(st.tuples(st.sampled_from(["record", "record", "correct", "delete"]),
                             st.integers(0, 1000), st.integers(0, len(DEALS) - 1)),
                   min_size=1, max_size=10)


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_statistics_after_any_corrections_equal_those_of_a_fresh_replay(anna, actions):
    edited = session_at(group_with(anna, name="edited"), anna)
    apply_actions(edited, anna, actions, lambda which: DEALS[which], refusals_ok=True)
    names = services.Names.of(edited)
    fresh = session_at(group_with(anna, name="fresh"), anna)
    fresh_names = services.Names.of(fresh)
    for row in edited.deals.order_by("number"):
        services.deal_record(session=fresh, user=anna,
                             data=fresh_names.deal_ids(names.deal_names(row.data)))
    for name in SEATS:
        a = edited.group.players.get(name=name)
        b = fresh.group.players.get(name=name)
        assert stats.player_stats(str(a.pk), stats.player_records(a)) == \
            stats.player_stats(str(b.pk), stats.player_records(b))
