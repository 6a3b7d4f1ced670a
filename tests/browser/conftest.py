"""Browser tests: Playwright for Python driving Debian's chromium (no browser downloads).

Locally they skip with a clear message when /usr/bin/chromium is missing; with
SCHREIBER_REQUIRE_BROWSER=1 (as .ci/run sets) a missing browser fails instead.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import request_finished, request_started

#: Debian's headless shell of the same chromium (``chromium-headless-shell``: Blink and V8
#: without the desktop browser around them, what Playwright itself drives when headless)
#: when it is installed, else Debian's chromium. The shell draws the same pages with about a
#: third less CPU (the browser tests alone: 256 s against 375 s on the two-core machine;
#: bench/README.md "make test with the headless shell"), and the suite's time is its CPU.
SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(os.environ.get("SCHREIBER_CHROMIUM")
                or (SHELL if SHELL.exists() else "/usr/bin/chromium"))
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"
PHONE = {"width": 360, "height": 780}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Playwright's sync API runs an event loop in this thread; the live server's database
# work happens in its own thread, so Django's async-safety guard does not apply here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = (f"no chromium at {CHROMIUM}: "
                   "apt-get install -y chromium chromium-headless-shell")
        if os.environ.get("SCHREIBER_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _browser_turns(tmp_path_factory: pytest.TempPathFactory,
                   request: pytest.FixtureRequest) -> Iterator[None]:
    """Under pytest-xdist, browser tests of different workers run side by side, each with
    its own chromium and live server, except a test marked ``alone``: one that measures
    time (an update within 2 s, a board within 300 ms) runs with no other browser test
    beside it, as a slow machine under two chromiums made such tests fail in CI.

    A readers-writer lock on files the workers share: every test passes a turnstile, then
    holds the turns file shared, or, when ``alone``, exclusively. An ``alone`` test keeps the
    turnstile while it waits, so no other browser test starts before it."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    here = tmp_path_factory.getbasetemp().parent
    alone = request.node.get_closest_marker("alone") is not None
    with open(here / "browser-turnstile.lock", "a") as turnstile, \
            open(here / "browser-turns.lock", "a") as turns:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(turns, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(turns, fcntl.LOCK_UN)


@pytest.fixture(autouse=True)
def _pages_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every page a test opened when it ends. A page left open keeps polling its
    scoreboard every 2 s against the session-wide live server; that request then fails
    outside any test's database access, and the 500 it signals lands in whichever later
    test is inside a test-client request at that moment (seen in CI as a stray failure)."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
        SERVED.settle()


class _Served:
    """How many requests the live server's threads are answering. Closing a page does not
    stop an answer under way on the server; the test's database is emptied right after
    (TRUNCATE), and on PostgreSQL that answer's locks and the TRUNCATE deadlocked once in CI
    (the empty-out failed, and the next test found the last one's rows)."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.count = 0
        self.last = 0.0

    def started(self, **kwargs: Any) -> None:
        if threading.current_thread() is not threading.main_thread():  # not the test client
            with self.changed:
                self.count += 1
                self.changed.notify_all()

    def finished(self, **kwargs: Any) -> None:
        if threading.current_thread() is not threading.main_thread():
            with self.changed:
                self.count -= 1
                self.last = time.monotonic()
                self.changed.notify_all()

    def settle(self, quiet: float = 0.2, most: float = 10.0) -> None:
        """Wait until no answer is under way and none has ended for ``quiet`` seconds (a
        request the closed page had already sent may still be read), at most ``most``:
        woken by every answer that starts or ends."""
        deadline = time.monotonic() + most
        with self.changed:
            while (now := time.monotonic()) < deadline:
                if self.count > 0:
                    self.changed.wait(deadline - now)
                elif now - self.last < quiet:
                    self.changed.wait(min(self.last + quiet, deadline) - now)
                else:
                    return


SERVED = _Served()
request_started.connect(SERVED.started, dispatch_uid="browser-tests-served-started")
request_finished.connect(SERVED.finished, dispatch_uid="browser-tests-served-finished")


class _Answers(logging.Handler):
    """What the live server answered with 400 or more (Django logs each on
    ``django.request``) and what the project warned of, while one test ran."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.levelname}: {record.getMessage()[:300]}")


@pytest.fixture(autouse=True)
def _server_answers(request: pytest.FixtureRequest) -> Iterator[None]:
    handler = _Answers()
    loggers = [logging.getLogger(name) for name in ("django.request", "scorepad")]
    for logger in loggers:
        logger.addHandler(handler)
    request.node.server_answers = handler.lines
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


#: What each open page shows, for a failed test's report: where it is, how its document
#: came (the server's status; whether the service worker answered: an offline copy or the
#: "No network" page), and the start of its text.
_PAGE_STATE = """() => {
  const n = performance.getEntriesByType("navigation")[0] || {};
  const main = document.querySelector("main") || document.body;
  return {title: document.title, status: n.responseStatus, type: n.type,
          worker: n.workerStart > 0, offlineCopy: document.documentElement.hasAttribute(
            "data-offline-copy"), text: (main ? main.innerText : "").slice(0, 600)};
}"""


def _pages_seen(item: pytest.Item) -> str:
    browser = getattr(item, "funcargs", {}).get("browser")
    lines = [f"server: {line}" for line in getattr(item, "server_answers", [])]
    for number, context in enumerate(browser.contexts if browser is not None else []):
        try:  # which cookies it holds (a login lost shows here), never their values
            lines.append(f"phone {number} cookies: "
                         f"{sorted(c['name'] for c in context.cookies())}")
        except Exception as e:
            lines.append(f"phone {number} cookies: {str(e)[:200]}")
        for page in context.pages:
            try:
                state = page.evaluate(_PAGE_STATE)
            except Exception as e:  # a page that cannot answer says why
                state = {"error": str(e)[:200]}
            lines.append(f"phone {number}: {page.url} {state}")
    return "\n".join(lines) or "no page open, no answer of 400 or more"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Every browser test ends with axe-core on each page it left open, as the test left it
    (a dialog open, offline, a conflict, the screen, printed): no rule broken
    (tests/browser/axe.py). Not judged: a page that is gone or was never loaded; a phone
    with JavaScript switched off (the tests of pages without scripts), where axe-core cannot
    run (the same pages are judged with it on); and the API's reference (/api/v1/docs/:
    drf-spectacular's Swagger UI, a third party's markup for developers, not a page of the
    app)."""
    result = yield
    browser = getattr(item, "funcargs", {}).get("browser")
    if browser is None:
        return result
    from .axe import violations

    found = []
    for context in browser.contexts:
        options = getattr(getattr(context, "_impl_obj", None), "_options", {}) or {}
        if options.get("javaScriptEnabled") is False:
            continue
        for page in context.pages:
            if page.is_closed() or not page.url.startswith("http") or "/api/" in page.url:
                continue
            try:
                broken = violations(page)
            except Exception as e:  # a page under way (a reload, a navigation): not judged
                if "Execution context was destroyed" in str(e) or "navigat" in str(e):
                    continue
                raise
            found += [f"{page.url}: {line}" for line in broken]
    assert found == [], "axe-core, on the pages as the test left them:\n" + "\n".join(found)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test, for the phone fixture's screenshot; a failed
    browser test's report also says what every open page showed and what the server
    refused or failed meanwhile (a failure seen once in CI is then not a riddle)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    if report.when == "call" and report.failed:
        report.sections.append(("what the phones showed", _pages_seen(item)))
    return report


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page in a phone-sized viewport; a screenshot is saved when the test ends (under
    ``dev``, when it failed: tests/strength.py)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text[:300]} @ {page.url}")
            if m.type == "error" else None)
    page.console_errors = errors
    yield page
    from ..strength import EVERY_SCREENSHOT, SCREENSHOT_SCALE

    call = getattr(request.node, "report_call", None)
    if EVERY_SCREENSHOT or call is None or call.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"), full_page=True,
                        scale=SCREENSHOT_SCALE)
    context.close()
