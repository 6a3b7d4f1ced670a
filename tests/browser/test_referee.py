"""The Referee page on a 360 px phone: the table's arguments settled with one tap per card
or call, in German and English, and every new page looked at in German, English and
Hungarian, light and dark, with test_looks' checks (nothing wider than the phone, no tap
target under 44 px, no name broken inside a word). Screenshots go to
test-results/looks/ (referee-*), as test_looks.py says."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad import services

from ..strength import LANGUAGE_SCHEMES, repeated
from .phone import log_in, new_phone, quiet
from .test_looks import PROBLEMS, Looker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Anna", "Bernadette", "Cilli", "Maximilian"]
LOCALES = {"de": "de-AT", "en": "en-GB", "hu": "hu-HU"}


@pytest.fixture
def tables() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    group = group_with(anna)
    salzburg = services.session_start(group=group, user=anna, preset="salzburg",
                                      overrides=None, seats=SEATS, dealer="Maximilian")
    mura = services.session_start(group=group, user=anna, preset="mura", overrides=None,
                                  seats=SEATS, game="mura", dealer="Maximilian")
    matz = services.session_start(group=group, user=anna, preset="muller_matz",
                                  overrides=None, seats=SEATS[:3], game="muller_matz")
    return {"salzburg": salzburg, "mura": mura, "matz": matz}


def answer(page: Any) -> str:
    return " ".join(page.locator("#referee-answer").inner_text().split())


def tap_card(page: Any, code: str) -> None:
    page.locator(f".referee-picker button[name=pick][value='{code}']").tap()
    quiet(page)


def tap(page: Any, selector: str) -> None:
    page.locator(selector).first.tap()
    quiet(page)


def no_problems(page: Any) -> None:
    problems = page.evaluate(PROBLEMS)
    assert not problems, "\n".join(problems)
    assert page.console_errors == []


def open_question(page: Any, base: str, session: Any, question: str) -> None:
    """From the session page: one tap on Referee, one on the question."""
    page.goto(f"{base}/sessions/{session.pk}/")
    with page.expect_navigation():
        page.locator("a[data-referee-link]").first.tap()
    with page.expect_navigation():
        page.locator(f"a[href$='/referee/{question}/']").tap()
    quiet(page)


WORDS = {
    "en": {"follow": "had to follow suit", "winner": "Bells Ace wins the trick so far",
           "legal": "Legal", "duel": "call until one passes", "declares": "declares 4 tricks",
           "turn": "It is not Cilli's turn", "revoke": "Revoke: Cilli did not follow Hearts",
           "sleep": "May go to sleep with 3 trumps", "nosleep": "May not go to sleep"},
    "de": {"follow": "hätte Farbe bedienen müssen", "winner": "Schelle Sau sticht bisher",
           "legal": "Erlaubt", "duel": "bis einer „weiter“ sagt",
           "declares": "ist Ansager mit 4 Stichen", "turn": "Cilli ist nicht dran",
           "revoke": "Farbe verleugnet: Cilli hat Herz (Piros) nicht bedient",
           "sleep": "Darf mit 3 Trümpfen schlafen gehen", "nosleep": "Darf nicht schlafen gehen"},
}


@pytest.mark.parametrize("lang", repeated(["en", "de"]))
def test_a_trick_dispute_names_the_broken_duty_and_then_the_winner(live_server, browser, tables,
                                                                    lang):
    page = new_phone(browser, locale=LOCALES[lang])
    log_in(page, live_server.url, "anna")
    open_question(page, live_server.url, tables["salzburg"], "trick")
    words = WORDS[lang]
    tap(page, "label[for=trump-leaves]")
    tap_card(page, "bells-ace")      # Anna leads the bells ace
    tap_card(page, "leaves-10")      # Dominik plays the leaves 10 ...
    tap(page, "label[for=target-hand]")
    tap_card(page, "bells-10")       # ... holding the bells 10
    assert words["follow"] in answer(page)
    assert page.locator("#referee-answer a[href$='#following-suit']").count() == 1
    no_problems(page)
    tap(page, "button[name=drop][value='trick:1']")  # take the leaves 10 back
    tap(page, "label[for=target-trick]")
    tap_card(page, "bells-10")       # he follows suit after all
    said = answer(page)
    assert said.startswith("✓") and words["legal"] in said and words["winner"] in said
    no_problems(page)


@pytest.mark.parametrize("lang", repeated(["en", "de"], dev=1))
def test_an_auction_dispute_names_whose_call_it_is_and_the_declarer(live_server, browser,
                                                                      tables, lang):
    page = new_phone(browser, locale=LOCALES[lang])
    log_in(page, live_server.url, "anna")
    open_question(page, live_server.url, tables["salzburg"], "auction")
    words = WORDS[lang]
    # Maximilian deals: Anna 2, Bernadette 3, Cilli pass, Maximilian holds (a duel) ...
    for call in ("2", "3", "pass", "hold"):
        tap(page, f".call-buttons button[value='{call}']")
    assert words["duel"] in answer(page)
    tap(page, "label[for=caller-2]")  # ... and Cilli bids into the duel: not her turn
    tap(page, ".call-buttons button[value='4']")
    assert words["turn"] in answer(page)
    assert page.locator("#referee-answer a[href$='#holding-and-the-duel']").count() >= 1
    tap(page, "button[name=drop][value='calls:4']")
    for call in ("4", "hold", "pass"):  # Bernadette 4, Maximilian holds, Bernadette passes
        tap(page, f".call-buttons button[value='{call}']")
    assert f"Maximilian {words['declares']}" in answer(page)
    no_problems(page)


@pytest.mark.parametrize("lang", repeated(["en", "de"]))
def test_a_mura_revoke_is_found_from_the_cards_seen(live_server, browser, tables, lang):
    page = new_phone(browser, locale=LOCALES[lang])
    log_in(page, live_server.url, "anna")
    open_question(page, live_server.url, tables["mura"], "mura")
    tap(page, "label[for=leader-0]")  # Anna leads the hearts 9, Bernadette the 10,
    for code in ("hearts-9", "hearts-10", "bells-7"):  # Cilli shows out with a bell ...
        tap_card(page, code)
    tap(page, "label[for=target-later]")
    tap_card(page, "hearts-8")        # ... and plays the hearts 8 later
    said = answer(page)
    assert WORDS[lang]["revoke"] in said
    assert page.locator("#referee-answer a[href$='#mura-play']").count() >= 1
    no_problems(page)


@pytest.mark.parametrize("lang", repeated(["en", "de"], dev=1))
def test_a_muller_matz_player_may_sleep_with_three_trumps(live_server, browser, tables, lang):
    page = new_phone(browser, locale=LOCALES[lang])
    log_in(page, live_server.url, "anna")
    open_question(page, live_server.url, tables["matz"], "hand")
    tap(page, "label[for=trump-hearts]")
    for code in ("hearts-2", "hearts-7"):
        tap_card(page, code)
    assert WORDS[lang]["nosleep"] in answer(page)
    tap_card(page, "hearts-jack")
    said = answer(page)
    assert WORDS[lang]["sleep"] in said
    assert page.locator("#referee-answer a[href$='#sleeping']").count() == 1
    no_problems(page)


def test_the_rules_link_opens_its_section_of_the_rules_document(live_server, browser):
    page = new_phone(browser)
    page.goto(f"{live_server.url}/referee/trick/")
    tap(page, "label[for=trump-leaves]")
    for code in ("bells-ace", "leaves-10"):
        tap_card(page, code)
    tap(page, "label[for=target-hand]")
    tap_card(page, "bells-10")
    with page.expect_navigation():
        page.locator("#referee-answer a[href$='#following-suit']").tap()
    assert page.url.endswith("/rules/#following-suit")
    heading = page.locator("h3#following-suit")
    assert heading.is_visible()
    box = heading.bounding_box()
    assert box is not None and -1 <= box["y"] < 200, "the section is not scrolled into view"


def test_the_rules_picker_stays_open_while_the_preset_changes(live_server, browser):
    page = new_phone(browser)
    page.goto(f"{live_server.url}/referee/auction/")
    page.locator(".rules-picker summary").tap()
    tap(page, "label[for=preset-murln]")
    assert page.locator(".rules-picker").get_attribute("open") is not None
    assert page.locator("#preset-murln").is_checked()
    assert page.console_errors == []


def test_the_stand_alone_page_works_without_javascript(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 780},
                                  java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/referee/beat/")
    page.locator("label[for=trump-hearts]").click()
    with page.expect_navigation():
        page.locator(".referee-picker button[value='spades-ace']").click()
    with page.expect_navigation():
        page.locator(".referee-picker button[value='hearts-2']").click()
    assert "any trump beats" in page.locator("#referee-answer").inner_text()


# --- every new page, looked at -------------------------------------------------------------


def referee_pages(looker: Looker, tables: dict[str, Any]) -> None:
    page = looker.page
    looker.look("referee-home", "/")
    looker.look("referee", "/referee/")
    looker.look("referee-rules-doc", "/rules/#following-suit")
    looker.look("referee-trick", "/referee/trick/")
    page.locator(".rules-picker summary").tap()
    looker.look("referee-trick-rules")
    tap(page, "label[for=trump-hearts]")
    for code in ("hearts-ober", "bells-9", "hearts-ace", "leaves-7"):
        tap_card(page, code)
    tap(page, "label[for=target-hand]")
    tap_card(page, "bells-6")
    looker.look("referee-trick-answered")
    looker.look("referee-auction",
                "/referee/auction/?seats=5&preset=murln&rules_for=murln&r_sit_out_at=5")
    for call in ("2", "3", "pass", "hold", "muli"):
        tap(page, f".call-buttons button[value='{call}']")
    looker.look("referee-auction-answered")
    looker.look("referee-mura", "/referee/mura/")
    tap(page, "label[for=dealer-3]")
    for code in ("hearts-9", "hearts-10", "bells-7"):
        tap_card(page, code)
    looker.look("referee-mura-answered")
    looker.look("referee-beat", "/referee/beat/")
    tap(page, "label[for=trump-diamonds]")
    tap_card(page, "clubs-10")
    tap_card(page, "diamonds-2")
    looker.look("referee-beat-answered")
    looker.look("referee-hand", "/referee/hand/")
    tap(page, "label[for=trump-spades]")
    for code in ("spades-2", "hearts-9", "spades-queen"):
        tap_card(page, code)
    tap(page, "label[for=target-turned_up]")
    tap_card(page, "spades-king")
    looker.look("referee-hand-answered")
    looker.look("referee-pile", "/referee/pile/")
    tap(page, "label[for=trump-hearts]")
    for code in ("spades-9", "spades-4"):
        tap_card(page, code)
    looker.look("referee-pile-answered")
    log_in(page, looker.base, "anna")
    salzburg, matz = tables["salzburg"], tables["matz"]
    looker.look("referee-session", f"/sessions/{salzburg.pk}/referee/")
    looker.look("referee-session-auction", f"/sessions/{salzburg.pk}/referee/auction/")
    looker.look("referee-session-matz", f"/sessions/{matz.pk}/referee/")
    looker.look("referee-session-pile", f"/sessions/{matz.pk}/referee/pile/")


@pytest.mark.parametrize(("lang", "scheme"), repeated(LANGUAGE_SCHEMES))
@pytest.mark.long(9)
def test_every_referee_page_looks_right_on_a_phone(live_server, browser, tables, lang, scheme):
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme)
    looker = Looker(page, live_server.url, f"{lang}-{scheme}")
    referee_pages(looker, tables)
    assert not looker.problems, "\n".join(looker.problems)
    assert page.console_errors == []
