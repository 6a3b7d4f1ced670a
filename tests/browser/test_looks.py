"""Every page looked at as a person looks at it: on a 360 × 780 phone (and one at 320 px),
in German, English and Hungarian, light and dark. A page fails when something is wider
than the screen outside a deliberate scroller, a player's name breaks inside a word, a tap
target (labels included) is smaller than 44 × 44 px, the watch-link QR code is not fully
visible, or the entry panel is out of view after a save. Screenshots of every page go to
test-results/looks/ (look at them) under ``HYPOTHESIS_PROFILE=ci`` or
``SCHREIBER_SCREENSHOTS=1``; under ``make test``'s ``dev`` those of the pages found wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorepad import services, sharing

from ..strength import EVERY_SCREENSHOT, LANGUAGE_SCHEMES, SCREENSHOT_SCALE
from .phone import log_in, new_phone, quiet, until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOKS = Path(__file__).resolve().parents[2] / "test-results" / "looks"
#: Long names on purpose: "Bernadette" and "Maximilian" are where names used to break.
SEATS = ["Anna", "Bernadette", "Cilli", "Maximilian"]
LOCALES = {"de": "de-AT", "en": "en-GB", "hu": "hu-HU"}

#: What a person would call broken, measured in the page (tests/browser/looks.js).
PROBLEMS = (Path(__file__).parent / "looks.js").read_text("utf-8")


@pytest.fixture
def evening() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, played, record, user

    anna = user("anna")
    group = group_with(anna)
    main = services.session_start(group=group, user=anna, preset="salzburg", overrides=None,
                                  seats=SEATS, dealer="Maximilian", stake="0.10",
                                  currency="EUR")
    a, b, c, m = SEATS
    for deal in (
        played(a, {a: 2, b: 1, c: 1, m: 1}),
        played(b, {a: 1, b: 3, m: 1}, bid=3, trump="leaves", stayed_home=[c]),
        played(c, {a: 1, b: 1, c: 2, m: 1}, bid=3, trump="hearts"),
        {"kind": "collapsed"},
        played(m, {b: 0, c: 2, m: 3}, trump="bells", stayed_home=[a]),
        played(a, {a: 5, b: 0, c: 0, m: 0}, bid=5),
        played(b, {a: 1, b: 2, c: 1, m: 1}),
        played(a, {a: 5, b: 0, c: 0, m: 0}, bid=5, trump="hearts"),
        played(b, {a: 1, b: 2, c: 1, m: 1}, trump="leaves"),
    ):
        record(main, anna, deal)
    token = sharing.watch_link_create(session=main)
    mura = services.session_start(group=group, user=anna, preset="mura", overrides=None,
                                  seats=SEATS, game="mura", stake="0.50", currency="EUR")
    for tricks, figures in (([2, 3, 3, 0], [2, 9, 7, 0]), ([4, 2, 2, 0], [2, 8, 8, 0])):
        record(mura, anna, {"tricks": dict(zip(SEATS, tricks, strict=True)),
                            "figures": dict(zip(SEATS, figures, strict=True))})
    matz = services.session_start(group=group, user=anna, preset="muller_matz", overrides=None,
                                  seats=SEATS[:3], game="muller_matz", stake="0.20",
                                  currency="EUR")
    record(matz, anna, {"loser": b})
    record(matz, anna, {"finish_order": [a, c, b]})
    done = services.session_start(group=group, user=anna, preset="salzburg", overrides=None,
                                  seats=SEATS, dealer="Anna")
    record(done, anna, played(c, {a: 1, b: 1, c: 2, m: 1}))
    services.session_set_status(session=done, status="closed")
    player = group.players.get(name="Maximilian")
    # an invitation on Anna's home page, and one of hers pending on the group page
    hofrat = user("hofrat-von-der-hinterbrühl")
    sharing.member_add(group=group_with(hofrat, "Preisschnapsen Hinterbrühl"), user=anna,
                        role="editor", by=hofrat)
    sharing.member_add(group=group, user=hofrat, role="viewer", by=anna)
    return {"group": group, "main": main, "mura": mura, "matz": matz, "done": done,
            "token": token, "player": player}


class Looker:
    """Visits pages, collects what looks wrong, and saves a screenshot of each page (under
    ``dev``, of each page where it found something wrong: tests/strength.py)."""

    def __init__(self, page: Any, base: str, tag: str, shots: Path | None = None,
                 script: str | None = None) -> None:
        self.page, self.base, self.tag = page, base, tag
        self.shots, self.script = shots or LOOKS, script or PROBLEMS
        self.problems: list[str] = []
        self.shots.mkdir(parents=True, exist_ok=True)

    def look(self, name: str, path: str | None = None) -> None:
        if path is not None:
            self.page.goto(self.base + path)
        quiet(self.page)
        found = [f"{name}: {p}" for p in self.page.evaluate(self.script)]
        if found or EVERY_SCREENSHOT:
            self.page.screenshot(path=str(self.shots / f"{self.tag}-{name}.png"),
                                 full_page=True, scale=SCREENSHOT_SCALE)
        self.problems += found


def pages(looker: Looker, evening: dict[str, Any]) -> None:
    page = looker.page
    main, mura, matz, group = evening["main"], evening["mura"], evening["matz"], evening["group"]
    looker.look("home", "/")
    looker.look("play", "/play/")  # "Just play": the start without an account
    looker.look("login", "/accounts/login/")
    log_in(page, looker.base, "anna")
    looker.look("dashboard")
    looker.look("start", "/sessions/new/")
    page.locator("label[for=id_game_1]").tap()  # Mura: no Mulatschak rules, four seats
    assert page.locator(".house-rules").is_hidden() and page.locator("#id_seat_4").is_hidden()
    looker.look("start-mura")
    page.locator("label[for=id_game_0]").tap()
    page.locator("#id_new_group").fill("Kartenrunde")
    for i, name in enumerate(SEATS):
        page.locator(f"#id_seat_{i}").fill(name)
    page.locator(".house-rules summary").tap()
    page.locator("#id_rule_stay_home_penalty").fill("lots")
    with page.expect_navigation():
        page.locator(".start-form button.primary").tap()
    error = page.locator(".rule .field-error").first
    expect(error).to_be_visible()

    def in_view() -> bool:  # the page script scrolls the first error into view
        box = error.bounding_box()
        return box is not None and 0 <= box["y"] <= 780

    until(page, in_view, 5, "the error is not scrolled into view")
    looker.look("start-error")

    looker.look("session", f"/sessions/{main.pk}/")
    for selector in ("label[for=decl-2]", "label[for=bid-2]", "label[for=trump-hearts]",
                     "#row-1 .home-toggle"):  # hearts: nobody may stay home → a row error
        page.locator(selector).tap()
    quiet(page)
    assert page.locator("#err-row-1 .error").count() == 1
    looker.look("session-row-error")
    page.locator("#row-1 .home-toggle").tap()
    page.locator("button[data-split]").tap()
    quiet(page)
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    page.wait_for_selector("#table .messages")
    box = page.locator("#entry").bounding_box()
    assert box is not None and 0 <= box["y"] < 780 - 100, "the entry panel is out of view"
    looker.look("session-saved")
    looker.look("correct", f"/sessions/{main.pk}/deals/3/edit")
    looker.look("sheet", f"/sessions/{main.pk}/sheet")
    looker.look("history", f"/sessions/{main.pk}/history")
    looker.look("settlement", f"/sessions/{main.pk}/settlement")
    looker.look("watch", f"/watch/{evening['token']}/")
    looker.look("mura", f"/sessions/{mura.pk}/")
    looker.look("mura-cards", f"/sessions/{mura.pk}/?mode=cards")
    page.locator("label[for=l-0-1]").tap()
    for code in ("hearts-ace", "hearts-7", "hearts-king"):
        page.locator(f"[data-card-picker] button[data-card={code}]").tap()
    quiet(page)
    looker.look("mura-cards-picking")
    looker.look("mura-settlement", f"/sessions/{mura.pk}/settlement")
    looker.look("matz", f"/sessions/{matz.pk}/")
    looker.look("matz-order", f"/sessions/{matz.pk}/?mode=order")
    looker.look("beat", f"/sessions/{matz.pk}/beat")  # now the Referee page's question
    page.locator("label[for=trump-spades]").tap()
    quiet(page)
    page.locator(".referee-picker button[value=hearts-10]").tap()
    quiet(page)
    page.locator(".referee-picker button[value=spades-2]").tap()
    quiet(page)
    looker.look("beat-answered")
    looker.look("closed", f"/sessions/{evening['done'].pk}/")
    looker.look("group", f"/groups/{group.pk}/")
    looker.look("past-sessions", f"/groups/{group.pk}/sessions/")
    looker.look("stats", f"/groups/{group.pk}/stats/")
    looker.look("player", f"/players/{evening['player'].pk}/")
    looker.look("my-stats", "/me/stats/")
    page.locator("header .menu summary").tap()
    looker.look("menu")


@pytest.mark.parametrize(("lang", "scheme"), LANGUAGE_SCHEMES)
@pytest.mark.long(9)
def test_every_page_looks_right_on_a_phone(live_server, browser, evening, lang, scheme):
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme)
    looker = Looker(page, live_server.url, f"{lang}-{scheme}")
    pages(looker, evening)
    assert page.locator("html").get_attribute("lang") == lang
    assert not looker.problems, "\n".join(looker.problems)
    assert page.console_errors == []


@pytest.mark.long(9)
def test_every_page_looks_right_on_a_320_px_phone(live_server, browser, evening):
    page = new_phone(browser, locale="de-AT", width=320, height=640)
    looker = Looker(page, live_server.url, "de-320")
    pages(looker, evening)
    assert not looker.problems, "\n".join(looker.problems)
    assert page.console_errors == []
