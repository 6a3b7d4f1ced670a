"""Browser tests: Playwright for Python driving Debian's chromium (no browser downloads).

Locally they skip with a clear message when /usr/bin/chromium is missing; with
SCHREIBER_REQUIRE_BROWSER=1 (as .ci/run sets) a missing browser fails instead.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("SCHREIBER_CHROMIUM", "/usr/bin/chromium"))
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
        message = f"no chromium at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("SCHREIBER_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _one_browser_test_at_a_time(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Under pytest-xdist, browser tests of different workers take turns (a file lock the
    workers share): two chromiums and two live servers on a 2-core machine made timing
    fail in CI. Other tests go on beside a browser test."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    lock_path = tmp_path_factory.getbasetemp().parent / "browser-tests.lock"
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


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


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page in a phone-sized viewport; a screenshot is saved when the test ends."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text[:300]} @ {page.url}")
            if m.type == "error" else None)
    page.console_errors = errors
    yield page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    from ..strength import SCREENSHOT_SCALE

    page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"), full_page=True,
                    scale=SCREENSHOT_SCALE)
    context.close()
