"""What a person does with a phone, for the browser tests: log in, tap, wait for the
live check, save and see the answer swapped in."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from playwright.sync_api import expect

from .conftest import PHONE

T = TypeVar("T")

PASSWORD = "s3cret-pass!"


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button.primary").click()
    page.wait_for_url(base + "/")


def new_phone(browser: Any, *, locale: str = "en-GB", scheme: str = "light",
              width: int = PHONE["width"], height: int = PHONE["height"],
              worker: bool = True) -> Any:
    """A page in a new phone: touch, scale 2, the language and colour scheme given.
    ``worker=False``: without the service worker, for a test that holds the page's requests
    by a route (a page the worker controls sends them past every route, once it has claimed
    the page at a moment of its own)."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale=locale, color_scheme=scheme,
                                  service_workers="allow" if worker else "block")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text[:300]} @ {page.url}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{e} @ {page.url}"))
    page.console_errors = errors
    return page


def until(page: Any, predicate: Callable[[], T], seconds: float = 30.0,
          what: str = "") -> T:
    """Wait until ``predicate`` answers something true, and answer it: an upper bound, not
    a speed check (a service worker's install on a loaded 2-core machine once took more
    than 10 s). For what has no event the test could wait on: a database row, a service
    worker's state, the page's IndexedDB, what a route or a listener of this test caught.
    (Playwright's wait_for_function would evaluate the condition in the page, which needs
    the eval the page's CSP forbids; conditions on the DOM wait with ``expect`` instead.)"""
    deadline = time.monotonic() + seconds
    while not (value := predicate()):
        assert time.monotonic() < deadline, what or f"not within {seconds} s"
        # The one fixed pause of the browser tests: the interval between two looks at a
        # condition nothing announces. Through Playwright, so that the page's events (a
        # route, a request, a console message) reach this test meanwhile.
        page.wait_for_timeout(25)
    return value


#: What is under way on a page: a live check waiting out its debounce
#: (``data-check-due``, set by static/entry.js at a tap) or sent, an htmx request or swap.
BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, form.checking, form[data-check-due]"


def quiet(page: Any, timeout: float = 10.0) -> None:
    """Wait until the deal form's live check and htmx have nothing in flight."""
    expect(page.locator(BUSY)).to_have_count(0, timeout=timeout * 1000)


def checks_sent(page: Any, timeout: float = 10.0) -> None:
    """Wait until no live check waits out its debounce: each has been sent (the tests that
    hold the answers then find it held)."""
    expect(page.locator("form[data-check-due]")).to_have_count(0, timeout=timeout * 1000)


#: Counts, in the page, the outbox's sends that have ended (``window.outboxSends``): each
#: takes the outbox's lock (static/outbox.js, ``flush``), and so does a send this test
#: asks for, which therefore ends after any the page began before it. An init script:
#: it runs before the page's own scripts, whatever its CSP.
COUNT_SENDS = """
(() => {
  window.outboxSends = 0;
  const locks = navigator.locks;
  if (!locks) return;
  const request = locks.request.bind(locks);
  locks.request = function (name, ...rest) {
    const done = request(name, ...rest);
    const ended = () => { if (name === "schreiber-outbox") window.outboxSends += 1; };
    done.then(ended, ended);
    return done;
  };
})();
"""


def count_sends(page: Any) -> None:
    """From the page's next load on, count the outbox's ended sends (``sends``)."""
    page.add_init_script(COUNT_SENDS)


def sends(page: Any) -> int:
    return int(page.evaluate("() => window.outboxSends || 0"))


def sent_on_load(page: Any) -> None:
    """Wait until the send of the outbox that the page makes once it is loaded (the
    deal form's ``flushSoon`` at DOMContentLoaded) has ended: what it would have sent is
    at the server now (``count_sends`` first)."""
    until(page, lambda: sends(page) >= 1, 10, "the page sent nothing of its outbox")


def save(page: Any, name: str = "Save deal") -> Any:
    """Tap Save; the answer (new scores and a fresh form) is swapped in without a reload."""
    with page.expect_response(lambda r: r.request.method == "POST"
                              and r.request.headers.get("hx-target") == "table") as answer:
        page.get_by_role("button", name=name).last.click()
    response = answer.value
    response.finished()
    quiet(page)  # the answer arrived; wait until it is swapped in and settled
    return response


def scores(page: Any) -> dict[str, int]:
    out = {}
    for item in page.locator("#scoreboard .scores li").all():
        name = item.locator(".name").inner_text().strip()
        out[name] = int(item.locator(".score").inner_text().replace("\u2212", "-"))
    return out


def tap(page: Any, selector: str) -> None:
    """Tap something on the deal form: it changes at once (the check follows), and the
    page logs no error for it."""
    before = len(page.console_errors)
    page.locator(selector).tap()
    assert page.console_errors[before:] == [], (selector, page.console_errors[before:])


ONE_TAP = {"collapsed": "Collapsed", "passed": "All passed"}


def enter_deal(page: Any, seats: list[str], deal: dict[str, Any], number: int) -> None:
    """A Mulatschak deal entered as a player does (English page): a one-tap deal by its
    button; a played one by chips, who stayed home, the knock and the steppers (the last
    player's tricks fill themselves in), then Save; the answer is swapped in."""
    if deal["kind"] in ONE_TAP:
        with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
            page.get_by_role("button", name=ONE_TAP[deal["kind"]]).tap()
        page.wait_for_selector(f"text=Deal {number} recorded.")
        return
    seat = {name: i for i, name in enumerate(seats)}
    home = deal.get("stayed_home", [])
    tap(page, f"label[for=decl-{seat[deal['declarer']]}]")
    tap(page, f"label[for=bid-{deal['bid']}]")
    tap(page, f"label[for=trump-{deal['trump']}]")
    for name in home:
        tap(page, f"#row-{seat[name]} .home-toggle")
    if deal.get("knocked"):
        tap(page, "input[name=knocked]")
    playing = [p for p in seats if p in deal["tricks"] and p not in home]
    for name in playing[:-1]:  # the last one: the remainder
        n = deal["tricks"][name]
        if n == 0:
            tap(page, f"button[name=step][value='{seat[name]}:-1']")
        for _ in range(n):
            tap(page, f"button[name=step][value='{seat[name]}:+1']")
    quiet(page)
    assert page.locator("#preview .preview").is_visible(), page.locator("#deal-form").inner_text()
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "table"):
        page.locator("#save-button").tap()
    page.wait_for_selector(f"text=Deal {number} recorded.")


def session_page(browser: Any, base: str, session: Any, *, user: str = "anna",
                 locale: str = "en-GB", scheme: str = "light",
                 width: int = PHONE["width"]) -> Any:
    """A new phone logged in as ``user`` with ``session``'s page open and settled."""
    page = new_phone(browser, locale=locale, scheme=scheme, width=width)
    log_in(page, base, user)
    page.goto(f"{base}/sessions/{session.pk}/")
    quiet(page)
    return page
