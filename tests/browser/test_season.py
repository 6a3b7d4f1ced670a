"""A club's year in the browser (docs/tournaments.md, "Seasons"): a season over three
closed evenings and one finished tournament. On a phone (360 and 320 px, German, English,
Hungarian, light and dark) the season's page shows the very figures the API's standings
give, each player's results a tap away, nothing wider than the phone (fits.js); its CSV
link downloads the standings; a category shows its players alone. The one short form makes
a season (an end before the start is refused at its field, once) and changes it."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorepad import rosters, services
from scorepad.models import Season, Session, default_cup_points

from ..strength import LANGUAGE_SCHEME_WIDTHS
from .phone import log_in, new_phone
from .test_fits import FITS, LOCALES, SHOTS
from .test_looks import Looker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Three evenings of four, the names as long as the sheets' (who wins each: the first).
EVENINGS = [(date(2026, 2, 10), ["Bernadette", "Maximilian", "Cilli", "Dominik"]),
            (date(2026, 3, 10), ["Maximilian", "Elisabeth", "Bernadette", "Cilli"]),
            (date(2026, 4, 14), ["Elisabeth", "Dominik", "Maximilian", "Hildegard"])]
TOURNAMENT_DAY = date(2026, 5, 2)


def _evening(group: Any, anna: Any, day: date, names: list[str]) -> Session:
    from tests.scorepad.factories import played, record

    session = services.session_start(group=group, user=anna, preset="salzburg",
                                     overrides=None, seats=names, dealer=names[-1])
    winner = names[0]
    record(session, anna, played(winner, dict.fromkeys(names, 1) | {winner: 2}))
    Session.objects.filter(pk=session.pk).update(date=day)
    session.refresh_from_db()
    services.session_set_status(session=session, status="closed")
    return session


@pytest.fixture
def club_year() -> dict[str, Any]:
    """Anna's club: three closed evenings and a finished tournament of eight (one round),
    and the season "Jahreswertung 2026" over all of them (the best 3 count; 2 events to
    qualify)."""
    from scorepad.tournaments import services as tour
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, finish_game, seats

    anna = user("anna")
    group = group_with(anna, "Kartenrunde Zöbern")
    evenings = [_evening(group, anna, day, names) for day, names in EVENINGS]
    t = tour.tournament_create(group=group, user=anna, name="Preis-Mulatschak",
                               game="mulatschak", preset="geiser", rounds=1,
                               round_ends="game", table_size=4, scoring="placement",
                               draw="random", date=TOURNAMENT_DAY.isoformat())
    for name in ["Bernadette", "Maximilian", "Cilli", "Dominik", "Elisabeth", "Hildegard",
                 "Gertrude", "Franz"]:
        tour.entrant_register(tournament=t, name=name)
    for table in drawn(t, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[1])
    tour.round_close(tournament=t, number=1)
    tour.tournament_change(tournament=t, status="finished")
    season = Season.objects.create(group=group, name="Jahreswertung 2026", game="mulatschak",
                                   start=date(2026, 1, 1), end=date(2026, 12, 31),
                                   events="both", best_of=3, min_events=2, created_by=anna)
    return {"group": group, "evenings": evenings, "tournament": t, "season": season}


def shown_lines(page: Any) -> list[dict[str, str]]:
    """The standings table as the page shows it: each line's name and figures."""
    return page.locator("tr.season-line").evaluate_all(
        """rows => rows.map(r => Object.assign({name: r.dataset.name},
             Object.fromEntries([...r.querySelectorAll('[data-figure]')]
               .map(c => [c.dataset.figure, c.textContent.trim()]))))""")


@pytest.mark.parametrize(("lang", "scheme", "width"), LANGUAGE_SCHEME_WIDTHS)
def test_the_season_page_shows_the_apis_standings_and_fits_a_phone(live_server, browser,
                                                                   club_year, lang, scheme,
                                                                   width):
    season, base = club_year["season"], live_server.url
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width)
    m = Looker(page, base, f"season-{lang}-{scheme}-{width}", SHOTS, FITS)
    looks = Looker(page, base, f"season-{lang}-{scheme}-{width}")  # taps of 44 px, contrast
    log_in(page, base, "anna")
    m.look("season", f"/seasons/{season.pk}/")
    looks.look("season")
    api = page.request.get(f"{base}/api/v1/seasons/{season.pk}/standings").json()
    assert len(api["events"]) == 4 and [e["kind"] for e in api["events"]].count("evening") == 3
    assert shown_lines(page) == [
        {"name": line["name"], "place": f"{line['place']}.", "points": line["points"],
         "events": str(line["events"]), "wins": str(line["wins"]),
         "average": line["average"]} for line in api["standings"]]
    # on a phone the events, wins and average stand in a line under the name
    under = page.locator(".season-figures").all_inner_texts()
    assert [line["average"] in text and str(line["events"]) in text for line, text
            in zip(api["standings"], under, strict=True)] == [True] * len(under)
    assert page.locator("tr.not-qualified").count() == sum(
        1 for line in api["standings"] if not line["qualified"]) > 0

    # one player's results a tap away, each marked counted or not as the API says
    first = page.locator("tr.season-line").first
    first.locator("details summary").tap()
    marks = first.locator(".result-list li").evaluate_all(
        "items => items.map(i => [Number(i.dataset.event), i.dataset.points, i.dataset.counted])")
    assert marks == [[r["event"] + 1, r["points"], "1" if r["counted"] else "0"]
                     for r in api["standings"][0]["results"]]
    m.look("season-results")
    looks.look("season-results")

    # every event listed with a link to its page
    links = page.locator(".season-events a").evaluate_all("as => as.map(a => a.pathname)")
    assert links == [f"/tournaments/{e['id']}/" if e["kind"] == "tournament"
                     else f"/sessions/{e['id']}/" for e in api["events"]]

    # the CSV link downloads the same standings
    with page.expect_download() as download:
        page.locator("#season-csv").tap()
    rows = list(csv.reader(io.StringIO(
        Path(download.value.path()).read_text(encoding="utf-8-sig"))))
    assert [(r[0], r[1], r[2]) for r in rows[1:]] == [
        (str(line["place"]), line["name"], line["points"]) for line in api["standings"]]

    # a category's standings
    rosters.player_categorize(player=club_year["group"].players.get(name="Cilli"),
                              category="Damen")
    page.goto(f"{base}/seasons/{season.pk}/")
    page.locator(".category-pick a", has_text="Damen").tap()
    expect(page.locator("tr.season-line")).to_have_count(1)
    assert shown_lines(page)[0]["name"] == "Cilli"
    m.look("season-category")
    m.look("seasons", f"/groups/{club_year['group'].pk}/seasons/")
    m.look("season-edit", f"/seasons/{season.pk}/edit")
    looks.look("season-edit")
    assert not m.problems + looks.problems, "\n".join(m.problems + looks.problems)
    assert page.console_errors == []


def test_the_form_makes_a_season_refuses_an_end_before_its_start_and_changes_it(
        live_server, browser, club_year):
    group, base = club_year["group"], live_server.url
    page = new_phone(browser, locale="de-AT", width=320)
    m = Looker(page, base, "season-form", SHOTS, FITS)
    looks = Looker(page, base, "season-form")
    log_in(page, base, "anna")
    page.goto(f"{base}/groups/{group.pk}/")
    page.locator(f"a[href='/groups/{group.pk}/seasons/']").tap()
    page.locator("#id_name").fill("Herbstcup")
    page.locator("label[for=id_events_0]").tap()  # only tournaments
    page.locator("#id_start").fill("2026-12-01")
    page.locator("#id_end").fill("2026-09-01")
    with page.expect_navigation():
        page.locator(".season-form button.primary").tap()
    expect(page.locator("#error-end")).to_be_visible()
    assert page.locator(".field-error").count() == 1
    assert page.locator("#id_end").get_attribute("aria-invalid") == "true"
    assert not Season.objects.filter(name="Herbstcup").exists()
    m.look("season-form-error")
    looks.look("season-form-error")

    page.locator("#id_end").fill("2026-12-31")
    page.locator("#id_start").fill("2026-01-01")
    with page.expect_navigation():
        page.locator(".season-form button.primary").tap()
    made = Season.objects.get(name="Herbstcup")
    assert page.url == f"{base}/seasons/{made.pk}/"
    assert (made.events, made.cup_points, made.best_of) == (
        "tournaments", [str(p) for p in default_cup_points()], None)
    # only the tournament counts: its eight players
    expect(page.locator("tr.season-line")).to_have_count(8)

    page.locator(f"a[href='/seasons/{made.pk}/edit']").tap()
    page.locator("#id_cup_points").fill("10, 6, 3")
    page.locator("#id_best_of").fill("1")
    with page.expect_navigation():
        page.locator(".season-form button.primary").tap()
    made.refresh_from_db()
    assert (made.cup_points, made.best_of) == (["10", "6", "3"], 1)
    assert page.url == f"{base}/seasons/{made.pk}/"
    assert not m.problems + looks.problems, "\n".join(m.problems + looks.problems)
    assert page.console_errors == []


def test_the_season_prints_its_table_with_every_column_and_each_players_results(
        live_server, browser, club_year):
    season = club_year["season"]
    page = new_phone(browser, width=794, height=1123)  # A4 at 96 dpi
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    page.emulate_media(media="print")
    assert page.locator("th.wide").first.is_visible()
    assert page.locator(".results-line").first.is_visible()
    for hidden in ("header.bar", ".season-results", ".category-pick", ".chart", "#season-csv"):
        assert page.locator(hidden).first.is_hidden(), hidden
    assert page.console_errors == []
