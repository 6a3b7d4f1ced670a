"""A Mura evening on a phone: counts, one disputed deal card by card, a correction, and
the settlement. Every figure on screen is checked against the referee's own replay."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import expect

from referee import tally
from referee.money import Penalty, settle

from ..scorepad.mura_play import play
from .conftest import SCREENSHOTS
from .test_evening import settle as htmx_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
STAKE = Decimal("0.50")


def counts(tricks: list[int], figures: list[int]) -> dict[str, Any]:
    return {"tricks": dict(zip(SEATS, tricks, strict=True)),
            "figures": dict(zip(SEATS, figures, strict=True))}


#: Dominik takes no trick nine times: his ninth zero makes a whole mura in the money.
#: Deal 2 puts Bert in mura 2, deal 4 Anna in mura 1 (corrected away later), deal 9 Anna
#: in mura 2.
BY_COUNTS = [
    counts([3, 3, 2, 0], [6, 6, 6, 0]),
    counts([4, 2, 2, 0], [8, 2, 6, 0]),
    counts([2, 4, 2, 0], [4, 8, 4, 0]),
    counts([1, 3, 4, 0], [1, 7, 10, 0]),
    counts([3, 3, 2, 0], [5, 5, 6, 0]),
    counts([2, 2, 4, 0], [4, 4, 10, 0]),
    counts([5, 1, 2, 0], [12, 2, 4, 0]),
    counts([3, 3, 2, 0], [6, 6, 6, 0]),
    counts([2, 3, 3, 0], [2, 7, 7, 0]),
]
#: Deal 10 is Anna's to deal: Bert, after her, leads the first trick (docs/rules.md, "First lead").
CARDS = {"trick_cards": play(SEATS, 3, leader="Bert")}
CORRECTION = (4, counts([2, 3, 3, 0], [5, 7, 6, 0]))


def replay(deals: list[dict[str, Any]]) -> tally.MuraState:
    state = tally.mura_start(SEATS, "Dominik")
    for data in deals:
        _result, state = tally.mura_apply(SEATS, state, data)
    return state


def money(state: tally.MuraState) -> Any:
    return settle(STAKE, "EUR", {p: Penalty(state.mura[p], state.zeros[p]) for p in SEATS})


def board_on_screen(page: Any) -> dict[str, tuple[int, int, str]]:
    out = {}
    for row in page.locator("#scoreboard table.tally tbody tr").all():
        name = row.locator("th .pname").inner_text().strip()
        cells = row.locator("td").all_inner_texts()
        out[name] = (int(cells[0]), int(cells[1].split()[0]),
                     cells[2].strip().replace("\u2212", "-").replace("€", ""))
    return out


def euros(amount: Decimal) -> str:
    """An amount as an English page writes it: "€1.06", "−€1.06"."""
    return ("\u2212" if amount < 0 else "") + f"€{abs(amount)}"


def expected_board(state: tally.MuraState) -> dict[str, tuple[int, int, str]]:
    balances = money(state).balances
    return {p: (state.mura[p], state.zeros[p], str(balances[p])) for p in SEATS}


def checked(page: Any, action: Any) -> None:
    """Do something that makes the deal form check itself, and wait for the answer."""
    with page.expect_response(lambda r: r.url.endswith("/check")):
        action()
    htmx_settle(page)


def enter_counts(page: Any, data: dict[str, Any]) -> int:
    """Counts on the number pad: a tap a number, in the order the pad walks the fields; a
    count shown already (typed before, or the last tricks from the remainder) is left, one
    to change is tapped first. The taps."""
    taps = 0
    pad = page.locator("[data-number-pad]")
    for i, name in enumerate(SEATS):
        for key, prefix in (("tricks", "t"), ("figures", "f")):
            field = page.locator(f"input[name={prefix}_{i}]")
            want = str(data[key][name])
            if (field.input_value() or field.get_attribute("placeholder")) == want:
                continue
            if "pad-active" not in (field.get_attribute("class") or ""):
                field.tap()
                taps += 1
            pad.locator(f"button[data-number='{want}']").tap()
            taps += 1
    htmx_settle(page)
    assert page.locator("#deal-form .error:visible").count() == 0, \
        page.locator("#deal-form").inner_text()
    return taps


def enter_cards(page: Any, trick_cards: list[dict[str, Any]]) -> int:
    """Card by card with the card picker: the first leader follows from the dealer, then
    one tap per card in playing order; each later leader is filled in from the trick
    before. The taps."""
    taps = 0
    picker = page.locator("[data-card-picker]")
    for t, trick in enumerate(trick_cards):
        htmx_settle(page)
        assert page.locator(f"#trick-{t + 1}").get_attribute("open") is not None
        lead = SEATS.index(trick["leader"])
        assert page.locator(f"#l-{t}-{lead}").is_checked(), f"trick {t + 1}"
        order = SEATS[lead:] + SEATS[:lead]
        for name in order:
            picker.locator(f"button[data-card='{trick['cards'][name]}']").tap()
            taps += 1
    htmx_settle(page)
    for t, trick in enumerate(trick_cards):
        for name, code in trick["cards"].items():
            assert page.locator(f"select[name=c_{t}_{SEATS.index(name)}]").input_value() == code
    assert page.locator("#deal-form .error:visible").count() == 0, \
        page.locator("#deal-form").inner_text()
    return taps


def save(page: Any, label: str) -> None:
    htmx_settle(page)
    if label == "Save correction":  # a correction is a plain form post
        with page.expect_navigation():
            page.get_by_role("button", name=label).click()
        return
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.get_by_role("button", name=label).tap()
    page.wait_for_selector("#table .messages")


@pytest.mark.long(15)
def test_a_mura_evening_with_a_disputed_deal_and_the_settlement(live_server, phone):
    page = phone
    page.goto(live_server.url + "/signup/")
    page.fill("#id_username", "ilona")
    page.fill("#id_password1", "kartenspiel-2026")
    page.fill("#id_password2", "kartenspiel-2026")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/sessions/new/")

    page.fill("#id_new_group", "Kocsma Szeged")
    page.locator("input[name=game][value=mura]").check(force=True)
    for i, name in enumerate(SEATS):
        page.fill(f"#id_seat_{i}", name)
    page.check(f"input[name=dealer][value='{SEATS.index('Dominik')}']")
    page.fill("#id_stake", "0.50")
    page.fill("#id_currency", "EUR")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**/sessions/*/")
    session_url = page.url
    assert board_on_screen(page) == expected_board(replay([]))

    deals: list[dict[str, Any]] = []
    for n, data in enumerate(BY_COUNTS, start=1):
        taps = enter_counts(page, data)
        assert taps + 1 <= 12, f"deal {n}: {taps} taps and Save"
        save(page, "Save deal")
        # the answer is swapped in after it arrives: wait for this deal's message, not any
        expect(page.locator("#table .messages")).to_contain_text(f"Deal {n} recorded.")
        deals.append(data)
        assert board_on_screen(page) == expected_board(replay(deals)), f"after deal {n}"
    assert replay(deals).zeros["Dominik"] == 9  # the ninth zero: one more mura in money

    page.get_by_role("link", name="Card by card").click()
    page.wait_for_url("**?mode=cards")
    taps = enter_cards(page, CARDS["trick_cards"])
    assert taps == 32  # one per card: the session knows who leads first
    derived = tally.mura_check(SEATS, CARDS)
    for name, r in derived.results.items():
        row = page.locator("#deal-form table.derived tr", has_text=name)
        assert row.locator("td").all_inner_texts()[:2] == [str(r.tricks), str(r.figures)]
    page.screenshot(path=str(SCREENSHOTS / "mura-cards.png"), full_page=True)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    small = page.evaluate(
        """() => [...document.querySelectorAll('#deal-form a, #deal-form button,'
                  + ' #deal-form select:not(.enhanced), #deal-form summary, #deal-form label')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44)
            .map(([text, r]) => `${text} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == [], f"touch targets under 44 px: {small}"
    save(page, "Save deal")
    deals.append(CARDS)
    assert board_on_screen(page) == expected_board(replay(deals)), "after the card-by-card deal"

    number, fixed = CORRECTION
    page.goto(f"{session_url}deals/{number}/edit")
    assert enter_counts(page, fixed) == 8  # four counts changed: a tap on each, one on its number
    save(page, "Save correction")
    deals[number - 1] = fixed
    final = replay(deals)
    assert board_on_screen(page) == expected_board(final), "after the correction"

    page.goto(f"{session_url}deals/{len(deals)}/edit")
    assert page.locator("select[name=c_7_3]").count() == 1  # reopens card by card
    page.goto(session_url)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > 360)
        .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)""")
    assert width <= 360, f"the Mura page scrolls sideways on a phone: {wide[:8]}"

    page.get_by_role("link", name="Settlement: who pays whom").click()
    page.wait_for_url("**/settlement")
    want = money(final)
    shown = page.locator("ol.transfers li").all_inner_texts()
    assert shown == [f"{t.payer} → {t.payee} {euros(t.amount)}" for t in want.transfers]
    balances = page.locator("ul.list").first.locator("li").all_inner_texts()
    assert balances == [f"{p}: {euros(want.balances[p])}" for p in SEATS]
    assert sum(want.balances.values()) == 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    page.screenshot(path=str(SCREENSHOTS / "mura-settlement.png"), full_page=True)
    assert page.console_errors == []
