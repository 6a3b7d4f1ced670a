"""axe-core finds nothing on the pages a newcomer meets and in the states of the session
page a table goes through: light and dark, 360 and 320 px, each language (issue 33:
Lighthouse's accessibility stays at 100). Every other browser test ends with the same check
on the pages it left open (conftest.py, pytest_runtest_call)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ..strength import repeated
from .axe import accessible
from .phone import log_in, new_phone, quiet, session_page, tap
from .test_offline import installed, outbox, saved_offline, until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"en": "en-GB", "de": "de-AT", "hu": "hu-HU"}
LOOKS = [("light", 360), ("dark", 320)]


@pytest.fixture
def evening() -> dict[str, Any]:
    """Anna's session of 12 deals, its group and a watch link."""
    from scorepad import sharing
    from tests.scorepad.factories import group_with, played, record, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    seats = ["Anna", "Bert", "Cilli", "Dominik"]
    for k in range(12):
        declarer = seats[k % 4]
        tricks = dict.fromkeys(seats, 1) | {declarer: 2}
        record(session, anna, played(declarer, tricks))
    return {"session": session, "token": sharing.watch_link_create(session=session)}


@pytest.mark.parametrize("language", repeated(list(LANGUAGES)))
@pytest.mark.parametrize(("scheme", "width"), LOOKS)
def test_the_seven_pages_break_no_rule(browser, live_server, evening, scheme, width,
                                       language):
    session = evening["session"]
    page = new_phone(browser, locale=LANGUAGES[language], scheme=scheme, width=width)
    for path in ("/", "/play/", "/accounts/login/", "/rules/", f"/watch/{evening['token']}/"):
        page.goto(live_server.url + path)
        accessible(page, f"{path} ({scheme}, {width} px, {language})")
    log_in(page, live_server.url, "anna")
    for path in (f"/groups/{session.group_id}/", f"/sessions/{session.pk}/"):
        page.goto(live_server.url + path)
        quiet(page)
        accessible(page, f"{path} ({scheme}, {width} px, {language})")


@pytest.mark.parametrize(("scheme", "width"), LOOKS)
def test_the_session_page_breaks_no_rule_while_a_deal_is_entered_and_undone(
        browser, live_server, evening, scheme, width):
    page = session_page(browser, live_server.url, evening["session"], scheme=scheme,
                        width=width)
    page.locator("summary[aria-label=Menu]").click()
    accessible(page, "the menu open")
    page.locator("summary[aria-label=Menu]").click()
    tap(page, "label[for=decl-1]")
    tap(page, "label[for=bid-5]")
    expect(page.locator("button[data-split]")).to_be_visible()
    accessible(page, "a Muli chosen: its all five offered")
    page.locator("input[name=t_1]").fill("6")
    tap(page, "label[for=trump-hearts]")
    quiet(page)
    accessible(page, "a number out of range, the referee's words")
    page.locator("input[name=t_1]").fill("")
    tap(page, "button[data-split]")
    quiet(page)
    expect(page.locator("#preview .preview")).to_be_visible()
    accessible(page, "the preview of a Muli")
    page.locator("#undo-last > summary").click()
    expect(page.get_by_role("button", name="Delete deal 12")).to_be_visible()
    accessible(page, "Undo's confirmation open")


def test_offline_the_kept_deals_the_provisional_board_and_the_logout_question_break_no_rule(
        browser, live_server, evening):
    page = session_page(browser, live_server.url, evening["session"])
    installed(page)
    saved_offline(page)
    expect(page.locator("[data-offline-note]")).to_be_visible()
    expect(page.locator("#scoreboard.provisional")).to_be_visible()
    accessible(page, "offline: a deal kept, the provisional board")
    page.goto(f"{live_server.url}/me/stats/")  # never opened here: the "No network" page
    accessible(page, "offline: the No network page")
    page.context.route("**/deals/new", lambda route: route.abort())  # the deal stays kept
    page.context.set_offline(False)
    page.goto(f"{live_server.url}/sessions/{evening['session'].pk}/")
    until(page, lambda: len(outbox(page)) == 1)
    page.locator("summary[aria-label=Menu]").click()
    page.get_by_role("button", name="Log out").click()
    ask = page.locator("dialog[data-logout-ask]")
    ask.wait_for(state="visible")
    accessible(page, "the question before logging out with a deal kept")
    ask.get_by_role("button", name="Stay logged in").click()


def test_the_tournament_screen_and_a_tables_phone_break_no_rule(browser, live_server):
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, tournament

    director = user("director")
    contest = tournament(group_with(director), director, players=8, rounds=2)
    table = drawn(contest, director).tables.get(number=1)
    screen = new_phone(browser, width=1280, height=720, scheme="dark")
    screen.goto(f"{live_server.url}/screen/{contest.screen_token}/")
    accessible(screen, "the public screen")
    phone = new_phone(browser)
    phone.goto(f"{live_server.url}/t/{table.code}/")
    quiet(phone)
    accessible(phone, "a table's phone")
    tap(phone, "label[for=decl-0]")
    quiet(phone)
    accessible(phone, "a table's phone, a deal begun")
