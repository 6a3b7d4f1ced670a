"""One phone, several accounts (docs/using.md, "On the phone"): the deals one account kept offline
wait for that account, and logging out (here, everywhere, by a password change or from
afar) leaves none of its pages to the next one."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from scorepad import accounts, rosters
from scorepad.models import Deal

from .conftest import SCREENSHOTS
from .phone import PASSWORD, count_sends, log_in, new_phone, sent_on_load, until
from .test_offline import installed, outbox, saved_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEPT = "() => new Promise(r => { const o = indexedDB.open('schreiber'); o.onsuccess = () => " \
       "{ const q = o.result.transaction('outbox').objectStore('outbox').getAll(); " \
       "q.onsuccess = () => { o.result.close(); r(q.result.length); }; }; })"
LISTED = "() => SchreiberOutbox.list(null).then(e => e.length)"
#: Does the phone keep copies of pages (static/outbox.js, ``keepPage``)?
PAGE_COPIES = "() => caches.keys().then(names => names.some(n => n.startsWith('schreiber-pages')))"


@pytest.fixture
def table() -> Any:
    from tests.scorepad.factories import group_with, session_at, user

    anna, bert = user("anna"), user("bert")
    group = group_with(anna, "Stammtisch Mondsee")
    rosters.member_set(group=group, user=bert, role="editor")
    return {"session": session_at(group, anna), "group": group, "anna": anna, "bert": bert}


def log_out(page: Any, choice: str | None = None) -> None:
    """The header's "Log out"; ``choice`` names the button to answer the question with."""
    page.locator("summary[aria-label=Menu]").click()
    page.get_by_role("button", name="Log out").click()
    if choice:
        page.locator("dialog[data-logout-ask]").get_by_role("button", name=choice).click()
    page.wait_for_url(lambda url: not url.endswith("/sessions/") and "/sessions/" not in url)
    until(page, lambda: page.locator("body").get_attribute("data-account") == "")


def kept_offline(live_server: Any, page: Any, session: Any) -> None:
    """Anna saves a deal without a network; then the network is back, but not to the
    server's deal door (the deal stays unsent, as on a flaky pub network)."""
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    saved_offline(page)
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        route.abort()

    page.context.route("**/deals/new", refuse)
    page.context.set_offline(False)
    until(page, lambda: refused, 10, "the phone did not try to send the deal it kept")
    assert len(outbox(page)) == 1 and Deal.objects.count() == 0


@pytest.mark.long(7)
def test_deals_kept_for_anna_are_neither_sent_nor_shown_for_bert_and_wait_for_her(
        live_server, browser, table):
    session = table["session"]
    page = new_phone(browser)
    count_sends(page)
    kept_offline(live_server, page, session)

    page.locator("summary[aria-label=Menu]").click()
    page.get_by_role("button", name="Log out").click()
    ask = page.locator("dialog[data-logout-ask]")
    ask.wait_for(state="visible", timeout=5000)
    assert "One deal of this account is not sent yet." in ask.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "logout-ask.png"))
    ask.get_by_role("button", name="Keep them for when I log in again").click()
    page.wait_for_url(live_server.url + "/")
    page.context.unroute("**/deals/new")

    log_in(page, live_server.url, "bert")   # Bert, on the same phone
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    sent_on_load(page)
    assert outbox(page) == []
    assert page.locator("#deal-form input[name=number]").input_value() == "1"
    assert page.evaluate(LISTED) == 0 and page.evaluate(KEPT) == 1
    page.evaluate("() => SchreiberEntry.flush()")   # the page sends nothing of Anna's
    worker = page.context.service_workers[0]   # nor does background sync
    assert worker.evaluate("() => SchreiberOutbox.account()") == accounts.phone_owner(
        user=table["bert"])
    assert worker.evaluate("() => SchreiberOutbox.flush({})") == 0
    page.reload()
    sent_on_load(page)
    assert Deal.objects.count() == 0
    assert not Deal.objects.filter(created_by=table["bert"]).exists()

    log_out(page)   # Bert has nothing waiting: no question
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    until(page, lambda: Deal.objects.count() == 1)
    until(page, lambda: outbox(page) == [])
    page.reload()
    sent_on_load(page)  # the reloaded page sends nothing again
    deal = Deal.objects.get()
    assert deal.number == 1 and deal.created_by == table["anna"]
    assert page.evaluate(KEPT) == 0


def test_deals_discarded_at_logout_are_gone(live_server, browser, table):
    session = table["session"]
    page = new_phone(browser)
    count_sends(page)
    kept_offline(live_server, page, session)
    log_out(page, "Discard them")
    page.context.unroute("**/deals/new")
    assert page.evaluate(KEPT) == 0

    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    sent_on_load(page)
    assert outbox(page) == [] and Deal.objects.count() == 0


def test_staying_logged_in_keeps_the_deals_and_the_login(live_server, browser, table):
    session = table["session"]
    page = new_phone(browser)
    kept_offline(live_server, page, session)
    page.locator("summary[aria-label=Menu]").click()
    page.get_by_role("button", name="Log out").click()
    page.locator("dialog[data-logout-ask]").get_by_role("button", name="Stay logged in").click()
    page.context.unroute("**/deals/new")
    page.reload()
    until(page, lambda: Deal.objects.count() == 1)
    assert Deal.objects.get().created_by == table["anna"]


# --- page copies -----------------------------------------------------------------------------


def group_page_kept(live_server: Any, page: Any, group: Any) -> str:
    log_in(page, live_server.url, "anna")
    url = f"{live_server.url}/groups/{group.pk}/"
    page.goto(url)
    installed(page)
    page.context.set_offline(True)
    page.goto(url)   # the copy works
    assert "Stammtisch Mondsee" in page.locator("main").inner_text()
    page.context.set_offline(False)
    return url


def not_served(page: Any, url: str) -> None:
    page.context.set_offline(True)
    page.goto(url)
    main = page.locator("main").inner_text()
    assert "No network" in main and "Stammtisch Mondsee" not in main


def test_logging_out_everywhere_leaves_no_copy_of_annas_pages(live_server, browser, table):
    page = new_phone(browser)
    url = group_page_kept(live_server, page, table["group"])
    page.goto(live_server.url + "/accounts/")
    page.get_by_role("button", name="Log out everywhere").click()
    page.wait_for_url("**/accounts/login/")
    not_served(page, url)


def test_a_password_change_leaves_no_copy_of_the_pages(live_server, browser, table):
    page = new_phone(browser)
    url = group_page_kept(live_server, page, table["group"])
    page.goto(live_server.url + "/accounts/password/")
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", "an0ther-s3cret!")
    page.fill("#id_new_password2", "an0ther-s3cret!")
    page.get_by_role("button", name="Change password").click()
    page.wait_for_url("**/accounts/password/done/")
    until(page, lambda: not page.evaluate(PAGE_COPIES), 10, "the copies are still kept")
    not_served(page, url)


def test_a_phone_logged_out_from_afar_gives_annas_copies_to_nobody_else(
        live_server, browser, table):
    page = new_phone(browser)
    url = group_page_kept(live_server, page, table["group"])
    token = accounts.token_of(user=table["anna"])
    revoke = urllib.request.Request(live_server.url + "/api/v1/auth/token/revoke", data=b"",
                                    method="POST", headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(revoke) as answer:   # Anna, from her laptop
        assert answer.status == 204
    log_in(page, live_server.url, "bert")   # the next page is Bert's
    not_served(page, url)
