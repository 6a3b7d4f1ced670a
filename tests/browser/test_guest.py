"""Playing without an account: from the start page of a fresh phone to the first deal
recorded, every tap counted; then signing up on the same phone keeps the session."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.models import Deal, Guest, Session

from ..strength import repeated
from .conftest import SCREENSHOTS
from .phone import PASSWORD, new_phone, quiet, scores

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def counted(page: Any) -> list[str]:
    """Every tap goes through here, so that the test counts them (typing on the phone's
    keyboard, its "next" key included, is not a tap)."""
    taps: list[str] = []

    def tap(selector: str) -> None:
        page.locator(selector).first.tap()
        taps.append(selector)

    page.tap_counted = tap
    return taps


@pytest.mark.parametrize("locale", repeated(["en-GB", "de-DE"]))
def test_a_fresh_phone_records_the_first_deal_in_eight_taps_then_signs_up_and_keeps_it(
        browser, live_server, locale):
    page = new_phone(browser, locale=locale)
    page.goto(live_server.url + "/")
    taps = counted(page)

    page.tap_counted("a[data-just-play]")
    page.wait_for_url(live_server.url + "/play/")
    assert page.locator("input[name=new_group]").count() == 0  # no group to pick
    page.tap_counted("#id_seat_0")
    for name in ["Anna", "Bert", "Cilli", "Dominik"]:
        page.keyboard.type(name)
        page.keyboard.press("Enter")  # the keyboard's "next": on to the next seat
    assert page.input_value("#id_seat_3") == "Dominik"
    if locale == "en-GB":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(SCREENSHOTS / "guest-start.png"))
    page.tap_counted("form.start-form button.primary")
    page.wait_for_url(live_server.url + "/sessions/*/")
    session = Session.objects.get()
    assert Guest.objects.get().group_id == session.group_id

    page.tap_counted("label[for=decl-0]")
    page.tap_counted("label[for=bid-2]")
    page.tap_counted("label[for=trump-acorns]")
    page.tap_counted("button[data-split]")
    quiet(page)
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.tap_counted("#save-button")
    quiet(page)
    assert len(taps) <= 8, taps
    assert Deal.objects.filter(session=session, number=1).exists()
    assert scores(page) == {"Anna": 19, "Bert": 20, "Cilli": 20, "Dominik": 20}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"guest-first-deal-{locale}.png"))

    # the same phone signs up: the session comes along
    page.goto(live_server.url + "/")
    page.locator("#guest a[href='/signup/']").tap()
    page.wait_for_url(live_server.url + "/signup/")
    page.fill("#id_username", "resi")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main form button.primary").tap()
    page.wait_for_url(live_server.url + "/")
    assert page.locator("#guest").count() == 0
    page.locator(f"main a[href='/sessions/{session.pk}/']").first.tap()
    page.wait_for_url(f"{live_server.url}/sessions/{session.pk}/")
    assert scores(page) == {"Anna": 19, "Bert": 20, "Cilli": 20, "Dominik": 20}
    assert not Guest.objects.exists()
    assert session.group.memberships.get().user.username == "resi"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width  # nothing wider than the phone
    assert page.console_errors == []


def test_a_deal_a_guest_kept_offline_is_sent_as_the_new_accounts_after_signing_up(
        browser, live_server):
    from .phone import until
    from .test_offline import installed, made_deal, outbox

    page = new_phone(browser)
    page.goto(live_server.url + "/play/")
    page.locator("#id_seat_0").fill("Anna")
    page.locator("#id_seat_1").fill("Bert")
    page.locator("#id_seat_2").fill("Cilli")
    page.locator("#id_seat_3").fill("Dominik")
    page.locator("form.start-form button.primary").tap()
    page.wait_for_url(live_server.url + "/sessions/*/")
    session = Session.objects.get()
    guest_user = Guest.objects.get().user
    installed(page)

    page.context.set_offline(True)
    made_deal(page)
    page.locator("#save-button").tap()
    until(page, lambda: len(outbox(page)) == 1)
    assert Deal.objects.count() == 0
    # the network is back, but the deal's sends still fail while the phone signs up
    page.context.route("**/deals/new", lambda route: route.abort())
    page.context.set_offline(False)
    page.goto(live_server.url + "/signup/")
    page.fill("#id_username", "resi")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main form button.primary").tap()
    page.wait_for_url(live_server.url + "/")
    assert Deal.objects.count() == 0
    page.context.unroute("**/deals/new")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    until(page, lambda: Deal.objects.count() == 1)
    deal = Deal.objects.get()
    assert deal.created_by.username == "resi" and deal.created_by != guest_user
    until(page, lambda: outbox(page) == [])
