"""Each page loads the scripts it uses and no others (page_scripts.py says which). Every page
each persona gets is checked where the access tests request it (test_access.py); these are
the pages the rule is about, seen from both sides."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from .factories import game_start
from .page_scripts import ENTRY, HTMX, loads, problems, scripts
from .test_access import client_for, url_of, world  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_owners_session_page_loads_htmx_the_deal_forms_scripts_and_its_scorer(
        world):  # noqa: F811
    html = client_for("owner", world).get(url_of("scorepad:session", world)).content.decode()
    assert problems(html) == []
    assert HTMX.search(html) and all(loads(html, s) for s in ENTRY)
    assert "/games/mulatschak/phone" in html


def test_the_rule_sees_a_page_that_loads_what_it_does_not_use():
    page = '<html><script src="/static/entry.1.js"></script><p>no form</p></html>'
    assert problems(page) != []
    polled = '<html><div hx-get="/board"></div></html>'
    assert problems(polled) != []


def test_an_anonymous_page_loads_only_the_page_script(client):
    for path in ("/", "/accounts/login/", "/play/", "/rules/"):
        html = client.get(path).content.decode()
        names = [src.rsplit("/", 1)[-1].split(".")[0] for src in scripts(html)]
        assert names == ["schreiber"], (path, names)


def test_a_page_of_an_account_keeps_the_phones_storage_for_logging_out(phone):
    html = phone.get("/groups/").content.decode()
    assert loads(html, "outbox.js") and not loads(html, "entry.js") and not HTMX.search(html)


def test_the_session_page_of_a_reader_polls_but_has_no_deal_form(world):  # noqa: F811
    html = client_for("viewer", world).get(url_of("scorepad:session", world)).content.decode()
    assert HTMX.search(html) and not any(loads(html, s) for s in ENTRY)


def test_only_a_form_with_the_card_picker_loads_it(anna, phone: Client, table):
    mulatschak = phone.get(f"/sessions/{table.pk}/").content.decode()
    mura = game_start(anna, "mura")
    cards = phone.get(f"/sessions/{mura.pk}/").content.decode()
    assert not loads(mulatschak, "cardpicker.js")
    assert loads(cards, "cardpicker.js") and "/games/mura/phone" in cards


def htmx_sets_up(html: str) -> int:
    """How many elements htmx sets up when it starts on a page: each form, each element
    with an explicit ``type="submit"`` and each with an ``hx-`` attribute (what htmx 2's
    start asks the page for; each costs it about 1 ms on a phone, a form's counters and
    steppers included)."""
    return len(re.findall(r"<form\b|<[a-z]+\b[^>]*?(?:\stype=\"submit\"|\shx-[a-z-]+=)", html))


def test_htmx_sets_up_a_handful_of_elements_on_the_session_page_not_each_stepper(
        anna, phone: Client, table):
    mulatschak = phone.get(f"/sessions/{table.pk}/").content.decode()
    mura = phone.get(f"/sessions/{game_start(anna, 'mura').pk}/").content.decode()
    for html in (mulatschak, mura):
        steppers = [b for b in re.findall(r"<button\b[^>]*>", html) if ' name="step"' in b]
        assert len(steppers) >= 8   # the form's steppers are there, and submit without script
        assert all(' type="' not in b or ' type="submit"' in b for b in steppers)
        assert htmx_sets_up(html) <= 16, htmx_sets_up(html)
