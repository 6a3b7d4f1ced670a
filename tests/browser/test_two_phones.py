"""Two phones at one table: A records, B (logged in, or by watch link) follows live."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from scorepad import rosters, sharing

from .conftest import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.alone,  # it measures time
              pytest.mark.django_db(transaction=True)]


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
    rosters.member_set(group=group, user=bert, role="editor")
    session = session_at(group, anna)
    return {"session": session, "token": sharing.watch_link_create(session=session)}


def _within(seconds: float, check: Any) -> float:
    """How long ``check`` (a wait for what a page shows) took; it fails beyond ``seconds``."""
    start = time.monotonic()
    check(seconds * 1000)
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
    took = _within(2.5, lambda ms: expect(b.locator("#scoreboard .next")).to_contain_text(
        "collapse = ×2", timeout=ms))
    expect(watcher.locator("#scoreboard .next")).to_contain_text("collapse = ×2", timeout=2500)

    # B's open form was about to record deal 1: it says so instead of recording it twice
    expect(b.locator("#stale-notice.warning")).to_have_count(1, timeout=2500)
    assert "recorded on another phone" in b.locator("#stale-notice").inner_text()
    b.screenshot(path=str(SCREENSHOTS / "two-phones-b.png"), full_page=True)
    watcher.screenshot(path=str(SCREENSHOTS / "two-phones-watcher.png"), full_page=True)
    assert took < 2.5

    # A deletes it again (after the confirmation): the others follow too
    a.goto(f"{url}deals/1/delete")
    a.get_by_role("button", name="Delete").click()
    a.wait_for_load_state()
    expect(watcher.locator("#scoreboard .next")).to_contain_text("×1", timeout=2500)
    expect(b.locator("#scoreboard .next")).to_contain_text("×1", timeout=2500)


def _tap(page: Any, selector: str) -> None:
    """Tap something that makes the deal form check itself; wait for the swapped form."""
    with page.expect_response(lambda r: r.url.endswith("/check")):
        page.locator(selector).click()
    expect(page.locator(".htmx-request")).to_have_count(0, timeout=10_000)


def test_a_stale_form_on_phone_b_keeps_what_b_typed_and_saves_only_when_confirmed(
    browser, live_server, table
):
    """Phones A and B both open deal 1; B types a deal, A records deal 1 first. B's form
    says so, keeps B's deal and its number through further taps, and records it as deal 2
    only when B presses the button that says so (issue 12: it used to renumber itself
    and record a duplicate)."""
    from scorepad.models import Deal

    session = table["session"]
    a = _login(browser, live_server, "anna")
    b = _login(browser, live_server, "bert")
    url = f"{live_server.url}/sessions/{session.pk}/"
    a.goto(url)
    b.goto(url)
    for selector in ("label[for=decl-1]", "label[for=bid-3]", "label[for=trump-leaves]"):
        _tap(b, selector)

    a.get_by_role("button", name="Collapsed").click()
    a.wait_for_load_state()
    expect(b.locator("#stale-notice.warning")).to_have_count(1, timeout=3000)
    notice = b.locator("#stale-notice").inner_text()
    assert "Deal 1 was recorded on another phone" in notice and "collapsed" in notice

    # B's next taps (the tricks) re-check the form: still deal 1, still stale, B's deal kept
    for seat, tricks in enumerate((1, 2, 1)):  # the last player's trick fills itself in
        for _ in range(tricks):
            _tap(b, f"button[name=step][value='{seat}:+1']")
    # the last check's answer may still be on its way under load: wait for it, do not race it
    expect(b.locator("#deal-form .preview")).to_be_visible(timeout=10_000)
    expect(b.locator("input[name=t_3]")).to_have_attribute("placeholder", "1")
    expect(b.locator("#deal-form input[name=number]")).to_have_value("1")
    expect(b.locator("#stale-notice.warning")).to_have_count(1)
    expect(b.locator("#decl-1")).to_be_checked()
    expect(b.locator("#trump-leaves")).to_be_checked()
    assert Deal.objects.filter(session=session).count() == 1
    b.screenshot(path=str(SCREENSHOTS / "two-phones-stale-form.png"), full_page=True)

    save = b.locator("#deal-form .actions button.big")
    assert save.inner_text() == "Save as deal 2" and save.get_attribute("aria-disabled") is None
    with b.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        save.click()  # the page's script saves it; the answer is swapped in
    b.wait_for_selector("text=Deal 2 recorded.")
    deals = list(Deal.objects.filter(session=session).order_by("number"))
    assert [d.number for d in deals] == [1, 2]
    assert deals[1].data["bid"] == 3 and deals[1].data["trump"] == "leaves"
