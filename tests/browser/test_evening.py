"""A new user signs up, starts a session and plays an evening on a phone.

Every score shown on screen is checked against the referee's replay of the same deals.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from referee.deal import deal_from_dict
from referee.rules import mulatschak_rules
from referee.session import replay

from .conftest import SCREENSHOTS
from .evening import CORRECTION, EVENING, FIRST_DEALER, SEATS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TRUMP_LABELS = {"acorns": "Acorns", "leaves": "Leaves", "hearts": "Hearts", "bells": "Bells"}


def expected_scores(deals: list[dict[str, Any]]) -> dict[str, int]:
    result = replay(mulatschak_rules("salzburg"), SEATS, FIRST_DEALER,
                    [deal_from_dict(d) for d in deals])
    assert result.illegal is None
    return dict(result.state.scores)


def scores_on_screen(page: Any) -> dict[str, int]:
    out = {}
    for item in page.locator("#scoreboard .scores li").all():
        name = item.locator(".name").inner_text().replace("🂠", "").strip()
        out[name] = int(item.locator(".score").inner_text())
    return out


def settle(page: Any, timeout: float = 10.0) -> None:
    """Wait until htmx has no request in flight (the form was swapped). Polled from here:
    wait_for_function would need eval, which the page's CSP forbids."""
    deadline = time.monotonic() + timeout
    while page.evaluate("() => document.querySelectorAll('.htmx-request').length") > 0:
        assert time.monotonic() < deadline, "htmx did not settle"
        page.wait_for_timeout(20)


def tap(page: Any, selector: str) -> None:
    """Tap something that makes the deal form check itself, and wait for the answer."""
    before = len(page.console_errors)
    with page.expect_response(lambda r: r.url.endswith("/check")):
        page.locator(selector).click()
    settle(page)
    assert page.console_errors[before:] == [], selector


def enter(page: Any, deal: dict[str, Any]) -> None:
    """Fill the deal form the way a player would: chips, checkboxes and steppers."""
    if deal["kind"] == "collapsed":
        page.get_by_role("button", name="Collapsed").click()
        return
    if deal["kind"] == "passed":
        page.get_by_role("button", name="All passed").click()
        return
    seat = {name: i for i, name in enumerate(SEATS)}
    tap(page, f"label[for=decl-{seat[deal['declarer']]}]")
    tap(page, f"label[for=bid-{deal['bid']}]")
    tap(page, f"label[for=trump-{deal['trump']}]")
    for name in deal["stayed_home"]:
        tap(page, f"input[name=home][value='{seat[name]}']")
    if deal["knocked"]:
        tap(page, "input[name=knocked]")
    for name, n in deal["tricks"].items():
        for _ in range(n):
            tap(page, f"button[name=step][value='{seat[name]}:+1']")
    preview = page.locator(".preview")
    assert preview.is_visible(), page.locator("#deal-form").inner_text()
    with page.expect_navigation():
        page.get_by_role("button", name="Save").last.click()


def test_a_new_user_plays_an_evening_with_a_correction(live_server, phone):
    page = phone
    page.goto(live_server.url + "/signup/")
    page.fill("#id_username", "resi")
    page.fill("#id_password1", "kartenspiel-2026")
    page.fill("#id_password2", "kartenspiel-2026")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/sessions/new/")

    page.fill("#id_new_group", "Stammtisch Mondsee")
    for i, name in enumerate(SEATS):
        page.fill(f"#id_seat_{i}", name)
    page.check(f"input[name=dealer][value='{SEATS.index(FIRST_DEALER)}']")
    page.screenshot(path=str(SCREENSHOTS / "evening-start.png"), full_page=True)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**/sessions/*/")
    assert scores_on_screen(page) == dict.fromkeys(SEATS, 21)

    for n, deal in enumerate(EVENING, start=1):
        enter(page, deal)
        page.wait_for_load_state()
        assert f"Deal {n} recorded." in page.content()
        assert scores_on_screen(page) == expected_scores(EVENING[:n]), f"after deal {n}"
        if n == 2:
            assert "collapse = ×2" in page.locator("#scoreboard .next").inner_text()
        if n == 3:
            page.screenshot(path=str(SCREENSHOTS / "evening-hearts.png"), full_page=True)

    number, fixed = CORRECTION
    page.goto(f"{page.url.rstrip('/')}/deals/{number}/edit")
    # Bert gives a trick back first: the steppers never let the tricks pass five
    tap(page, "button[name=step][value='1:-1']")
    tap(page, "button[name=step][value='0:+1']")
    with page.expect_navigation():
        page.get_by_role("button", name="Save correction").click()
    corrected = list(EVENING)
    corrected[number - 1] = fixed
    assert scores_on_screen(page) == expected_scores(corrected)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, "the session page scrolls sideways on a phone"
    small = page.evaluate(
        """() => [...document.querySelectorAll('main a, main button, header a, header button,'
                  + ' .chips label')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44)
            .map(([text, r]) => `${text} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == [], f"touch targets under 44 px: {small}"
    page.screenshot(path=str(SCREENSHOTS / "evening-end.png"), full_page=True)
    assert page.console_errors == []
