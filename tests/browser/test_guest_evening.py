"""A guest's evening on a phone (issue 33, "A guest's evening"): every link and picture of
the pages works for whoever sees them, the session page invites a guest to keep the
evening, a guest's evening is named in the reader's language, a page shown once comes back
offline, and the board does not poll while the phone is offline."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from ..strength import repeated
from .axe import accessible
from .phone import new_phone, quiet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]

#: Every address a page offers: its links and downloads, its pictures (each source of a
#: <picture>), its scripts and stylesheets.
OFFERED = """() => {
  const out = new Set();
  document.querySelectorAll("a[href]").forEach((a) => out.add(a.href));
  document.querySelectorAll("img[src], script[src]").forEach((e) => out.add(e.src));
  document.querySelectorAll("source[srcset]").forEach(
    (e) => out.add(new URL(e.srcset, location.href).href));
  document.querySelectorAll("link[href]").forEach((e) => out.add(e.href));
  return [...out];
}"""


def just_play(page: Any, base: str) -> int:
    """A fresh phone starts an evening without an account: its session's id."""
    page.goto(base + "/play/")
    for number, name in enumerate(SEATS):
        page.locator(f"#id_seat_{number}").fill(name)
    page.locator("form.start-form button.primary").tap()
    page.wait_for_url(base + "/sessions/*/")
    quiet(page)
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def follow_all(page: Any, base: str) -> list[str]:
    """Each address the open page offers on this site, asked with the phone's cookies:
    what answered 401, 403, 404 or 500 (a same-page anchor is no address)."""
    wrong = []
    for url in page.evaluate(OFFERED):
        parts = urlsplit(url)
        if not url.startswith(base) or (parts.fragment and parts.path == urlsplit(page.url).path):
            continue
        answer = page.request.get(url)
        if answer.status in (401, 403, 404, 500):
            wrong.append(f"{answer.status} {parts.path}?{parts.query} on {page.url}")
    return wrong


def pictures_shown(page: Any) -> None:
    """Every picture of the page is drawn (not its alt text in a broken frame)."""
    for image in page.locator("main img").all():
        image.scroll_into_view_if_needed()
        expect(image).to_have_js_property("complete", True)
        assert image.evaluate("(e) => e.naturalWidth") > 0, image.get_attribute("src")


def evening(owner_name: str = "anna") -> Any:
    from tests.scorepad.factories import EVEN, group_with, played, record, session_at, user

    owner = user(owner_name)
    session = session_at(group_with(owner), owner)
    record(session, owner, played("Anna", EVEN))
    return session


@pytest.mark.parametrize("width", repeated([360, 320], dev=1))
def test_a_guest_follows_every_link_and_picture_of_its_session_and_card(
        browser, live_server, width):
    page = new_phone(browser, width=width)
    session = just_play(page, live_server.url)
    assert follow_all(page, live_server.url) == []
    page.locator("a.share-evening").first.tap()
    page.wait_for_url(f"{live_server.url}/sessions/{session}/card")
    pictures_shown(page)
    assert follow_all(page, live_server.url) == []
    with page.expect_download() as download:
        page.locator("a[download]").first.tap()
    assert download.value.suggested_filename.endswith(".png")
    assert page.console_errors == []


def test_a_member_follows_every_link_and_picture_of_the_session_and_card(
        browser, live_server):
    from .phone import log_in

    session = evening()
    page = new_phone(browser, width=320)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    quiet(page)
    assert follow_all(page, live_server.url) == []
    assert page.locator("[data-keep-evening]").count() == 0   # a guest's alone
    page.goto(f"{live_server.url}/sessions/{session.pk}/card")
    pictures_shown(page)
    assert follow_all(page, live_server.url) == []
    assert page.console_errors == []


def test_a_tables_phone_and_a_watcher_follow_every_link_of_their_pages(browser, live_server):
    from scorepad import sharing
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, tournament

    director = user("anna")
    contest = tournament(group_with(director), director, players=8)
    table = drawn(contest, director).tables.get(number=1)
    phone = new_phone(browser)
    phone.goto(f"{live_server.url}/t/{table.code}/")
    phone.wait_for_url(f"{live_server.url}/sessions/{table.session_id}/")
    quiet(phone)
    assert follow_all(phone, live_server.url) == []
    assert phone.locator("[data-keep-evening]").count() == 0

    token = sharing.watch_link_create(session=evening("bert"))
    watcher = new_phone(browser, width=320)
    watcher.goto(f"{live_server.url}/watch/{token}/")
    assert follow_all(watcher, live_server.url) == []
    assert phone.console_errors == [] and watcher.console_errors == []


#: Counts the board's polls the page started (htmx:configRequest of #scoreboard), sent or not.
COUNT_POLLS = """() => {
  window.__polls = 0;
  document.addEventListener("htmx:configRequest", (e) => {
    if (e.detail.elt && e.detail.elt.id === "scoreboard") window.__polls += 1;
  });
}"""


@pytest.mark.parametrize("width", repeated([360, 320], dev=0))
def test_offline_the_board_asks_nothing_and_back_online_it_asks_at_once(
        browser, live_server, width):
    from .phone import until

    page = new_phone(browser, width=width)
    just_play(page, live_server.url)
    page.evaluate(COUNT_POLLS)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/board" in r.url else None)
    page.context.set_offline(True)
    asked.clear()
    polls = page.evaluate("() => window.__polls")
    until(page, lambda: page.evaluate("() => window.__polls") >= polls + 3,
          what="three polls' turns offline")
    assert asked == []
    expect(page.locator("[data-offline-note]")).to_be_visible()
    assert page.console_errors == []
    with page.expect_request(lambda r: "/board" in r.url, timeout=1500):
        page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden()
    assert page.console_errors == []


def guest_session_unseen(page: Any, base: str) -> str:
    """A guest's evening started by the phone without showing a page (no service worker
    yet): its session page's address, for the phone's very first visit."""
    import re

    form = page.request.get(base + "/play/").text()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    answer = page.request.post(base + "/play/", max_redirects=0, form={
        "csrfmiddlewaretoken": token, "preset": "salzburg",
        **{f"seat_{n}": name for n, name in enumerate(SEATS)}})
    assert answer.status == 302, answer.text()[:500]
    return base + answer.headers["location"]


ACTIVATED = """() => navigator.serviceWorker.getRegistration()
                 .then(r => !!(r && r.active && r.active.state === "activated"))"""


@pytest.mark.parametrize("width", repeated([360, 320], dev=1))
def test_a_guests_session_page_shown_once_comes_back_offline_on_the_first_visit(
        browser, live_server, width):
    from .phone import until

    page = new_phone(browser, width=width)
    url = guest_session_unseen(page, live_server.url)
    page.goto(url)
    expect(page.locator("#scoreboard")).to_be_visible()
    until(page, lambda: page.evaluate(ACTIVATED), what="the service worker active")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#scoreboard")).to_be_visible()
    assert page.evaluate("() => document.documentElement.hasAttribute('data-offline-copy')")
    assert page.locator("[data-offline-missing]").count() == 0
    assert page.console_errors == []


@pytest.mark.parametrize("width", repeated([360, 320], dev=0))
def test_a_guest_who_started_in_english_reads_the_evening_in_german_and_hungarian(
        browser, live_server, width):
    said = {"en": "Played without an account", "de": "Ohne Konto gespielt",
            "hu": "Fiók nélkül játszva"}
    page = new_phone(browser, width=width)
    session = just_play(page, live_server.url)
    expect(page.locator(".board-title .group-name")).to_have_text(said["en"])
    for language in ("de", "hu"):
        page.locator(f"form.lang button[value={language}]").tap()
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.wait_for_url(f"{live_server.url}/sessions/{session}/")
        expect(page.locator(".board-title .group-name")).to_have_text(said[language])
        assert said[language] in page.title()
        page.goto(f"{live_server.url}/sessions/{session}/card")
        expect(page.locator("main p.row a").first).to_contain_text(said[language])
        assert said["en"] not in page.locator("main").inner_text()
        assert said[language] in page.locator("#card-text").input_value()
        assert f"lang={language}" in page.locator("main img").get_attribute("src")
        pictures_shown(page)
        page.goto(f"{live_server.url}/sessions/{session}/")
    assert page.console_errors == []


KEEP = {"en-GB": "Sign up and keep it", "de-AT": "Registrieren und behalten",
        "hu-HU": "Regisztrálj és tartsd meg"}


@pytest.mark.parametrize(("locale", "scheme", "width"),
                         repeated([("en-GB", "light", 360), ("de-AT", "dark", 320),
                                   ("hu-HU", "light", 320), ("hu-HU", "dark", 360)], dev=2))
def test_a_guests_session_page_and_card_offer_one_tap_that_keeps_the_evening(
        browser, live_server, locale, scheme, width):
    from scorepad.models import Guest, Session

    from .conftest import SCREENSHOTS
    from .phone import PASSWORD

    page = new_phone(browser, locale=locale, scheme=scheme, width=width)
    session = just_play(page, live_server.url)
    offer = page.locator("[data-keep-evening] a.button")
    expect(offer).to_have_text(KEEP[locale])
    offer.scroll_into_view_if_needed()
    expect(offer).to_be_visible()
    box = offer.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("[data-keep-evening]").screenshot(
        path=str(SCREENSHOTS / f"keep-evening-{locale}-{scheme}-{width}.png"))
    accessible(page, f"a guest's session page ({locale}, {scheme}, {width} px)")
    page.goto(f"{live_server.url}/sessions/{session}/card")
    expect(page.locator("[data-keep-evening] a.button")).to_have_text(KEEP[locale])
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    accessible(page, f"a guest's card ({locale}, {scheme}, {width} px)")

    page.locator("[data-keep-evening] a.button").tap()   # the one tap
    page.wait_for_url(live_server.url + "/signup/")
    page.fill("#id_username", "resi")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main form button.primary").tap()
    page.wait_for_url(live_server.url + "/")
    assert not Guest.objects.exists()
    assert Session.objects.get(pk=session).group.memberships.get().user.username == "resi"
    page.goto(f"{live_server.url}/sessions/{session}/")
    expect(page.locator("#scoreboard")).to_be_visible()
    assert page.locator("[data-keep-evening]").count() == 0
    assert page.console_errors == []
