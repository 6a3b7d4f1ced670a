"""The home page on a phone, in a real browser."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_fits_a_phone_and_switches_to_german(live_server, phone):
    phone.goto(live_server.url + "/")
    assert phone.get_by_role("heading", level=1).inner_text().startswith("Schreiber")
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, "the page scrolls sideways on a 360 px phone"

    phone.get_by_role("button", name="DE").click()
    phone.wait_for_load_state()
    assert "Regelwerke" in phone.content()
    assert phone.console_errors == []


def test_the_referee_answers_a_deal_from_the_browser(live_server, phone):
    phone.goto(live_server.url + "/")
    answer = phone.evaluate(
        """async () => {
            const r = await fetch('/api/v1/referee/mulatschak/deal', {
                method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({rules: 'salzburg', players: ['A', 'B', 'C'], dealer: 'C',
                    deal: {kind: 'played', declarer: 'A', bid: 2, trump: 'hearts',
                           tricks: {A: 3, B: 1, C: 1}}})});
            return [r.status, await r.json()];
        }"""
    )
    status, body = answer
    assert status == 200
    assert body["multiplier"] == 2
    assert body["deltas"] == {"A": -6, "B": -2, "C": -2}


def test_the_api_docs_render_under_the_strict_content_security_policy(live_server, phone):
    phone.goto(live_server.url + "/api/v1/docs/")
    phone.wait_for_selector(".swagger-ui .opblock", timeout=15_000)
    assert "/api/v1/referee/mulatschak/deal" in phone.content()
    csp = [e for e in phone.console_errors if "Content Security Policy" in e]
    assert csp == []
