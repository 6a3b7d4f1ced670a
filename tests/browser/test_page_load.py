"""What the session page costs a phone after it is shown (issue 33: htmx's long task was
the polled board swapped in again every 2 s with nothing new; the phone's scorer loaded on
every visit, also by those who only look)."""

from __future__ import annotations

from typing import Any

import pytest

from .phone import log_in, new_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Counts the swaps of the board and the last deals (the form's own poll is not theirs),
#: and marks the board on the screen, so that a new one shows.
WATCH_SWAPS = """() => {
  window.__swaps = 0;
  document.addEventListener("htmx:afterSwap", (e) => {
    if (["scoreboard", "recent"].includes(e.detail.target.id)) window.__swaps += 1;
  });
  document.getElementById("scoreboard").__seen = true;
}"""


@pytest.fixture
def table() -> Any:
    from tests.scorepad.factories import EVEN, group_with, played, record, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    record(session, anna, played("Anna", EVEN))
    return session


def polls(page: Any, count: int) -> None:
    """Wait for ``count`` answers to the board's poll, each handled by the page."""
    for _ in range(count):
        with page.expect_event("requestfinished",
                               lambda r: "/board" in r.url and r.method == "GET"):
            pass
        page.wait_for_function("() => !document.querySelector('.htmx-request')")


def test_a_board_polled_with_nothing_new_is_not_swapped_in_again(browser, live_server, table):
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    page.evaluate(WATCH_SWAPS)
    polls(page, 3)
    assert page.evaluate("() => [window.__swaps, document.getElementById('scoreboard').__seen]") \
        == [0, True]
    # another phone records a deal: the next poll brings it, and it is swapped in
    from tests.scorepad.factories import EVEN, played, record

    record(table, table.created_by, played("Bert", EVEN))
    page.wait_for_function("() => !document.getElementById('scoreboard').__seen")
    assert page.evaluate("() => window.__swaps") > 0
    assert page.locator("#recent").inner_text().count("Bert") >= 1
    assert page.console_errors == []


def test_the_phones_scorer_loads_at_the_first_tap_on_the_entry_panel_not_before(
        browser, live_server, table):
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    polls(page, 2)
    assert not [u for u in scripts
                if "/scorer" in u or "rules-data" in u or "/words-" in u], scripts
    assert page.evaluate("() => typeof window.SchreiberScorer") == "undefined"
    with page.expect_response(lambda r: "/games/mulatschak/scorer" in r.url):
        page.locator("label[for=decl-0]").tap()
    page.wait_for_function("() => !!(window.SchreiberScorer && SchreiberScorer.get('mulatschak')"
                           " && SchreiberScorer.get('mulatschak').formDeal)")
    assert page.console_errors == []


#: Each closed <details> of the page with the children it gives a box to (not its summary).
CLOSED_WITH_BOXES = """() => Array.from(document.querySelectorAll("details:not([open])"))
  .map((d) => [d.id || d.className, Array.from(d.children)
    .filter((c) => c.tagName !== "SUMMARY" && getComputedStyle(c).display !== "none").length])
  .filter(([, shown]) => shown > 0)"""


def test_a_closed_section_of_the_session_page_costs_its_first_rendering_nothing(
        browser, live_server, table):
    """Chromium styles and lays out a closed <details>' content at load all the same; the
    deal form's "More" alone is some 150 elements of a page a phone renders first. Closed,
    their content has no box; opened, it is there."""
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    closed = page.locator("details:not([open])")
    assert closed.count() >= 3  # More, the evening's name and note, Close at least
    assert page.evaluate(CLOSED_WITH_BOXES) == []
    page.locator("#more > summary").click()
    assert page.locator("#xrow-0").is_visible()
    assert page.locator("#more > :not(summary)").first.evaluate(
        "(e) => getComputedStyle(e).display") != "none"
    assert page.console_errors == []
