"""Offline at the table: the app installs, keeps recording without a network and sends
every deal exactly once when the network is back."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad import sharing
from scorepad.models import Deal

from .conftest import SCREENSHOTS
from .phone import count_sends, log_in, new_phone, quiet, sent_on_load, until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table() -> Any:
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    return {"session": session, "anna": anna,
            "token": sharing.watch_link_create(session=session)}


CONTROLLED = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"




ACTIVE = """() => navigator.serviceWorker.getRegistration()
                 .then(r => !!(r && r.active && r.active.state === "activated"))"""


def installed(page: Any) -> None:
    """Wait until the service worker is active, then load the page once more through it
    (that is when the worker keeps its copy). Not until it controls the page: a page whose
    load began while the worker installed (the login's redirects) stays uncontrolled."""
    until(page, lambda: page.evaluate(ACTIVE))
    page.reload()
    until(page, lambda: page.evaluate(CONTROLLED))


def outbox(page: Any) -> list[str]:
    if page.locator("#outbox").is_hidden():
        return []
    return [" ".join(t.split()) for t in page.locator("#outbox li").all_inner_texts()]


def made_deal(page: Any) -> None:
    for selector in ("label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]",
                     "button[data-split]"):
        page.locator(selector).tap()


def saved_offline(page: Any, count: int = 1) -> None:
    """The network goes; the made deal is saved (``count`` times, one after the other) and
    waits on the phone, first of its list."""
    page.context.set_offline(True)
    for kept in range(1, count + 1):
        made_deal(page)
        page.locator("#save-button").tap()
        until(page, lambda n=kept: len(outbox(page)) == n)


def test_the_app_can_be_installed(live_server, browser):
    page = new_phone(browser)
    page.goto(live_server.url + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.request.get(live_server.url + href).json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(live_server.url + icon["src"]).ok
    worker = page.request.get(live_server.url + "/sw.js")
    assert worker.ok and "javascript" in worker.headers["content-type"]
    until(page, lambda: page.evaluate(CONTROLLED))
    assert page.console_errors == []


def test_a_deal_recorded_offline_survives_a_reload_and_arrives_once(live_server, browser,
                                                                    table):
    session = table["session"]
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)

    saved_offline(page)
    assert "Deal 1" in outbox(page)[0] and "not sent yet" in outbox(page)[0]
    assert page.locator("#deal-form input[name=number]").input_value() == "2"
    assert "Deal 2" in page.locator("#entry h2").inner_text()
    assert Deal.objects.count() == 0
    page.screenshot(path=str(SCREENSHOTS / "offline-queued.png"))

    page.reload()  # the phone reloads the page while still offline: the copy, and the outbox
    until(page, lambda: len(outbox(page)) == 1)
    assert page.locator("[data-offline-note]").is_visible()
    assert page.locator("#deal-form input[name=number]").input_value() == "2"
    assert Deal.objects.count() == 0

    page.context.set_offline(False)
    until(page, lambda: Deal.objects.count() == 1)
    until(page, lambda: outbox(page) == [])
    until(page, lambda: "19" in page.locator("#scoreboard .scores").inner_text())
    count_sends(page)
    page.reload()
    quiet(page)
    sent_on_load(page)  # the reloaded page's own send of the outbox: nothing again
    assert Deal.objects.count() == 1
    deal = Deal.objects.get()
    assert deal.number == 1 and deal.data["bid"] == 2 and deal.data["trump"] == "acorns"
    assert page.console_errors == [] or all("net::ERR_INTERNET_DISCONNECTED" in e
                                            for e in page.console_errors)


def test_a_queued_deal_that_another_phone_recorded_first_is_kept_with_the_reason(
        live_server, browser, table):
    from tests.scorepad.factories import EVEN, played, record

    session = table["session"]
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    page.context.set_offline(True)
    page.locator("button", has_text="Collapsed").tap()
    until(page, lambda: len(outbox(page)) == 1)
    record(session, table["anna"], played("Bert", EVEN | {"Anna": 1, "Bert": 2}))  # phone B

    page.context.set_offline(False)
    until(page, lambda: "Not recorded yet" in " ".join(outbox(page)))
    assert "another phone recorded this meanwhile" in outbox(page)[0]
    assert Deal.objects.count() == 1
    page.screenshot(path=str(SCREENSHOTS / "offline-refused.png"))
    page.get_by_role("button", name="Record as deal 2").tap()
    until(page, lambda: Deal.objects.count() == 2)
    until(page, lambda: outbox(page) == [])
    assert Deal.objects.get(number=2).kind == "collapsed"


def test_a_watcher_sees_offline_instead_of_a_stale_board(live_server, browser, table):
    page = new_phone(browser)
    page.goto(f"{live_server.url}/watch/{table['token']}/")
    assert page.locator("[data-offline-note]").is_hidden()
    page.context.set_offline(True)
    until(page, lambda: page.locator("[data-offline-note]").is_visible(), 6)
    assert "Offline" in page.locator("[data-offline-note]").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "watcher-offline.png"))
    page.context.set_offline(False)
    until(page, lambda: page.locator("[data-offline-note]").is_hidden(), 6)
