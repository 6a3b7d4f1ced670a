"""The exchange part of the deal entry on a phone (docs/rules.md, "Exchange"): a tap per
form, counts with steppers, in German, English and Hungarian at 360 px; screenshots go to
test-results/looks/ (look at them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from scorepad import rosters, services
from scorepad.models import Deal

from ..strength import repeated
from .phone import PASSWORD, log_in, new_phone, quiet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOKS = Path(__file__).resolve().parents[2] / "test-results" / "looks"
PROBLEMS = (Path(__file__).parent / "looks.js").read_text("utf-8")
SEATS = ["Anna", "Bernadette", "Cilli", "Maximilian"]
LOCALES = {"de": "de-AT", "en": "en-GB", "hu": "hu-HU"}


@pytest.mark.parametrize("language", repeated(list(LOCALES)))
def test_the_exchange_part_fits_the_phone_and_records_the_forms(live_server, browser,
                                                                language):
    resi = get_user_model().objects.create_user(username="resi", password=PASSWORD)
    group = rosters.group_create(user=resi, name="Stammtisch")
    session = services.session_start(group=group, user=resi, preset="salzburg",
                                     overrides={"delayed_trump": True}, seats=SEATS,
                                     dealer="Maximilian")
    page = new_phone(browser, locale=LOCALES[language])
    log_in(page, live_server.url, "resi")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.locator("label[for=decl-0]").tap()
    page.locator("label[for=bid-2]").tap()
    page.locator("label[for=trump-bells]").tap()
    for seat, n in ((0, 2), (1, 1), (2, 1)):
        for _ in range(n):
            page.locator(f"button[name=step][value='{seat}:+1']").tap()
    page.locator("#more summary").tap()
    page.locator("button[name=step][value='x0:+1']").tap()  # 1 + 7 + 2 + 6: the talon's 16
    page.locator("label[for=xf-1-bridge]").tap()
    page.locator("button[name=step][value='xu1:+1']").tap()  # from 1 to 2 face up
    page.locator("label[for=xf-3-seven_six]").tap()
    page.locator("label[for=xf-2-on_sight]").tap()
    page.locator("input[name=xr_2]").tap()
    quiet(page)
    assert page.locator("#preview .preview").is_visible(), page.locator("#deal-form").inner_text()
    assert not page.locator("input[name=xu_0]").is_visible()  # Anna: the plain count only
    assert not page.locator("input[name=x_1]").is_visible()  # Bernadette: the bridge's only
    LOOKS.mkdir(parents=True, exist_ok=True)
    page.locator("#more").screenshot(path=str(LOOKS / f"exchange-entry-{language}.png"))
    page.screenshot(path=str(LOOKS / f"exchange-entry-{language}-page.png"), full_page=True)
    problems = page.evaluate(PROBLEMS)
    assert problems == [], problems
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    page.wait_for_selector("#scoreboard")
    quiet(page)
    deal = Deal.objects.get(session=session)
    names = services.Names.of(session).deal_names(deal.data)
    assert names["exchanged"] == {"Anna": 1}
    assert names["exchanges"] == {"Bernadette": {"form": "bridge", "face_up": 2},
                                  "Cilli": {"form": "on_sight", "refused": True},
                                  "Maximilian": {"form": "seven_six"}}
    assert page.console_errors == []
