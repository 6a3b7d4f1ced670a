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
from .phone import enter_deal, quiet, scores, tap

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


@pytest.mark.long(9)
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
        enter_deal(page, SEATS, deal, n)
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
