"""A save online is counted on the phone at once: the board shows the new scores marked
provisional before the server answers, and the server's board replaces it (issue 23;
static/provisional.js, going/landed)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scorepad.models import Deal

from ..strength import repeated
from .phone import log_in, new_phone, quiet, until
from .test_offline import made_deal
from .test_provisional import BADGE, board

pytestmark = [pytest.mark.browser, pytest.mark.alone,  # it measures time
              pytest.mark.django_db(transaction=True)]

#: The provisional board is there this soon after the tap.
AT_ONCE = 300

#: The game's scorer is loaded (at the first tap on the entry panel), with nothing waiting.
LOADED = """() => {
  try {
    const table = JSON.parse(document.getElementById("provisional").dataset.table);
    return !!(window.SchreiberScorer && window.SchreiberScorer.get(table.game).showBoard);
  } catch (e) { return false; }
}"""

LANGUAGES = {"en": "en-GB", "de": "de-AT", "hu": "hu-HU"}


def saves_held(page: Any, session_id: int) -> list[Any]:
    """The saves' requests, held until the test lets them go (every other request goes):
    a slow pub's network, whose answer comes only after the test has seen what the phone
    showed meanwhile."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        request = route.request
        if request.method == "POST" and request.headers.get("hx-target") == "table":
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(rf"/sessions/{session_id}/deals/"), hold)
    return held


def let_go(held: list[Any]) -> None:
    """The held saves go on: the server records them."""
    for route in held:
        route.continue_()


@pytest.mark.parametrize("language", repeated(list(LANGUAGES)))
def test_a_save_shows_the_provisional_board_at_once_then_the_servers(live_server, browser,
                                                                       language):
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna, overrides={"start_score": 8})
    page = new_phone(browser, locale=LANGUAGES[language], worker=False)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    held = saves_held(page, session.pk)
    before = board(page)
    assert not before["provisional"]
    made_deal(page)  # Anna bids 2 in acorns and makes it, the others one trick each
    until(page, lambda: page.evaluate(LOADED))  # loaded at the first tap, no deal waiting
    quiet(page)

    page.locator("#save-button").tap()
    expect(page.locator("#scoreboard")).to_have_class(re.compile(r"\bprovisional\b"),
                                                      timeout=AT_ONCE)
    counted = board(page)
    assert held and Deal.objects.count() == 0  # the server has not seen it yet
    assert counted["provisional"]
    assert counted["scores"] == {"Anna": 6, "Bert": 7, "Cilli": 7, "Dominik": 7}
    assert counted["dealer"] != before["dealer"]
    assert BADGE[language] in page.locator("#scoreboard .provisional-note").inner_text().lower()

    let_go(held)
    expect(page.locator("#scoreboard")).not_to_have_class(re.compile(r"\bprovisional\b"))
    expect(page.locator("#scoreboard .provisional-note")).to_have_count(0)
    assert Deal.objects.count() == 1
    server = board(page)
    assert server["scores"] == counted["scores"]
    assert server["dealer"] == counted["dealer"] and server["next"] == counted["next"]
    assert page.console_errors == []


def test_a_save_refused_as_recorded_elsewhere_drops_the_provisional_board(live_server, browser):
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna, overrides={"start_score": 8})
    page = new_phone(browser, worker=False)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    held = saves_held(page, session.pk)
    before = board(page)
    made_deal(page)
    until(page, lambda: page.evaluate(LOADED))
    quiet(page)
    # another phone records deal 1 meanwhile: this one's answer is a refusal
    page.locator("#save-button").tap()
    expect(page.locator("#scoreboard")).to_have_class(re.compile(r"\bprovisional\b"),
                                                      timeout=AT_ONCE)
    from scorepad import services
    from tests.scorepad.factories import record

    record(session, anna, {"kind": "collapsed"}, number=1)
    assert services.scoreboard(session)["scores"] == before["scores"]
    let_go(held)
    expect(page.locator("#scoreboard")).not_to_have_class(re.compile(r"\bprovisional\b"))
    # the server's words, as without the provisional board, and the server's board
    expect(page.locator("#stale-notice")).to_contain_text("Deal 1 was recorded on another phone")
    assert Deal.objects.count() == 1
    assert board(page)["scores"] == before["scores"]  # the server's: the collapse, not the deal
    assert page.locator("#decl-0").is_checked()  # the form as it was saved, to be confirmed


def test_a_one_tap_save_of_another_game_is_counted_at_once_too(live_server, browser):
    """Müller Matz's game is one tap on its loser (a form of its own, not the deal form);
    that tap is the page's first, which loads the phone's scorer: the game is counted as
    soon as it is there, while the server's answer is still on its way."""
    from scorepad import services
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, overrides=None,
                                     seats=["Anna", "Bert", "Cilli", "Dominik"],
                                     game="muller_matz", dealer="Dominik")
    page = new_phone(browser, worker=False)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    held = saves_held(page, session.pk)
    before = " ".join(page.locator("#scoreboard").inner_text().split())
    assert not page.evaluate(LOADED)
    page.locator("#entry button[name=loser]", has_text="Bert").tap()
    # (the answer is held until let_go: counted before it, however long the scripts took)
    expect(page.locator("#scoreboard")).to_have_class(re.compile(r"\bprovisional\b"))
    tally = " ".join(page.locator("#scoreboard table.tally").inner_text().split())
    assert held and Deal.objects.count() == 0
    let_go(held)
    expect(page.locator("#scoreboard")).not_to_have_class(re.compile(r"\bprovisional\b"))
    assert Deal.objects.count() == 1
    after = " ".join(page.locator("#scoreboard table.tally").inner_text().split())
    assert after == tally and after not in before
    assert page.console_errors == []
