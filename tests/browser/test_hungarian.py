"""The Hungarian UI on a phone: the switch offers it and the pages still fit 360 px."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


def test_switching_to_hungarian_keeps_the_session_pages_on_a_phone(live_server, phone):
    from scorepad import services
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    mulatschak = services.session_start(group=group_with(anna), user=anna, preset="salzburg",
                                        overrides=None, seats=SEATS, dealer="Dominik")
    mura = services.session_start(group=group_with(anna, name="Mura"), user=anna,
                                  preset="mura", overrides=None, seats=SEATS, game="mura")
    phone.goto(live_server.url + "/accounts/login/")
    phone.fill("#id_username", "anna")
    phone.fill("#id_password", "s3cret-pass!")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(live_server.url + "/")

    phone.get_by_role("button", name="HU").click()
    phone.wait_for_load_state()
    assert phone.locator("html").get_attribute("lang") == "hu"
    assert "Játszmák" in phone.content()

    phone.goto(f"{live_server.url}/sessions/{mulatschak.pk}/")
    assert "Ki mondott be?" in phone.content() or "Bemondó" in phone.content()
    assert "Piros" in phone.content() and "Makk" in phone.content()
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, "the Hungarian page scrolls sideways on a 360 px phone"

    phone.goto(f"{live_server.url}/sessions/{mura.pk}/")
    assert "Figurák" in phone.content() and "Nullák" in phone.content()
    assert phone.console_errors == []
