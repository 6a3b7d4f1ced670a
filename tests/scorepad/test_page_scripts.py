"""Each page loads the scripts it uses and no others: htmx where something polls or swaps,
the deal form's scripts where there is a deal form to fill, the phone's storage for an
account (templates/base.html, templates/scorepad/_entry_scripts.html). A page that carries
scripts it never runs costs a phone on slow data what it does not use (bench/README.md,
Lighthouse)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from .factories import game_start
from .test_access import ACCESS, PERSONAS, client_for, url_of, world  # noqa: F401

pytestmark = pytest.mark.django_db

HTMX = re.compile(r'<script src="[^"]*/htmx[^"]*\.js"')
SWAPS = re.compile(r"\shx-(?:get|post|trigger|swap-oob)=")
DEAL_FORM = re.compile(r"<form\b[^>]*\sdata-(?:entry|save)\b")
ENTRY = ("entry.js", "saving.js", "kept.js")


def scripts(html: str) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', html)


def loads(html: str, name: str) -> bool:
    return any(src.rsplit("/", 1)[-1].split(".")[0] == name.split(".")[0]
               for src in scripts(html))


def pages(w: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(url name, persona, html) of every page a persona gets with a GET."""
    out = []
    for name, calls in sorted(ACCESS.items()):
        if name.startswith("api:") or not any(method == "get" for method, *_ in calls):
            continue
        url = url_of(name, w)
        for persona in PERSONAS:
            response = client_for(persona, w).get(url)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html") \
                    and b"<html" in response.content:
                out.append((name, persona, response.content.decode()))
    return out


def test_every_page_loads_htmx_and_the_deal_forms_scripts_exactly_where_it_uses_them(
        world):  # noqa: F811
    seen = pages(world)
    assert len(seen) > 40
    polls = [(name, persona) for name, persona, html in seen
             if bool(SWAPS.search(html)) != bool(HTMX.search(html))]
    assert polls == []
    forms = [(name, persona) for name, persona, html in seen
             if any(loads(html, s) for s in ENTRY) != bool(DEAL_FORM.search(html))
             or bool(DEAL_FORM.search(html)) != all(loads(html, s) for s in ENTRY)]
    assert forms == []
    with_form = [html for _name, _persona, html in seen if DEAL_FORM.search(html)]
    assert with_form and all("/games/mulatschak/phone" in html for html in with_form)
    assert any(HTMX.search(html) for *_, html in seen)  # the check can see htmx


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
