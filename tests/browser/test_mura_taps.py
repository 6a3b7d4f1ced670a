"""Mura in a dozen taps on a 360 px phone: a counts deal on the number pad, and card by
card the next trick's leader known on the phone the moment a trick is complete, while the
server's answers take 300 ms and more."""

from __future__ import annotations

import contextlib
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from referee.mura import MURA_RULES, trick_winner
from scorepad.models import Deal

from ..scorepad.mura_play import play
from ..strength import repeated
from .conftest import PHONE, SCREENSHOTS
from .phone import checks_sent, log_in, new_phone, quiet, until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
LANGUAGES = {"en-GB": "en", "de-DE": "de", "hu-HU": "hu"}
#: A typical deal: tricks 3/2/2/1, figures 6/4/5/1.
TRICKS = [3, 2, 2, 1]
FIGURES = [6, 4, 5, 1]
SMALL_TARGETS = """() => [...document.querySelectorAll('#deal-form a, #deal-form button,'
      + ' #deal-form select:not(.enhanced), #deal-form summary, #deal-form label,'
      + ' #deal-form input[data-pad]')]
    .filter(e => e.offsetParent !== null)
    .map(e => [e.textContent.trim().slice(0, 20) || e.name, e.getBoundingClientRect()])
    .filter(([, r]) => r.height < 44 || r.width < 44)
    .map(([text, r]) => `${text} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture
def mura() -> Any:
    from tests.scorepad.factories import game_start, user

    return game_start(user("anna"), "mura", seats=SEATS)


def open_phone(browser: Any, live_server: Any, session: Any, locale: str, query: str = "",
               worker: bool = True) -> Any:
    page = new_phone(browser, locale=locale, worker=worker)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/{query}")
    assert page.locator("html").get_attribute("lang") == LANGUAGES[locale]
    return page


def fits(page: Any) -> None:
    """Nothing scrolls sideways and every target in the deal form is at least 44 × 44 px."""
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px"
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], f"touch targets under 44 px: {small}"


def stored(session: Any) -> dict[str, Any]:
    """The one deal recorded, keyed by names."""
    by_id = {str(s.player_id): s.player.name for s in session.seats.select_related("player")}
    data = Deal.objects.get(session=session).data

    def named(value: Any) -> Any:
        if isinstance(value, dict):
            return {by_id.get(k, k): named(v) for k, v in value.items()}
        if isinstance(value, list):
            return [named(v) for v in value]
        return by_id.get(value, value) if isinstance(value, str) else value

    return named(data)


@pytest.mark.parametrize("locale", repeated(["en-GB", "de-DE", "hu-HU"], dev=2))
def test_a_typical_counts_deal_takes_at_most_twelve_taps(browser, live_server, mura, locale):
    page = open_phone(browser, live_server, mura, locale)
    taps = 0
    pad = page.locator("[data-number-pad]")
    expect(pad).to_be_visible()
    # the pad walks the fields in order; Dominik's tricks come from the remainder
    plan = [("t_0", 3), ("f_0", 6), ("t_1", 2), ("f_1", 4), ("t_2", 2), ("f_2", 5), ("f_3", 1)]
    for field, n in plan:
        assert page.locator("input.pad-active").get_attribute("name") == field
        if field == "t_0":
            fits(page)
        if field == "f_3":  # one trick (from the remainder): the referee allows 0 to 6 figures
            shown = pad.locator("button[data-number]:visible").all_inner_texts()
            assert shown == [str(k) for k in range(7)], shown
        pad.locator(f"button[data-number='{n}']").tap()
        taps += 1
    assert page.locator("input[name=t_3]").input_value() == ""
    assert page.locator("input[name=t_3]").get_attribute("placeholder") == "1"
    expect(pad).to_be_hidden()  # every count is there
    quiet(page)
    for i, name in enumerate(SEATS):
        expect(page.locator(f"#result-{i}")).not_to_be_empty(), name
    fits(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"mura-counts-{locale}.png"))
    with page.expect_response(lambda r: r.request.method == "POST"
                              and r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    taps += 1
    quiet(page)
    assert taps <= 12, taps
    assert stored(mura) == {"tricks": dict(zip(SEATS, TRICKS, strict=True)),
                            "figures": dict(zip(SEATS, FIGURES, strict=True))}
    assert page.console_errors == []


def hold_checks(page: Any) -> list[Any]:
    """The referee's live check answers late: each request waits in the list until the
    test lets it go (release); until then no answer can have told the page anything."""
    held: list[Any] = []
    page.route("**/check", lambda route: held.append(route))  # a phone without the worker
    return held


def first_check_held(page: Any, held: list[Any], timeout: float = 5.0) -> None:
    """Wait until the page has sent a live check, which hold_checks keeps."""
    until(page, lambda: held, timeout, f"no live check sent within {timeout} s")


def release(page: Any, held: list[Any]) -> None:
    """Let the held checks go, once every check the taps so far made has left its
    debounce, and wait for the one still in flight (a newer check aborts the older ones)
    to answer: the answers come back together, late."""
    checks_sent(page)
    while True:
        while held:
            with contextlib.suppress(PlaywrightError):  # a check the page aborted meanwhile
                held.pop(0).continue_()
        # the check in flight answers, or its route reaches this test only now
        until(page, lambda: held or not page.locator("form.checking").count(), 10)
        if not held:
            return


def in_view(page: Any, locator: Any) -> None:
    """On screen and above the Save bar (pinned or not): reached without scrolling."""
    box = locator.bounding_box()
    bar = page.locator("#deal-form .actions").bounding_box()
    height = page.evaluate("window.innerHeight")
    assert box is not None and bar is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= min(bar["y"], height) + 1, \
        (box, bar, height)


def finger(page: Any, locator: Any) -> None:
    """Tap where the element is on screen, as a finger does. Playwright's own tap scrolls
    an element it finds covered or cut off before tapping it, which a finger cannot: here
    whatever is on top at that point is named, and the page never moves for the test."""
    in_view(page, locator)
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    on_top = locator.evaluate(
        "(e, [x, y]) => { const t = document.elementFromPoint(x, y);"
        " return e.contains(t) ? '' : (t ? t.outerHTML.slice(0, 200) : 'nothing'); }", [x, y])
    assert on_top == "", f"covered by {on_top}"
    page.touchscreen.tap(x, y)


@pytest.mark.parametrize("locale", repeated(["en-GB", "de-DE", "hu-HU"], dev=1))
@pytest.mark.long(5.5)
def test_card_by_card_the_next_leader_is_known_at_once_and_a_trick_needs_no_scrolling(
        browser, live_server, mura, locale):
    page = open_phone(browser, live_server, mura, locale, "?mode=cards", worker=False)
    quiet(page)
    first = page.locator("input[name=l_0]:checked").get_attribute("value")
    assert first is not None  # the session knows who leads first
    trick_cards = play(SEATS, 7, leader=SEATS[int(first)], lead_low=True)
    leaders = [trick["leader"] for trick in trick_cards]
    assert leaders[1] != leaders[0] and set(leaders) == set(SEATS)  # not simply who led
    held = hold_checks(page)
    picker = page.locator("[data-card-picker]")
    taps = 0
    for t, trick in enumerate(trick_cards):
        lead = SEATS.index(trick["leader"])
        # known on the phone already: no answer from the server has come since the last card
        assert page.locator(f"#l-{t}-{lead}").is_checked(), f"trick {t + 1}"
        # the picker asks for the leader's card, not "Who led this trick?"
        assert trick["leader"] in picker.locator("[data-picker-for]").inner_text(), t + 1
        if t == 1:
            fits(page)
            page.screenshot(path=str(SCREENSHOTS / f"mura-trick-2-{locale}.png"))
        for name in SEATS[lead:] + SEATS[:lead]:
            slot = page.locator(f"#slot-c-{t}-{SEATS.index(name)}")
            expect(slot).to_have_class(re.compile(r"\bactive\b"))
            card = picker.locator(f"button[data-card='{trick['cards'][name]}']")
            in_view(page, slot)
            expect(card).to_be_enabled()
            finger(page, card)
            taps += 1
        if t == 0:
            # trick 2 is played while the check of trick 1 waits for its answer: the check
            # leaves once the taps pause (its debounce), which on a fast machine they had
            # not yet done within the first two tricks (one CI run)
            first_check_held(page, held)
        if t == 1:
            held_at_trick_2 = len(held)
            release(page, held)
    assert taps == 32
    assert held_at_trick_2 > 0  # the leaders came before the server's answers
    release(page, held)
    page.unroute("**/check")
    quiet(page)
    assert page.locator("#deal-form .error:visible").count() == 0, \
        page.locator("#deal-form").inner_text()
    with page.expect_response(lambda r: r.request.method == "POST"
                              and r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    quiet(page)
    assert stored(mura)["trick_cards"] == trick_cards
    assert page.console_errors == []


def another_winner(trick: dict[str, Any], used: set[str]) -> tuple[str, str, str]:
    """A card for the trick's winner to have played instead (one not played yet) that
    hands the trick to somebody else: (player, card, new winner), by the referee's rule."""
    pack = MURA_RULES.card_pack
    order = SEATS[SEATS.index(trick["leader"]):] + SEATS[:SEATS.index(trick["leader"])]
    plays = [(p, pack.parse(trick["cards"][p])) for p in order]
    winner = trick_winner(plays)[0]
    for card in pack.cards:
        if card.code in used:
            continue
        changed = [(p, card if p == winner else c) for p, c in plays]
        if trick_winner(changed)[0] != winner:
            return winner, card.code, trick_winner(changed)[0]
    raise AssertionError("no card changes the winner")


def test_a_leader_the_phone_chose_follows_a_changed_card_and_one_chosen_by_hand_stays(
        browser, live_server, mura):
    page = open_phone(browser, live_server, mura, "en-GB", "?mode=cards")
    quiet(page)
    first = SEATS[int(page.locator("input[name=l_0]:checked").get_attribute("value"))]
    trick = play(SEATS, 7, leader=first, lead_low=True)[0]
    picker = page.locator("[data-card-picker]")
    for name in SEATS[SEATS.index(first):] + SEATS[:SEATS.index(first)]:
        picker.locator(f"button[data-card='{trick['cards'][name]}']").tap()
    winner, card, new_winner = another_winner(trick, set(trick["cards"].values()))
    assert page.locator(f"#l-1-{SEATS.index(winner)}").is_checked()

    def change_trick_1(code: str) -> None:
        if page.locator("#trick-1").get_attribute("open") is None:
            page.locator("#trick-summary-1").tap()
        page.locator(f"#slot-c-0-{SEATS.index(winner)}").tap()
        picker.locator(f"button[data-card='{code}']").tap()

    change_trick_1(card)
    assert page.locator(f"#l-1-{SEATS.index(new_winner)}").is_checked()  # at once, too
    quiet(page)
    assert page.locator("#err-lead-1").inner_text() == ""
    hand = next(i for i, p in enumerate(SEATS) if p not in (winner, new_winner))
    page.locator(f"label[for=l-1-{hand}]").tap()
    change_trick_1(trick["cards"][winner])
    assert page.locator(f"#l-1-{hand}").is_checked()  # the players' own choice is kept
    quiet(page)
    assert page.locator("#err-lead-1").inner_text() != ""  # and the referee names it wrong
    assert page.console_errors == []


def test_without_javascript_the_counts_are_typed_or_stepped_and_recorded(browser, live_server,
                                                                         mura):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="en-GB")
    page = context.new_page()
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{mura.pk}/")
    assert not page.locator("[data-number-pad]").is_visible()  # the pad needs the script
    with page.expect_navigation():
        page.locator("button[name=step][value='t0:+1']").click()  # a stepper posts the form
    assert page.locator("input[name=t_0]").input_value() == "1"
    for i in range(4):
        if i < 3:
            page.locator(f"input[name=t_{i}]").fill(str(TRICKS[i]))
        page.locator(f"input[name=f_{i}]").fill(str(FIGURES[i]))
    with page.expect_navigation():
        page.get_by_role("button", name="Check").click()
    assert page.locator("input[name=t_3]").get_attribute("placeholder") == "1"  # the remainder
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal").click()
    assert "Deal 1 recorded." in page.content()
    assert stored(mura) == {"tricks": dict(zip(SEATS, TRICKS, strict=True)),
                            "figures": dict(zip(SEATS, FIGURES, strict=True))}
    context.close()


def test_the_phones_trick_winner_is_the_referees_on_random_tricks(browser, live_server, mura):
    page = open_phone(browser, live_server, mura, "en-GB", "?mode=cards")
    ranks = page.locator("#deal-form").get_attribute("data-trick-ranks").split()
    pack = MURA_RULES.card_pack
    rng = random.Random(23)
    tricks = [rng.sample(pack.cards, 4) for _ in range(5000)]
    # same suit led often enough: half of the tricks follow the suit led where they can
    for cards in tricks[::2]:
        led = [c for c in pack.cards if c.suit == cards[0].suit and c not in cards]
        cards[1:3] = rng.sample(led, 2)
    phone = page.evaluate("([ranks, tricks]) => tricks.map("
                          "t => window.SchreiberCards.trickWinner(ranks, t))",
                          [ranks, [[c.code for c in cards] for cards in tricks]])
    referee = [int(trick_winner([(str(k), c) for k, c in enumerate(cards)])[0])
               for cards in tricks]
    assert phone == referee
    assert len(set(phone)) == 4  # every position wins some trick


@pytest.mark.parametrize("locale", repeated(["de-DE", "hu-HU"], dev=1))
def test_a_late_answer_does_not_move_the_trick_being_played(browser, live_server, mura, locale):
    """The referee's answers for two tricks arrive while the third is being played: the
    closed tricks above gain their winner and cards, and the trick and the picker the
    finger is on stay where they were (a card that moves under the finger is a wrong card
    tapped)."""
    page = open_phone(browser, live_server, mura, locale, "?mode=cards", worker=False)
    quiet(page)
    first = SEATS[int(page.locator("input[name=l_0]:checked").get_attribute("value"))]
    trick_cards = play(SEATS, 7, leader=first, lead_low=True)
    held = hold_checks(page)
    picker = page.locator("[data-card-picker]")
    for trick in trick_cards[:2]:
        lead = SEATS.index(trick["leader"])
        for name in SEATS[lead:] + SEATS[:lead]:
            finger(page, picker.locator(f"button[data-card='{trick['cards'][name]}']"))
    third = page.locator("#trick-3")
    before = [third.bounding_box()["y"], picker.bounding_box()["y"]]
    summaries = page.locator("#trick-summary-1, #trick-summary-2").all_inner_texts()
    checks_sent(page)  # the last card's check has left its debounce
    first_check_held(page, held)
    release(page, held)
    page.unroute("**/check")
    quiet(page)
    # the answers came and said more of tricks 1 and 2, above the third
    assert page.locator("#trick-summary-1, #trick-summary-2").all_inner_texts() != summaries
    after = [third.bounding_box()["y"], picker.bounding_box()["y"]]
    assert after == pytest.approx(before, abs=1)
    assert page.console_errors == []
