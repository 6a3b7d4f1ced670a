"""Looking back on a phone: the history, a deal sheet with its chart, the statistics."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.test_stats import script_matz, script_mulatschak, script_mura

    anna = user("anna")
    group = group_with(anna)
    session = script_mulatschak(group, anna)
    script_mura(group, anna)
    script_matz(group, anna)
    return {"group": group, "session": session}


def _fits(page: Any) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = page.url.rstrip("/").rsplit("/", 2)[-2:]
    page.screenshot(path=str(SCREENSHOTS / f"looking-back-{'-'.join(name)}.png"), full_page=True)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways on a 360 px phone ({width} px)"


def test_history_sheet_chart_and_statistics_fit_a_phone(live_server, phone, evening):
    phone.goto(live_server.url + "/accounts/login/")
    phone.fill("#id_username", "anna")
    phone.fill("#id_password", "s3cret-pass!")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(live_server.url + "/")

    group = evening["group"]
    phone.goto(f"{live_server.url}/groups/{group.pk}/sessions/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Past sessions")
    expect(phone.locator(".past-session")).to_have_count(3)
    _fits(phone)

    # htmx on top of the GET form: choosing a game swaps only the results
    phone.select_option("#id_game", "mura")
    expect(phone.locator(".past-session")).to_have_count(1)
    expect(phone).to_have_url(f"{live_server.url}/groups/{group.pk}/sessions/?game=mura"
                              "&player=&since=&until=")
    phone.select_option("#id_game", "")
    expect(phone.locator(".past-session")).to_have_count(3)

    phone.locator(".past-session", has_text="Mulatschak").get_by_role(
        "link", name="Deal sheet and chart").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Deal sheet")
    chart = phone.get_by_role("img", name="Line chart, one line per player")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 360 and box["height"] > 150
    expect(phone.locator(".chart-svg .series")).to_have_count(4)
    expect(phone.locator(".chart-svg .boundary")).to_have_count(1)
    # the lines are drawn in distinct colours from the stylesheet (no inline styles)
    colours = phone.locator(".chart-svg .series polyline").evaluate_all(
        "els => els.map(e => getComputedStyle(e).stroke)")
    assert len(set(colours)) == 4
    expect(phone.locator(".sheet")).to_contain_text("Game 1 over")
    _fits(phone)

    phone.goto(f"{live_server.url}/groups/{group.pk}/stats/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Player statistics")
    phone.get_by_label("Sort by").select_option("-win_rate")   # a phone sorts the cards
    phone.get_by_role("button", name="Sort", exact=True).click()
    expect(phone).to_have_url(f"{live_server.url}/groups/{group.pk}/stats/?sort=-win_rate")
    expect(phone.locator("article.stat-card").first).to_contain_text("Anna")
    expect(phone.get_by_role("img", name="Line chart of Mulatschak games won so far")
           ).to_be_visible()
    _fits(phone)

    phone.get_by_role("link", name="Anna").first.click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Anna")
    expect(phone.get_by_role("img", name="Line chart of Mulatschak points per session")
           ).to_be_visible()
    _fits(phone)
    assert phone.console_errors == []


def test_the_chart_follows_the_dark_theme(live_server, browser, evening):
    from .conftest import PHONE

    context = browser.new_context(viewport=PHONE, color_scheme="dark", locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "s3cret-pass!")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/sessions/{evening['session'].pk}/sheet")
    chart = page.locator(".chart-svg")
    expect(chart).to_be_visible()
    assert chart.evaluate("e => getComputedStyle(e).color") == "rgb(242, 242, 242)"
    first_line = page.locator(".chart-svg .s0 polyline").first
    assert first_line.evaluate("e => getComputedStyle(e).stroke") == "rgb(140, 196, 255)"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "looking-back-sheet-dark.png"), full_page=True)
    assert errors == []
    context.close()


def test_the_printed_sheet_is_black_on_white_without_nav_or_buttons_and_fits_a4(
        live_server, browser, evening):
    # A4 minus 12 mm margins on each side is 186 mm ≈ 703 CSS px wide.
    context = browser.new_context(viewport={"width": 703, "height": 1000}, locale="en-GB",
                                  color_scheme="dark")
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "s3cret-pass!")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/sessions/{evening['session'].pk}/sheet")
    page.emulate_media(media="print")
    expect(page.locator("header.bar")).to_be_hidden()
    assert page.locator("button:visible").count() == 0
    expect(page.get_by_role("link", name="← Session")).to_be_hidden()
    body = page.locator("body")
    assert body.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    assert body.evaluate("e => getComputedStyle(e).color") == "rgb(0, 0, 0)"
    table = page.locator("table.sheet")
    assert table.evaluate("e => e.getBoundingClientRect().width") <= 703
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 703
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "looking-back-sheet-print.png"), full_page=True)
    context.close()



def test_this_is_me_links_a_player_and_my_statistics_add_up_the_groups(
        live_server, phone, evening):
    from scorepad import stats
    from tests.scorepad.factories import group_with
    from tests.scorepad.test_stats import script_mulatschak

    first = evening["group"]
    anna = first.memberships.get(role="owner").user
    second = group_with(anna, name="Stammtisch Gmunden")
    script_mulatschak(second, anna)
    one_group = stats.player_stats(*_records(first.players.get(name="Anna")))
    assert one_group["mulatschak"]["deals_played"] > 0
    phone.goto(live_server.url + "/accounts/login/")
    phone.fill("#id_username", "anna")
    phone.fill("#id_password", "s3cret-pass!")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(live_server.url + "/")

    for group in (first, second):
        phone.goto(f"{live_server.url}/players/{group.players.get(name='Anna').pk}/")
        phone.get_by_role("button", name="This is me").click()
        expect(phone.get_by_text("This is you.")).to_be_visible()
        _fits(phone)

    phone.get_by_role("link", name="My statistics across groups").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("My statistics")
    expect(phone.locator("table.stats-table tbody tr")).to_have_count(2)
    # both groups played the same scripted Mulatschak evening: twice the deals of one
    played = phone.locator("dl.figures dt", has_text="Deals played").locator(
        "xpath=following-sibling::dd[1]")
    expect(played.first).to_have_text(str(2 * one_group["mulatschak"]["deals_played"]))
    _fits(phone)

    phone.goto(f"{live_server.url}/players/{second.players.get(name='Anna').pk}/")
    phone.get_by_role("button", name="This is not me").click()
    expect(phone.get_by_role("button", name="This is me")).to_be_visible()
    phone.goto(live_server.url + "/me/stats/")
    expect(phone.locator("table.stats-table tbody tr")).to_have_count(1)
    assert phone.console_errors == []


def _records(player: Any) -> tuple[str, Any]:
    from scorepad import stats

    return str(player.pk), stats.player_records(player)
