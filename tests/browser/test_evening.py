"""A new user signs up, starts a session and plays an evening on a phone.

Every score shown on screen is checked against the referee's replay of the same deals.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.deal import deal_from_dict
from referee.rules import mulatschak_rules
from referee.session import replay

from .conftest import SCREENSHOTS
from .evening import CORRECTION, EVENING, FIRST_DEALER, SEATS
from .phone import quiet, scores

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TRUMP_LABELS = {"acorns": "Acorns", "leaves": "Leaves", "hearts": "Hearts", "bells": "Bells"}


def expected_scores(deals: list[dict[str, Any]]) -> dict[str, int]:
    result = replay(mulatschak_rules("salzburg"), SEATS, FIRST_DEALER,
                    [deal_from_dict(d) for d in deals])
    assert result.illegal is None
    return dict(result.state.scores)


def scores_on_screen(page: Any) -> dict[str, int]:
    return scores(page)


def settle(page: Any, timeout: float = 10.0) -> None:
    """Wait until the live check and htmx have nothing in flight."""
    quiet(page, timeout)


def tap(page: Any, selector: str) -> None:
    """Tap something on the deal form: it changes at once, the check follows."""
    before = len(page.console_errors)
    page.locator(selector).tap()
    assert page.console_errors[before:] == [], selector


def enter(page: Any, deal: dict[str, Any], number: int) -> None:
    """Fill the deal form the way a player would: chips, toggles and steppers (the last
    player's tricks fill themselves in), then save; the answer is swapped in."""
    if deal["kind"] in ("collapsed", "passed"):
        label = "Collapsed" if deal["kind"] == "collapsed" else "All passed"
        with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
            page.get_by_role("button", name=label).tap()
        page.wait_for_selector(f"text=Deal {number} recorded.")
        return
    seat = {name: i for i, name in enumerate(SEATS)}
    tap(page, f"label[for=decl-{seat[deal['declarer']]}]")
    tap(page, f"label[for=bid-{deal['bid']}]")
    tap(page, f"label[for=trump-{deal['trump']}]")
    for name in deal["stayed_home"]:
        tap(page, f"#row-{seat[name]} .home-toggle")
    if deal["knocked"]:
        tap(page, "input[name=knocked]")
    playing = [p for p in SEATS if p not in deal["stayed_home"]]
    for name in playing[:-1]:  # the last one: the remainder
        n = deal["tricks"][name]
        if n == 0:
            tap(page, f"button[name=step][value='{seat[name]}:-1']")
        for _ in range(n):
            tap(page, f"button[name=step][value='{seat[name]}:+1']")
    quiet(page)
    preview = page.locator("#preview .preview")
    assert preview.is_visible(), page.locator("#deal-form").inner_text()
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    page.wait_for_selector(f"text=Deal {number} recorded.")


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
        enter(page, deal, n)
        assert scores_on_screen(page) == expected_scores(EVENING[:n]), f"after deal {n}"
        if n == 2:
            assert "collapse = ×2" in page.locator("#scoreboard .next").inner_text()
        if n == 3:
            page.screenshot(path=str(SCREENSHOTS / "evening-hearts.png"), full_page=True)

    number, fixed = CORRECTION
    page.goto(f"{page.url.split('#')[0].rstrip('/')}/deals/{number}/edit")
    # Bert gives a trick back first: the steppers never let the tricks pass five
    tap(page, "button[name=step][value='1:-1']")
    tap(page, "button[name=step][value='0:+1']")
    quiet(page)
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
