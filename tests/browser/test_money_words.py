"""Money in the reader's language on a phone (issue 33, "Entry without friction"): a Mura
evening with a stake shows "0,50 €" in German and Hungarian and "€0.50" in English, in the
settlement's lists and its text for the chat, and the scoreboard's column of money under
"€" with "0,50" or "0.50"."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scorepad import services
from scorepad.models import Session

from ..strength import repeated
from .phone import log_in, new_phone
from .test_mura_evening import BY_COUNTS, SEATS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def written(amount: str, language: str) -> str:
    """How a reader of ``language`` writes an amount of euros under 1000 (blanks plain)."""
    value = Decimal(amount)
    sign = "\u2212" if value < 0 else ""
    if language == "en":
        return f"{sign}€{abs(value)}"
    return f"{sign}{str(abs(value)).replace('.', ',')} €"


def plain(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


@pytest.fixture
def mura() -> Any:
    from tests.scorepad.factories import group_with, record, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, preset="mura",
                                     overrides=None, seats=SEATS, game="mura", stake="0.50",
                                     currency="EUR")
    for deal in BY_COUNTS[:4]:  # Bert in mura 2, Anna in mura 1: money changes hands
        record(session, anna, deal)
    return session


@pytest.mark.parametrize(("locale", "width"), repeated([("de-AT", 320), ("hu-HU", 320),
                                                        ("en-GB", 360)], dev=1))
def test_the_settlement_writes_money_in_the_readers_language(live_server, browser, mura,
                                                             locale, width):
    language = locale[:2]
    money = services.settlement(Session.objects.get(pk=mura.pk))  # as stored now
    assert money["transfers"]
    page = new_phone(browser, locale=locale, width=width)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{mura.pk}/settlement")
    listed = [plain(t) for t in page.locator("ol.transfers li").all_inner_texts()]
    assert listed == [f"{t['from']} → {t['to']} {written(t['amount'], language)}"
                      for t in money["transfers"]]
    chat = [plain(line) for line in page.locator("#copy").input_value().splitlines()]
    assert chat == listed
    balances = [plain(t) for t in page.locator("ul.list").first.locator("li").all_inner_texts()]
    assert balances == [f"{name}: {written(amount, language)}"
                        for name, amount in money["balances"].items()]
    assert "EUR" not in page.locator("main").inner_text()
    page.goto(f"{live_server.url}/sessions/{mura.pk}/")
    cells = [plain(t) for t in page.locator("#scoreboard table.tally tbody td:last-child")
             .all_inner_texts()]
    # a narrow column: the sign heads it, its amounts are the numbers the language's way
    assert plain(page.locator("#scoreboard table.tally thead th").last.inner_text()) == "€"
    assert sorted(cells) == sorted(written(a, language).replace(" €", "").replace("€", "")
                                   for a in money["balances"].values())
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.console_errors == []
