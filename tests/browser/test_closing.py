"""Closing a session on a phone (issue 33, "Entry without friction"): a second tap before
it closes, the closing in the history, no "deals next" on the closed board and the
settlement a big button, in English, German and Hungarian at 360 and 320 px."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scorepad import services
from scorepad.models import Session

from ..strength import repeated
from .phone import log_in, new_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening() -> Any:
    from tests.scorepad.factories import group_with, record, user

    from .test_mura_evening import BY_COUNTS, SEATS

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, preset="mura",
                                     overrides=None, seats=SEATS, game="mura", stake="0.50",
                                     currency="EUR")
    for deal in BY_COUNTS[:2]:
        record(session, anna, deal)
    return session


@pytest.mark.parametrize(("locale", "width"), repeated([("en-GB", 360), ("de-AT", 320),
                                                        ("hu-HU", 320)], dev=1))
def test_closing_asks_a_second_tap_and_goes_into_the_history(live_server, browser, evening,
                                                             locale, width):
    with translation.override(locale[:2]):
        close, confirm, closed, settle = (gettext("Close session"), gettext("Close the session"),
                                          gettext("Session closed"),
                                          gettext("Settlement: who pays whom"))
    page = new_phone(browser, locale=locale, width=width)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{evening.pk}/")
    expect(page.locator("#scoreboard .next")).to_be_visible()
    page.locator(".close-session summary").tap()
    expect(page.get_by_role("button", name=confirm)).to_be_visible()
    assert Session.objects.get(pk=evening.pk).status == "open"  # one tap closes nothing
    with page.expect_navigation():
        page.get_by_role("button", name=confirm).tap()
    assert Session.objects.get(pk=evening.pk).status == "closed"
    expect(page.locator("#scoreboard .next")).to_have_count(0)
    expect(page.locator("#scoreboard .dealer-mark")).to_have_count(0)
    button = page.get_by_role("link", name=settle)
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and "button" in (
        button.get_attribute("class") or "")
    assert page.get_by_text(close, exact=True).count() == 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.goto(f"{live_server.url}/sessions/{evening.pk}/history")
    expect(page.locator("li.status-change").first).to_contain_text(closed)
    expect(page.locator("li.status-change").first).to_contain_text("anna")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.console_errors == []
