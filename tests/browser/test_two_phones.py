"""Two phones at one table: A records, B (logged in, or by watch link) follows live."""

from __future__ import annotations

import time
from typing import Any

import pytest

from scorepad import services

from .conftest import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(browser: Any, live_server: Any, username: str) -> Any:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "s3cret-pass!")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")
    return page


def _score(page: Any, name: str) -> str:
    item = page.locator("#scoreboard .scores li", has_text=name)
    return item.locator(".score").inner_text()


@pytest.fixture
def table() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    bert = user("bert")
    group = group_with(anna)
    services.member_set(group=group, user=bert, role="editor")
    session = session_at(group, anna)
    return {"session": session, "token": services.watch_link_create(session=session)}


def _wait_for(predicate: Any, seconds: float) -> float:
    start = time.monotonic()
    while not predicate():
        assert time.monotonic() - start < seconds, f"not within {seconds} s"
        time.sleep(0.05)
    return time.monotonic() - start


def test_a_deal_on_phone_a_shows_on_phone_b_and_the_watch_link_within_2_seconds(
    browser, live_server, table
):
    session = table["session"]
    a = _login(browser, live_server, "anna")
    b = _login(browser, live_server, "bert")
    watcher = browser.new_context(viewport=PHONE).new_page()
    url = f"{live_server.url}/sessions/{session.pk}/"
    a.goto(url)
    b.goto(url)
    watcher.goto(f"{live_server.url}/watch/{table['token']}/")
    assert _score(b, "Anna") == "21" and _score(watcher, "Anna") == "21"

    # A records a collapse: B and the watcher see the pending doubling
    a.get_by_role("button", name="Collapsed").click()
    a.wait_for_load_state()
    took = _wait_for(lambda: "collapse = ×2" in b.locator("#scoreboard .next").inner_text(), 2.5)
    _wait_for(lambda: "collapse = ×2" in watcher.locator("#scoreboard .next").inner_text(), 2.5)

    # B's open form was about to record deal 1: it says so instead of recording it twice
    _wait_for(lambda: b.locator("#stale-notice.warning").count() == 1, 2.5)
    assert "recorded on another phone" in b.locator("#stale-notice").inner_text()
    b.screenshot(path=str(SCREENSHOTS / "two-phones-b.png"), full_page=True)
    watcher.screenshot(path=str(SCREENSHOTS / "two-phones-watcher.png"), full_page=True)
    assert took < 2.5

    # A deletes it again (after the confirmation): the others follow too
    a.goto(f"{url}deals/1/delete")
    a.get_by_role("button", name="Delete").click()
    a.wait_for_load_state()
    _wait_for(lambda: "×1" in watcher.locator("#scoreboard .next").inner_text(), 2.5)
    _wait_for(lambda: "×1" in b.locator("#scoreboard .next").inner_text(), 2.5)
