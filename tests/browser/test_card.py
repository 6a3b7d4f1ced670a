"""Sharing the evening on a phone: the card's picture goes to the share sheet where the
phone shares files (navigator.canShare, mocked here), else it is downloaded."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .phone import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A phone whose share sheet takes files: what navigator.share was given is kept.
SHARES_FILES = """
window.__shared = [];
navigator.canShare = (data) => !!(data && data.files && data.files.length);
navigator.share = async (data) => {
  const files = await Promise.all((data.files || []).map(async (f) => ({
    name: f.name, type: f.type, size: f.size,
    head: Array.from(new Uint8Array(await f.slice(0, 8).arrayBuffer())) })));
  window.__shared.push({ title: data.title, text: data.text, files });
};
"""
#: A browser without a share sheet for files.
NO_FILES = "navigator.canShare = () => false;"


@pytest.fixture
def evening() -> Any:
    from scorepad import services
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.test_stats import script_mulatschak

    anna = user("anna")
    session = script_mulatschak(group_with(anna), anna)
    services.session_describe(session=session, name="Kirtag bei Hőfer Űrsula")
    return session


def _open(page: Any, url: str, session: Any) -> None:
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "s3cret-pass!")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(url + "/")
    page.goto(f"{url}/sessions/{session.pk}/")
    page.get_by_role("link", name="Share the evening").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Share the evening")


def test_the_evening_goes_to_the_share_sheet_as_a_picture(live_server, phone, evening):
    phone.add_init_script(SHARES_FILES)
    _open(phone, live_server.url, evening)
    picture = phone.locator(".card-preview img")
    expect(picture).to_be_visible()
    assert until(phone, lambda: phone.evaluate(
        "() => document.querySelector('.card-preview img').naturalWidth"), 10) == 1080
    box = picture.bounding_box()
    assert box is not None and box["width"] <= 360
    phone.get_by_role("button", name="Share the evening").click()
    shared = until(phone, lambda: phone.evaluate(
        "() => window.__shared.length && window.__shared"), 10)
    (share,) = shared
    (file,) = share["files"]
    assert file["type"] == "image/png" and file["name"].endswith(".png")
    assert file["head"] == [137, 80, 78, 71, 13, 10, 26, 10] and file["size"] > 20_000
    assert share["title"] == "Kirtag bei Hőfer Űrsula"
    assert "Kirtag bei Hőfer Űrsula" in share["text"] and "Who pays whom" in share["text"]
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 360
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "share-the-evening.png"), full_page=True)
    phone.locator(".card-preview").screenshot(path=str(SCREENSHOTS / "readme-card.png"))
    assert phone.console_errors == []


def test_without_a_share_sheet_for_files_the_picture_is_downloaded(live_server, phone,
                                                                   evening):
    phone.add_init_script(NO_FILES)
    _open(phone, live_server.url, evening)
    with phone.expect_download() as caught:
        phone.get_by_role("button", name="Share the evening").click()
    download = caught.value
    assert download.suggested_filename.endswith(".png")
    with open(download.path(), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert phone.console_errors == []


@pytest.mark.parametrize(("locale", "width"), [("en-GB", 360), ("de-AT", 320),
                                               ("hu-HU", 320)])
def test_the_card_says_no_line_that_counts_none(live_server, browser, evening, locale,
                                                width):
    """Only Anna won a game: the others' "0 games won" is left out, in every language."""
    import re

    from .phone import log_in, new_phone

    page = new_phone(browser, locale=locale, width=width)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{evening.pk}/card")
    told = page.locator("#card-text").input_value()
    lines = told.splitlines()
    assert not [line for line in lines if re.search(r"(^|\()0\s", line)], told
    assert [line for line in lines if re.search(r"\(1\s", line)], told  # Anna's one game
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.console_errors == []
