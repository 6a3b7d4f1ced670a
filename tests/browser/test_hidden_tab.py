"""A phone whose tab is hidden (in a pocket, another app in front) does not poll the board,
and asks at once when it is seen again (issue: phones poll less when nobody looks)."""

from __future__ import annotations

import pytest

from .phone import new_phone, until
from .test_guest_evening import COUNT_POLLS, just_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The page told that it is hidden, or seen again (what a phone's browser does when another
#: app comes to the front or the screen goes off).
SEEN = """hidden => {
  Object.defineProperty(document, "visibilityState",
                        { configurable: true, get: () => hidden ? "hidden" : "visible" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_asks_nothing_and_asks_at_once_when_seen_again(browser, live_server):
    page = new_phone(browser)
    just_play(page, live_server.url)
    page.evaluate(COUNT_POLLS)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/board" in r.url else None)
    page.evaluate(SEEN, True)
    asked.clear()
    polls = page.evaluate("() => window.__polls")
    until(page, lambda: page.evaluate("() => window.__polls") >= polls + 3,
          what="three polls' turns while hidden")
    assert asked == []
    with page.expect_request(lambda r: "/board" in r.url, timeout=1500):
        page.evaluate(SEEN, False)
    assert page.console_errors == []
