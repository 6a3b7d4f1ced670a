"""Download a session from its page and upload it into another group, on a phone."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from scorepad.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_session_downloaded_from_its_page_uploads_into_another_group(live_server, phone,
                                                                        tmp_path):
    from tests.scorepad.factories import EVEN, group_with, played, record, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    record(session, anna, played("Anna", EVEN))
    target = group_with(anna, name="Zweitwohnsitz")

    phone.goto(live_server.url + "/accounts/login/")
    phone.fill("#id_username", "anna")
    phone.fill("#id_password", "s3cret-pass!")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(live_server.url + "/")

    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Download (JSON)").click()
    path = tmp_path / "session.json"
    download.value.save_as(path)
    assert json.loads(path.read_text())["kind"] == "session"

    phone.goto(f"{live_server.url}/groups/{target.pk}/")
    phone.set_input_files("#import-file", str(path))
    phone.get_by_role("button", name="Import", exact=True).click()
    expect(phone.get_by_text("Imported 1 session.")).to_be_visible()
    assert Session.objects.filter(group=target).count() == 1

    # the same file again: refused, and the page says where and why
    phone.set_input_files("#import-file", str(path))
    phone.get_by_role("button", name="Import", exact=True).click()
    expect(phone.locator("#import-problems")).to_contain_text("session/uid")
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, "the group page scrolls sideways on a 360 px phone"
    assert phone.console_errors == []
