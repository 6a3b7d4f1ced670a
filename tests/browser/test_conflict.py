"""A deal kept on phone A whose number phone B took meanwhile (issue 23, "Conflicts
explained before the tap"): when A is back online, A sees the deals B recorded, what its
deal would now score as the next deal (the multiplier B's collapse left pending, counted
on the phone), and one number on heading, text and button; nothing is recorded before
A taps "Record as deal N", and then exactly what was shown; "Discard" records nothing."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scorepad import services
from scorepad.models import Deal

from ..strength import repeated
from .conftest import SCREENSHOTS
from .phone import log_in, new_phone, quiet, until
from .test_offline import installed, made_deal, outbox, saved_offline
from .test_provisional import board

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = (Path(__file__).parent / "fits.js").read_text("utf-8")
LOCALES = {"en": "en-GB", "de": "de-AT", "hu": "hu-HU"}
#: The buttons in each language (templates/scorepad/_outbox.html).
RECORD = {"en": "Record as deal {n}", "de": "Als Spiel {n} eintragen",
          "hu": "Rögzítés {n}. osztásként"}
DISCARD = {"en": "Discard", "de": "Verwerfen", "hu": "Elvetés"}
MINUS = "\u2212"
CONFLICT = "#outbox li.conflict"


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def shown_points(page: Any) -> dict[str, int]:
    """The would-be points per player as shown (read in one go: the list may be redrawn)."""
    found = page.locator(f"{CONFLICT} .would .points").evaluate_all(
        "spans => spans.map(s => [s.dataset.player, parseInt(s.dataset.points, 10)])")
    return dict(found)


def figures_for(page: Any, n: int, language: str) -> None:
    """Wait until the conflict offers to record the deal as deal ``n``, with its figures."""
    expect(page.locator(CONFLICT).get_by_role("button", name=RECORD[language].format(n=n))) \
        .to_be_visible(timeout=30_000)
    expect(page.locator(f"{CONFLICT} .would .points")).to_have_count(4, timeout=30_000)


def one_number(page: Any, n: int, language: str, kept: int = 1) -> None:
    """The deal in conflict is deal ``n`` on its heading, in its text and on its button; the
    form below is for the deal after it and the ``kept`` - 1 deals kept behind it."""
    item = page.locator(CONFLICT)
    assert numbers(item.locator(":scope > div > strong").inner_text()) == [n]
    assert numbers(item.locator(".would").inner_text())[0] == n
    record = item.locator("button[data-outbox-action=record]")
    assert record.inner_text() == RECORD[language].format(n=n)
    assert numbers(record.inner_text()) == [n]
    assert numbers(page.locator("#entry h2").first.inner_text()) == [n + kept]
    assert page.locator("#deal-form input[name=number]").input_value() == str(n + kept)


def offline_hint_gone(page: Any) -> None:
    texts = page.locator("#outbox").evaluate("b => [b.dataset.tOffline, b.dataset.tNocheck]")
    hints = page.locator("#deal-form #hints").inner_text()
    assert all(t not in hints for t in texts), hints
    expect(page.locator("[data-offline-note]")).to_be_hidden()


def fits(page: Any, tag: str) -> None:
    for width in (360, 320):
        page.set_viewport_size({"width": width, "height": 780})
        problems = [p for p in page.evaluate(FITS) if "outbox" in p or "conflict" in p
                    or "page scrolls" in p]
        assert problems == [], f"{tag} at {width} px: {problems}"
        page.screenshot(path=str(SCREENSHOTS / f"conflict-{tag}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})


def tap_old(page: Any, n: int, language: str) -> None:
    """Tap "Record as deal n" as it was shown before the server moved (unless the board's
    poll has shown the new figures already)."""
    old = page.locator(CONFLICT).get_by_role("button", name=RECORD[language].format(n=n))
    if old.count():
        with contextlib.suppress(PlaywrightError):
            old.click(timeout=2_000)


def server_scores(session: Any) -> dict[str, int]:
    session.refresh_from_db()
    return dict(services.scoreboard(session)["scores"])


@pytest.mark.parametrize(("language", "scheme"), repeated([("en", "light"), ("de", "dark"),
                                                           ("hu", "light")], dev=2))
def test_a_deal_whose_number_was_taken_is_explained_before_the_tap(live_server, browser,
                                                                   language, scheme):
    from tests.scorepad.factories import EVEN, group_with, played, record, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    for _ in range(17):  # an evening under way: the next deal is deal 18
        record(session, anna, {"kind": "passed"})
    page = new_phone(browser, locale=LOCALES[language], scheme=scheme)
    page.on("dialog", lambda dialog: dialog.accept())  # "Discard this deal?"
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)

    # phone A, offline: deal 18, Anna bids 2 in acorns and makes it (×1: −2, the others −1)
    saved_offline(page)
    until(page, lambda: board(page)["provisional"])
    # phone B, meanwhile: another deal 18, then a collapse as 19 (the next deal counts ×2)
    record(session, anna, played("Bert", EVEN | {"Anna": 1, "Bert": 2}), number=18)
    record(session, anna, {"kind": "collapsed"}, number=19)

    page.context.set_offline(False)
    figures_for(page, 20, language)
    item = page.locator(CONFLICT)
    meanwhile = item.locator(".meanwhile li").all_inner_texts()
    assert [numbers(m)[0] for m in meanwhile] == [18, 19]
    assert "Bert" in meanwhile[0]
    with translation.override(language):
        assert gettext("collapsed") in meanwhile[1]
    # what it would score as deal 20: ×2, and what this phone showed before (×1)
    points = shown_points(page)
    assert points == {"Anna": -4, "Bert": -2, "Cilli": -2, "Dominik": -2}
    would = item.locator(".would").inner_text()
    assert "×2" in would
    anna_says = item.locator(".would .points[data-player=Anna]").inner_text()
    assert f"{MINUS}4" in anna_says and f"{MINUS}2" in anna_says
    one_number(page, 20, language)
    offline_hint_gone(page)
    assert Deal.objects.count() == 19  # nothing without the tap
    fits(page, f"{language}-{scheme}")

    # phone B corrects its deal 19 before A taps: all passed, not collapsed (×1 again; the
    # next deal is still deal 20). A's tap records nothing: the new figures are shown
    services.deal_correct(session=session, user=anna, number=19, data={"kind": "passed"})
    tap_old(page, 20, language)
    until(page, lambda: shown_points(page).get("Anna") == -2 or Deal.objects.count() > 19)
    assert shown_points(page) == {"Anna": -2, "Bert": -1, "Cilli": -1, "Dominik": -1}
    assert Deal.objects.count() == 19
    # and phone B records a collapse as deal 20 before A taps: A's tap records nothing,
    # the figures for deal 21 are shown instead (×2 again)
    record(session, anna, {"kind": "collapsed"}, number=20)
    tap_old(page, 20, language)
    figures_for(page, 21, language)
    assert shown_points(page) == {"Anna": -4, "Bert": -2, "Cilli": -2, "Dominik": -2}
    assert "×2" in page.locator(f"{CONFLICT} .would").inner_text()
    one_number(page, 21, language)
    assert Deal.objects.count() == 20 and Deal.objects.get(number=20).kind == "collapsed"
    page.screenshot(path=str(SCREENSHOTS / f"conflict-{language}-{scheme}.png"), full_page=True)

    # the tap records exactly what was shown
    shown = shown_points(page)
    before = server_scores(session)
    page.locator(CONFLICT).get_by_role("button", name=RECORD[language].format(n=21)).tap()
    until(page, lambda: Deal.objects.count() == 21)
    until(page, lambda: outbox(page) == [])
    deal = Deal.objects.get(number=21)
    assert deal.data["bid"] == 2 and deal.data["trump"] == "acorns"
    after = server_scores(session)
    assert {p: after[p] - before[p] for p in after} == shown
    until(page, lambda: not board(page)["provisional"] and board(page)["scores"] == after)

    # once more, and this time A discards its deal: nothing is recorded
    saved_offline(page)
    record(session, anna, played("Cilli", EVEN | {"Anna": 1, "Cilli": 2}), number=22)
    page.context.set_offline(False)
    figures_for(page, 23, language)
    assert [numbers(m)[0] for m in item.locator(".meanwhile li").all_inner_texts()] == [22]
    one_number(page, 23, language)
    item.get_by_role("button", name=DISCARD[language]).tap()
    until(page, lambda: outbox(page) == [])
    quiet(page)
    assert Deal.objects.count() == 22
    assert numbers(page.locator("#entry h2").first.inner_text()) == [23]
    errors = [e for e in page.console_errors if not any(
        t in e for t in ("ERR_INTERNET_DISCONNECTED", "htmx:sendError", "htmx:afterRequest"))]
    assert errors == []


def test_deals_kept_behind_it_wait_until_each_is_shown_under_its_new_number(live_server,
                                                                            browser):
    """Two deals kept offline, and another phone's collapse took the first one's number:
    recording the first as the next deal does not send the second along unseen (its
    number moved too); it waits, explained, for its own tap."""
    from tests.scorepad.factories import group_with, record, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    page.context.set_offline(True)
    for kept in (1, 2):
        made_deal(page)
        page.locator("#save-button").tap()
        until(page, lambda n=kept: len(outbox(page)) == n)
    until(page, lambda: board(page)["provisional"])
    record(session, anna, {"kind": "collapsed"}, number=1)  # phone B

    page.context.set_offline(False)
    figures_for(page, 2, "en")
    assert shown_points(page) == {"Anna": -4, "Bert": -2, "Cilli": -2, "Dominik": -2}
    one_number(page, 2, "en", kept=2)
    assert numbers(page.locator("#outbox .outbox-list > li").nth(1).inner_text())[0] == 3
    page.locator(CONFLICT).get_by_role("button", name="Record as deal 2").tap()
    until(page, lambda: Deal.objects.count() == 2)
    # the second: shown as deal 3, what it scores there (×1 after the doubled deal), held
    figures_for(page, 3, "en")
    assert shown_points(page) == {"Anna": -2, "Bert": -1, "Cilli": -1, "Dominik": -1}
    assert "Not sent yet" in page.locator(CONFLICT).inner_text()
    one_number(page, 3, "en")
    assert Deal.objects.count() == 2
    before = server_scores(session)
    page.locator(CONFLICT).get_by_role("button", name="Record as deal 3").tap()
    until(page, lambda: Deal.objects.count() == 3)
    until(page, lambda: outbox(page) == [])
    after = server_scores(session)
    assert {p: after[p] - before[p] for p in after} == {"Anna": -2, "Bert": -1, "Cilli": -1,
                                                       "Dominik": -1}
