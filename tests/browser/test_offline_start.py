"""The installed app started without a network (docs/using.md, "On the phone"): the start page
lists the sessions this phone holds for the account logged in, with when each was last
seen and, where deals wait in the outbox, "provisional" with their count; a tap opens the
copy. Another account on the same phone sees none of them; with nothing held the page
says so and points nowhere."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import dateformat, translation
from django.utils.formats import get_format
from django.utils.translation import gettext
from playwright.sync_api import expect

from scorepad import games, rosters, services
from scorepad.models import Session

from ..strength import LANGUAGE_SCHEMES, repeated
from .phone import log_in, new_phone, until
from .test_looks import PROBLEMS, Looker
from .test_offline import installed, made_deal, outbox
from .test_shared_phone import KEPT, kept_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "fits"
FITS = (Path(__file__).parent / "fits.js").read_text("utf-8")
LOCALES = {"de": "de-AT", "en": "en-GB", "hu": "hu-HU"}
PLAYERS = "Anna, Bert, Cilli, Dominik"


@pytest.fixture
def table() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, session_at, user

    anna, bert = user("anna"), user("bert")
    group = group_with(anna)
    rosters.member_set(group=group, user=bert, role="editor")
    friday = session_at(group, anna)
    Session.objects.filter(pk=friday.pk).update(name="Freitagsrunde")
    mura = services.session_start(group=group, user=anna, preset="mura", overrides=None,
                                  seats=PLAYERS.split(", "), game="mura")
    return {"anna": anna, "bert": bert, "friday": friday, "mura": mura}


def held(page: Any) -> list[str]:
    """The sessions the offline start page lists, each as its words."""
    return [" ".join(t.split()) for t in page.locator("[data-held-list] li").all_inner_texts()]


def offline_start(page: Any, base: str) -> None:
    page.goto(base + "/")
    expect(page.locator("[data-held]")).to_be_visible()


def seen_between(start: dt.datetime, end: dt.datetime, zone: str, lang: str) -> set[str]:
    """"last seen ..." as the pages write it in ``lang``, for every minute from start to end
    in the phone's time zone."""
    with translation.override(lang):
        pattern, words = get_format("SHORT_DATETIME_FORMAT"), gettext("last seen {when}")
        out, moment = set(), start.astimezone(ZoneInfo(zone)).replace(second=0, microsecond=0)
        while moment <= end:
            out.add(words.replace("{when}", dateformat.format(moment, pattern)))
            moment += dt.timedelta(minutes=1)
    return out


def fits(page: Any, tag: str) -> list[str]:
    problems = []
    for width, height in ((360, 780), (320, 640)):
        page.set_viewport_size({"width": width, "height": height})
        for script in (FITS, PROBLEMS):
            looker = Looker(page, "", f"{tag}-{width}", SHOTS, script)
            looker.look("offline-start")
            problems += looker.problems
    return problems


@pytest.mark.parametrize(("lang", "scheme"), repeated(LANGUAGE_SCHEMES, dev=2))
def test_offline_the_start_page_lists_the_sessions_held_and_opens_them(
        live_server, browser, table, lang, scheme):
    friday, mura = table["friday"], table["mura"]
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme)
    log_in(page, live_server.url, "anna")
    start = dt.datetime.now(dt.UTC)
    page.goto(f"{live_server.url}/sessions/{mura.pk}/")
    installed(page)
    page.goto(f"{live_server.url}/sessions/{friday.pk}/")
    page.context.set_offline(True)
    made_deal(page)
    page.locator("#save-button").tap()   # kept on the phone, not sent
    until(page, lambda: len(outbox(page)) == 1)

    offline_start(page, live_server.url)
    expect(page.locator("[data-held-list] li")).to_have_count(2)
    zone = page.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    seen = seen_between(start, dt.datetime.now(dt.UTC), zone, lang)
    with translation.override(lang):
        badge = gettext("provisional")
        provisional = badge + " · " + gettext("one deal not sent yet")
        mura_title = games.get("mura").rules_title("mura")
        friday_title = games.get("mulatschak").rules_title("salzburg")
        none = gettext("This phone holds no session of this account yet. A session you open "
                       "here while there is a network opens here without one later, too.")
    first, second = held(page)   # the newest first
    assert first.startswith(f"Freitagsrunde · {PLAYERS} {friday_title} · ")
    assert first.endswith(provisional)
    assert any(f" · {words} {provisional}" in first for words in seen), (first, seen)
    assert second.startswith(f"{PLAYERS} {mura_title} · ")
    assert any(second.endswith(f" · {words}") for words in seen), (second, seen)
    assert badge not in second
    main = page.locator("main")
    assert none not in main.inner_text()
    assert main.locator("a[href='/']:visible").count() == 0   # the start page points not to itself
    problems = fits(page, f"offline-start-{lang}-{scheme}")
    assert not problems, "\n".join(problems)

    page.set_viewport_size({"width": 360, "height": 780})
    page.locator("[data-held-list] li", has_text="Freitagsrunde").locator("a").tap()
    page.wait_for_url(f"{live_server.url}/sessions/{friday.pk}/")
    assert page.locator("html").get_attribute("data-offline-copy") is not None
    expect(page.locator("#scoreboard")).to_be_visible()
    until(page, lambda: len(outbox(page)) == 1)   # the deal still waits there
    assert page.console_errors == [] or all("ERR_INTERNET_DISCONNECTED" in e
                                            for e in page.console_errors)


def test_another_account_on_the_phone_sees_none_of_annas_sessions_offline(
        live_server, browser, table):
    friday, mura = table["friday"], table["mura"]
    page = new_phone(browser)
    kept_offline(live_server, page, friday)   # a deal of Anna's waits on the phone
    page.goto(f"{live_server.url}/sessions/{mura.pk}/")
    page.locator("summary[aria-label=Menu]").click()
    page.get_by_role("button", name="Log out").click()
    page.get_by_role("button", name="Keep them for when I log in again").click()
    page.wait_for_url(live_server.url + "/")
    page.context.unroute("**/deals/new")

    log_in(page, live_server.url, "bert")
    page.goto(f"{live_server.url}/sessions/{friday.pk}/")   # Bert's own copy of it
    page.context.set_offline(True)
    offline_start(page, live_server.url)
    expect(page.locator("[data-held-list] li")).to_have_count(1)
    (only,) = held(page)
    assert only.startswith(f"Freitagsrunde · {PLAYERS} ")
    assert "provisional" not in only and "not sent" not in only   # Anna's deal is hers
    assert page.evaluate(KEPT) == 1   # and it still waits for her


def test_with_nothing_held_the_start_page_says_so_and_links_nowhere(live_server, browser,
                                                                     table):
    page = new_phone(browser, scheme="dark")
    log_in(page, live_server.url, "anna")
    installed(page)   # the start page, online: nothing of a session is kept
    page.context.set_offline(True)
    offline_start(page, live_server.url)
    main = page.locator("main")
    expect(main.locator("[data-held-none]")).to_be_visible()
    assert "This phone holds no session of this account yet." in main.inner_text()
    assert main.locator("a:visible").count() == 0
    assert page.locator("[data-held-list] li").count() == 0
    problems = fits(page, "offline-start-none-en-dark")
    assert not problems, "\n".join(problems)

    page.goto(f"{live_server.url}/sessions/{table['friday'].pk}/history")   # never opened
    expect(main.locator("[data-held-none]")).to_be_visible()
    assert "This page was not opened on this phone before" in main.inner_text()
    assert main.locator("a:visible").count() == 0   # no Home that leads to nothing either


def test_the_offline_start_page_speaks_the_language_chosen_last(live_server, browser, table):
    page = new_phone(browser)   # English, from the phone's settings
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table['mura'].pk}/")
    installed(page)   # the worker keeps the "No network" page in English
    with page.expect_navigation():
        page.locator("form.lang button[value=hu]").click()   # then Hungarian, in the header
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    page.context.set_offline(True)
    offline_start(page, live_server.url)
    with translation.override("hu"):
        heading, words = gettext("Sessions on this phone"), gettext("last seen {when}")
    assert page.locator("html").get_attribute("lang") == "hu"
    assert heading in page.locator("[data-held] h2").inner_text()
    (only,) = held(page)
    assert words.split("{when}")[0] in only
