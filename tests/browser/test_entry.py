"""The deal being entered lives in the phone: taps count at once, whatever the network."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from scorepad.models import Deal

from .conftest import SCREENSHOTS
from .phone import log_in, new_phone, quiet, scores, until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table() -> Any:
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    return session_at(group_with(anna), anna)


def counted(page: Any) -> list[str]:
    """Every tap the test makes goes through here, so that the test can count them."""
    taps: list[str] = []

    def tap(selector: str) -> None:
        page.locator(selector).tap()
        taps.append(selector)

    page.tap_counted = tap
    return taps


def test_a_typical_made_deal_takes_five_taps_and_the_entry_panel_stays_in_view(
        browser, live_server, table):
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    taps = counted(page)
    page.tap_counted("label[for=decl-0]")
    page.tap_counted("label[for=bid-2]")
    page.tap_counted("label[for=trump-acorns]")
    page.tap_counted("button[data-split]")
    quiet(page)
    assert page.locator("#preview .preview").is_visible(), page.locator("#deal-form").inner_text()
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.tap_counted("#save-button")
    page.wait_for_selector("text=Deal 1 recorded.")
    assert len(taps) <= 6, taps
    assert scores(page) == {"Anna": 19, "Bert": 20, "Cilli": 20, "Dominik": 20}
    deal = Deal.objects.get()
    assert deal.data["tricks"] == {str(s.player_id): n for s, n in zip(
        table.seats.order_by("position"), [2, 1, 1, 1], strict=True)}
    box = page.locator("#entry").bounding_box()
    assert box is not None and 0 <= box["y"] < 780, box
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "entry-after-save.png"))
    assert page.console_errors == []


def slow(page: Any, latency: int = 300) -> None:
    """A pub's mobile data: every request waits `latency` ms (Chromium's network conditions)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                   "downloadThroughput": -1,
                                                   "uploadThroughput": -1})


@pytest.mark.alone  # taps 100 ms apart: nothing else may slow the browser
def test_taps_100_ms_apart_under_300_ms_latency_record_exactly_what_was_tapped(
        browser, live_server, table):
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    slow(page)
    taps = ["label[for=decl-0]", "label[for=bid-3]", "label[for=trump-hearts]",
            "button[name=step][value='0:+1']", "button[name=step][value='0:+1']",
            "button[name=step][value='0:+1']", "button[name=step][value='1:+1']",
            "button[name=step][value='2:+1']"]
    for selector in taps:
        page.locator(selector).tap()
        # A duration is the point: a finger's pace, each tap before the last one's
        # answer (300 ms away) can have come back.
        page.wait_for_timeout(100)
    # what was tapped is on screen at once, before any answer could have come back
    assert page.locator("#decl-0").is_checked() and page.locator("#bid-3").is_checked()
    assert page.locator("#trump-hearts").is_checked()
    values = [page.locator(f"input[name=t_{i}]").input_value() for i in range(4)]
    assert values == ["3", "1", "1", ""]
    assert page.locator("input[name=t_3]").get_attribute("placeholder") == "0"
    quiet(page)
    assert [page.locator(f"input[name=t_{i}]").input_value() for i in range(4)] == values
    preview = page.locator("#preview").inner_text()
    assert "If you save" in preview and "hearts" in preview, preview
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    page.wait_for_selector("text=Deal 1 recorded.")
    deal = Deal.objects.get()
    names = {str(s.player_id): s.player.name for s in table.seats.select_related("player")}
    recorded = {names[pid]: n for pid, n in deal.data["tricks"].items()}
    assert (names[deal.data["declarer"]], deal.data["bid"], deal.data["trump"]) == (
        "Anna", 3, "hearts")
    assert recorded == {"Anna": 3, "Bert": 1, "Cilli": 1, "Dominik": 0}
    assert page.console_errors == []


def test_a_typed_number_out_of_range_is_named_at_once_and_the_check_goes_on(
        browser, live_server, table):
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    slow(page)
    for selector in ("label[for=decl-1]", "label[for=bid-2]", "label[for=trump-bells]"):
        page.locator(selector).tap()
    page.locator("input[name=t_1]").fill("6")
    message = page.locator("#row-1 [data-local-error]")
    assert message.is_visible() and "0 to 5" in message.inner_text()  # no round trip needed
    quiet(page)
    assert "6" in page.locator("#err-row-1").inner_text() or page.locator("#hints .error").count()
    page.locator("input[name=t_1]").fill("2")
    assert message.is_hidden()
    for i in (0, 2):
        page.locator(f"button[name=step][value='{i}:+1']").tap()
    quiet(page)
    assert page.locator("#preview .preview").is_visible(), page.locator("#deal-form").inner_text()
    assert page.locator("input[name=t_3]").get_attribute("placeholder") == "1"
    assert page.console_errors == []


def test_without_javascript_the_plain_form_post_still_records_the_deal(browser, live_server,
                                                                       table):
    context = browser.new_context(viewport={"width": 360, "height": 780}, java_script_enabled=False,
                                  locale="en-GB")
    page = context.new_page()
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    page.locator("label[for=decl-0]").click()
    page.locator("label[for=bid-2]").click()
    page.locator("label[for=trump-acorns]").click()
    with page.expect_navigation():
        page.locator("button[name=step][value='0:+1']").click()  # a stepper posts the form
    with page.expect_navigation():
        page.locator("button[name=step][value='0:+1']").click()
    for i in (1, 2):
        page.locator(f"input[name=t_{i}]").fill("1")
    assert page.locator("input[name=t_0]").input_value() == "2"
    with page.expect_navigation():
        page.get_by_role("button", name="Check").click()
    assert "If you save" in page.locator("#preview").inner_text()
    assert page.locator("input[name=t_3]").get_attribute("placeholder") == "1"  # the remainder
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal").click()
    assert "Deal 1 recorded." in page.content()
    assert Deal.objects.count() == 1
    context.close()


def test_the_card_picker_takes_one_tap_per_card_and_greys_out_the_cards_played(
        browser, live_server):
    from tests.scorepad.factories import game_start, user

    anna = user("anna")
    session = game_start(anna, "mura")
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/?mode=cards")
    picker = page.locator("[data-card-picker]")
    select = page.locator("select[name=c_0_0]")  # kept for the form post, not shown
    assert select.evaluate("e => getComputedStyle(e).opacity") == "0"  # no 33-option dropdowns
    assert page.locator("#slot-c-0-0").is_visible()
    assert picker.locator("button[data-card]:not([data-card=''])").count() == 32
    page.locator("label[for=l-0-2]").tap()  # Cilli leads: her card comes first
    picker.locator("button[data-card='hearts-ace']").tap()
    picker.locator("button[data-card='hearts-king']").tap()
    assert page.locator("select[name=c_0_2]").input_value() == "hearts-ace"
    assert page.locator("select[name=c_0_3]").input_value() == "hearts-king"
    played = picker.locator("button[data-card='hearts-ace']")
    assert "played" in (played.get_attribute("class") or "") and played.is_disabled()
    assert "Anna" in picker.locator("[data-picker-for]").inner_text()  # next in turn
    quiet(page)
    assert page.console_errors == []


def test_the_settlement_text_is_copied_in_one_tap(browser, live_server):
    from tests.scorepad.factories import game_start, record, user

    anna = user("anna")
    session = game_start(anna, "mura", stake="0.50", currency="EUR")
    record(session, anna, {"tricks": {"Anna": 2, "Bert": 3, "Cilli": 3, "Dominik": 0},
                           "figures": {"Anna": 2, "Bert": 9, "Cilli": 7, "Dominik": 0}})
    page = new_phone(browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                   origin=live_server.url)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/settlement")
    page.locator("button[data-copy]").tap()
    page.wait_for_selector("[data-copied]:not([hidden])")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.locator("#copy").input_value() and "→" in copied


def test_a_poll_that_comes_back_after_a_save_replaced_the_board_logs_no_error(
        browser, live_server, table):
    # The board polls every 2 s. A poll still on its way when a save swaps in the new board
    # used to come back to the old, detached board, whose out-of-band #recent htmx then
    # looked for in that detached tree: htmx:oobErrorNoTarget (seen in CI under load).
    page = new_phone(browser, worker=False)  # its route holds the page's polls
    log_in(page, live_server.url, "anna")
    held: list[Any] = []
    page.route("**/board*", lambda route: held.append(route))
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    until(page, lambda: held, 10, "the board did not poll")  # a poll is sent and held
    page.locator("label[for=decl-0]").tap()
    page.locator("label[for=bid-2]").tap()
    page.locator("label[for=trump-acorns]").tap()
    page.locator("button[data-split]").tap()
    page.wait_for_selector("#preview .preview")  # (quiet() would wait for the held poll)
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    page.wait_for_selector("text=Deal 1 recorded.")
    page.unroute("**/board*")
    for route in held:  # the held polls come back now, to a board that is gone
        finished = page.expect_event("requestfinished",
                                     lambda r, sent=route.request: r == sent, timeout=10_000)
        # a request the page dropped cannot go on
        with contextlib.suppress(Exception), finished:
            route.continue_()
    # their answers are in; what htmx does with them runs in the page's next turns
    page.evaluate("() => new Promise(done => setTimeout(done))")
    assert scores(page) == {"Anna": 19, "Bert": 20, "Cilli": 20, "Dominik": 20}
    assert page.console_errors == []
