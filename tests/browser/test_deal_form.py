"""The deal form without friction (issue 33 §3; issue 34's Save that stayed disabled): no
list of what is missing before the first tap, a Muli's "all five" where the eye is, the
other players' reason of a Muli in plain words, the deals kept on the phone under the form,
Undo a proper button above the last deals, and Save that opens whatever the check's answer."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scorepad.models import Deal

from ..strength import repeated
from .phone import quiet, session_page, tap
from .test_entry import slow
from .test_offline import installed, outbox, saved_offline, until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"en": "en-GB", "de": "de-AT", "hu": "hu-HU"}
WIDTHS = [360, 320]

MISSING = {"en": ("Who declared?", "How many tricks were bid?", "Which suit is trump?"),
           "de": ("Wer hat angesagt?", "Wie viele Stiche wurden angesagt?", "Was ist Trumpf?"),
           "hu": ("Ki mondott be?", "Hány ütést mondott be?", "Mi az adu?")}
#: The other players' reason when the declarer's Muli comes off.
MULI_AGAINST = {"en": "the declarer's Muli came off", "de": "Muli des Ansagers aufgegangen",
                "hu": "a bemondó Mulija bejött"}
#: What the form says when the check's answer is not the form.
UNCHECKED = {"en": "could not check this deal now", "de": "konnte dieses Spiel gerade nicht",
             "hu": "most nem tudta ellenőrizni"}
#: Each language's "all five" for Anna.
ALL_FIVE = {"en": "Anna all five", "de": "Anna alle fünf", "hu": "Anna mind az ötöt"}


@pytest.fixture
def table() -> Any:
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    return session_at(group_with(anna), anna)


def opened(browser: Any, base: str, table: Any, language: str = "en",
           width: int = 360) -> Any:
    return session_page(browser, base, table, locale=LANGUAGES[language], width=width)


def hints(page: Any) -> str:
    return " ".join(page.locator("#hints").inner_text().split())


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


@pytest.mark.django_db
def test_the_words_of_this_test_are_the_catalogues():
    """The sentences above are what the pages say in each language (so that a test that
    finds none of them fails for its reason, not for a translation)."""
    from django.utils import translation

    from scorepad.games.mulatschak.words import reason_label

    for language in LANGUAGES:
        with translation.override(language):
            assert reason_label("muli_made_other") == MULI_AGAINST[language]
            assert [str(translation.gettext(t)) for t in MISSING["en"]] == list(
                MISSING[language])


@pytest.mark.parametrize("language", repeated(list(LANGUAGES), dev=1))
@pytest.mark.parametrize("width", WIDTHS)
def test_a_form_nobody_touched_lists_nothing_missing_until_save_is_tapped_or_a_field_left(
        browser, live_server, table, language, width):
    page = opened(browser, live_server.url, table, language, width)
    assert hints(page) == ""
    # a field left behind: trump chosen, declarer and bid not
    tap(page, "label[for=trump-acorns]")
    for text in MISSING[language][:2]:  # said once the field's check is answered
        expect(page.locator("#hints")).to_contain_text(text)
    quiet(page)
    assert MISSING[language][2] not in hints(page)
    # a new form, untouched again; Save tapped says everything that is missing
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    quiet(page)
    assert hints(page) == ""
    with page.expect_response(lambda r: r.request.method == "POST"
                              and "/deals/new" in r.url):
        page.locator("#save-button").tap(force=True)  # greyed, but a tap says why
    for text in MISSING[language]:  # the answer is shown a moment after it arrives
        expect(page.locator("#hints")).to_contain_text(text)
    assert Deal.objects.count() == 0
    assert page.console_errors == []


@pytest.mark.parametrize("language", repeated(list(LANGUAGES), dev=2))
@pytest.mark.parametrize("width", WIDTHS)
def test_a_muli_offers_all_five_right_under_the_bids_and_says_the_others_reason_plainly(
        browser, live_server, table, language, width):
    page = opened(browser, live_server.url, table, language, width)
    tap(page, "label[for=decl-0]")
    tap(page, "label[for=bid-5]")
    offer = page.locator("button[data-split]")
    expect(offer).to_be_visible()
    assert offer.inner_text().strip() == ALL_FIVE[language]
    bids, trumps, button = (box(page, "fieldset.bids .chip-row"),
                            box(page, "fieldset.trumps"), box(page, "button[data-split]"))
    # right under the Muli chip, above the trumps: where the eye is once Muli is chosen
    assert bids["y"] + bids["height"] <= button["y"] < bids["y"] + bids["height"] + 40
    assert button["y"] + button["height"] <= trumps["y"]
    assert button["x"] >= 0 and button["x"] + button["width"] <= width
    tap(page, "button[data-split]")
    assert [page.locator(f"input[name=t_{i}]").input_value() for i in range(4)] == [
        "5", "0", "0", "0"]
    tap(page, "label[for=trump-bells]")
    quiet(page)
    preview = " ".join(page.locator("#preview").inner_text().split())
    assert preview.count(MULI_AGAINST[language]) == 3, preview
    assert "made against" not in preview
    # another bid: the offer goes back above the tricks
    tap(page, "label[for=bid-2]")
    counts = box(page, "fieldset[data-sum] legend")
    assert box(page, "button[data-split]")["y"] >= counts["y"]
    assert page.console_errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_deals_kept_on_the_phone_stand_under_the_form_not_between_its_title_and_its_chips(
        browser, live_server, table, width):
    page = opened(browser, live_server.url, table, width=width)
    installed(page)
    saved_offline(page, 2)
    entry, chips = box(page, "#entry"), box(page, "label[for=decl-0]")
    kept, save = box(page, "#outbox"), box(page, "#save-button")
    assert kept["y"] >= save["y"] + save["height"]  # under the form
    assert chips["y"] - entry["y"] < 400, (entry, chips)  # the chips on the first screen
    page.context.set_offline(False)
    until(page, lambda: Deal.objects.count() == 2 and outbox(page) == [])


@pytest.mark.parametrize("width", WIDTHS)
def test_undo_is_a_proper_button_right_above_the_last_deals(browser, live_server, table,
                                                             width):
    from tests.scorepad.factories import EVEN, played, record

    record(table, table.created_by, played("Anna", EVEN))
    page = opened(browser, live_server.url, table, width=width)
    undo = page.locator("#undo-last > summary")
    expect(undo).to_be_visible()
    look = undo.evaluate("""e => { const s = getComputedStyle(e);
      return [parseFloat(s.borderTopWidth), s.backgroundColor, s.borderTopStyle]; }""")
    assert look[0] >= 1 and look[2] == "solid", look
    button, recent = box(page, "#undo-last > summary"), box(page, "#recent")
    assert button["height"] >= 44 and button["x"] + button["width"] <= width
    assert 0 <= recent["y"] - (button["y"] + button["height"]) < 60  # the last deal below it
    undo.tap()
    confirm = page.get_by_role("button", name="Delete deal 1")
    expect(confirm).to_be_visible()
    with page.expect_navigation():
        confirm.tap()
    assert Deal.objects.filter(session=table).count() == 0
    assert page.console_errors == []


@pytest.mark.parametrize("language", repeated(list(LANGUAGES)))
def test_a_check_answered_by_another_page_opens_save_and_says_it_is_checked_when_saved(
        browser, live_server, table, language):
    """Issue 34: Save stayed disabled for more than 30 s on a deal entered with −/+ whose
    tricks added up. The check's answer was the login page (the phone's login had ended;
    a table's code ends with its round): it held no form and was dropped, and Save stayed
    as the last check had left it."""
    page = opened(browser, live_server.url, table, language)
    for selector in ("label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]"):
        tap(page, selector)
    quiet(page)
    assert page.locator("#save-button").get_attribute("aria-disabled") == "true"
    page.context.clear_cookies(name="sessionid")  # logged out meanwhile
    for selector in ("button[name=step][value='0:+1']", "button[name=step][value='0:+1']",
                     "button[name=step][value='1:+1']", "button[name=step][value='2:+1']"):
        tap(page, selector)
    quiet(page)
    assert page.locator("input[name=t_3]").get_attribute("placeholder") == "1"
    assert page.locator("#save-button").get_attribute("aria-disabled") != "true"
    assert UNCHECKED[language] in hints(page), hints(page)


def test_a_save_that_overtakes_a_check_leaves_no_check_waiting(browser, live_server, table):
    page = opened(browser, live_server.url, table)
    slow(page)  # every answer takes 300 ms: the check is still on its way at the tap on Save
    with page.expect_request(lambda r: r.url.endswith("/check")):
        tap(page, "label[for=decl-0]")
    with page.expect_response(lambda r: "/deals/new" in r.url):
        page.locator("#save-button").tap(force=True)  # incomplete: refused, the form stays
    quiet(page, 5)  # nothing is left "checking" or due
    tap(page, "label[for=trump-acorns]")
    quiet(page)
    assert MISSING["en"][1] in hints(page), hints(page)
    assert Deal.objects.count() == 0


def test_the_referee_link_carries_the_chosen_trump(browser, live_server, table):
    page = opened(browser, live_server.url, table)
    tap(page, "label[for=trump-hearts]")
    with page.expect_navigation():
        page.locator("a[data-referee-link]").first.tap()
    assert "trump=hearts" in page.url
