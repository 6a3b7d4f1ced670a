"""The group's story on a 360 px phone: ratings across a season on the group statistics
(a table and a chart per game family, the season filters), and the evening's name, date
and note on the session page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening() -> dict[str, Any]:
    from scorepad import services
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.test_stats import script_matz, script_mulatschak, script_mura

    anna = user("anna")
    group = group_with(anna)
    session = script_mulatschak(group, anna)
    services.session_set_status(session=script_mura(group, anna), status="closed")
    script_matz(group, anna)
    return {"group": group, "session": session}


def _log_in(page: Any, url: str) -> None:
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "s3cret-pass!")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(url + "/")


def _fits(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways on a 360 px phone ({width} px)"


def test_the_ratings_show_as_tables_and_charts_with_season_filters_on_a_phone(
        live_server, phone, evening):
    _log_in(phone, live_server.url)
    group = evening["group"]
    phone.goto(f"{live_server.url}/groups/{group.pk}/stats/")
    for title in ("Mulatschak", "Mura", "Müller Matz"):
        section = phone.locator("section.ratings", has=phone.get_by_role(
            "heading", name=f"Ratings: {title}"))
        expect(section).to_be_visible()
        rows = section.locator("table.ratings-table tbody tr")
        expect(rows.first).to_be_visible()
        expect(section.get_by_role("columnheader")).to_have_text(
            ["Player", "Rating", "Games", "Trend"])
        chart = section.get_by_role("img", name=f"Line chart of the {title} ratings")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box is not None and box["width"] <= 360 and box["height"] > 150
        # a line per rated player, each in a colour of its own
        expect(section.locator(".chart-svg .series")).to_have_count(rows.count())
        table = section.locator("table.ratings-table")
        assert table.evaluate("e => e.getBoundingClientRect().right") <= 360
    # the ratings go highest first
    values = phone.locator("#ratings-mulatschak table.ratings-table tbody td:nth-child(2)"
                           ).all_inner_texts()
    assert [float(v) for v in values] == sorted((float(v) for v in values), reverse=True)
    _fits(phone, "ratings-all-time")
    phone.locator("#ratings-muller_matz").screenshot(
        path=str(SCREENSHOTS / "readme-ratings.png"))  # docs/using.md's picture of the ratings

    all_time = phone.get_by_role("link", name="All time")
    expect(all_time).to_have_attribute("aria-current", "page")
    phone.get_by_role("link", name="This year").click()
    expect(phone).to_have_url(f"{live_server.url}/groups/{group.pk}/stats/?season=year")
    expect(phone.get_by_role("link", name="This year")).to_have_attribute("aria-current",
                                                                          "page")
    expect(phone.locator(".season-note")).to_be_visible()
    expect(phone.locator("section.ratings")).to_have_count(3)  # sessions of today count
    phone.get_by_role("link", name="This month").click()
    expect(phone).to_have_url(f"{live_server.url}/groups/{group.pk}/stats/?season=month")
    _fits(phone, "ratings-this-month")
    assert phone.console_errors == []


def test_the_evening_gets_a_name_a_date_and_a_note_on_the_session_page(
        live_server, phone, evening):
    _log_in(phone, live_server.url)
    phone.goto(f"{live_server.url}/sessions/{evening['session'].pk}/")
    about = phone.locator("#about")
    about.get_by_text("Name, date and note").click()
    about.get_by_label("Name of the evening").fill("Kirtag bei Hőfer Űrsula")
    about.get_by_label("Date").fill("2025-11-23")
    about.get_by_label("Note").fill("Bert brachte die Karten.\nNächstes Mal wieder!")
    about.get_by_role("button", name="Save").click()
    expect(phone.locator("#about .session-name")).to_have_text("Kirtag bei Hőfer Űrsula")
    expect(phone.locator("#about .session-date")).to_have_text("23 November 2025")
    expect(phone.locator("#about .session-note")).to_contain_text("Nächstes Mal wieder!")
    _fits(phone, "session-about")
    about.get_by_text("Name, date and note").click()  # the form, as docs/using.md shows it
    about.screenshot(path=str(SCREENSHOTS / "readme-evening.png"))

    about.get_by_label("Date").fill("")
    about.get_by_role("button", name="Save").click()
    expect(phone.locator(".about-form .error")).to_have_text(
        "Date: must be a date like 2025-11-23")
    phone.goto(f"{live_server.url}/groups/{evening['group'].pk}/sessions/")
    expect(phone.locator(".past-session .session-name")).to_have_text(
        "Kirtag bei Hőfer Űrsula")
    assert phone.console_errors == []
