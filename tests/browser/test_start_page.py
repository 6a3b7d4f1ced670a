"""The start talks to pub players (issue 33, "Entry without friction"): the home page
lists every game's presets and no API button; the start form shows no internal code (no
monospace, no snake_case word), speaks of a roster only to whom has one, and its house-rule
chips fit a 320 px phone in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from scorepad import games, rosters

from ..strength import repeated
from .phone import log_in, new_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [("en-GB", 360, "light"), ("de-AT", 320, "dark"), ("hu-HU", 320, "light")]
#: A word as the code writes its names: lower case joined by underscores.
SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
#: What the page shows, every <details> opened: its text, its options, and what is set in
#: a monospace font.
SHOWN = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const shown = (e) => {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0;
  };
  const mono = [...document.querySelectorAll('main *')].filter(e => shown(e)
      && [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim())
      && (e.matches('code, kbd, samp, tt') || /monospace/.test(getComputedStyle(e).fontFamily)))
    .map(e => e.textContent.trim());
  const options = [...document.querySelectorAll('main select')].filter(shown)
    .flatMap(s => [...s.options].map(o => o.text));
  return {text: document.querySelector('main').innerText, options, mono};
}"""


def _shown(page: Any) -> dict[str, Any]:
    return page.evaluate(SHOWN)


def _no_internal_code(page: Any) -> None:
    shown = _shown(page)
    assert shown["mono"] == [], shown["mono"]
    words = SNAKE.findall(shown["text"] + "\n" + "\n".join(shown["options"]))
    assert words == [], words


@pytest.mark.parametrize(("locale", "width", "scheme"), repeated(PHONES, dev=0))
def test_the_home_page_lists_every_games_presets_and_no_api_button(live_server, browser,
                                                                   locale, width, scheme):
    page = new_phone(browser, locale=locale, width=width, scheme=scheme)
    page.goto(live_server.url + "/")
    with translation.override(locale[:2]):
        expected = [name for game in games.registered() for name, _line in game.preset_lines()]
        api = gettext("Referee API")
    listed = page.locator("ul.presets li strong").all_inner_texts()
    assert listed == expected and len({*listed}) >= len(games.registered())
    assert page.locator("main").get_by_role("link", name=api).count() == 0
    _no_internal_code(page)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.console_errors == []


@pytest.mark.parametrize(("locale", "width", "scheme"), repeated(PHONES, dev=2))
def test_the_start_form_shows_no_code_and_no_roster_to_a_guest(live_server, browser, locale,
                                                                width, scheme):
    page = new_phone(browser, locale=locale, width=width, scheme=scheme)
    page.goto(live_server.url + "/play/")
    with translation.override(locale[:2]):
        roster = gettext("Type names or pick from the roster; mark who deals first.")
        plain = gettext("Type the players' names; mark who deals first.")
    assert page.get_by_text(roster).count() == 0
    assert page.get_by_text(plain).is_visible()
    _no_internal_code(page)
    assert page.console_errors == []


@pytest.mark.parametrize(("locale", "width", "scheme"), repeated(PHONES, dev=1))
def test_the_start_form_offers_the_roster_to_whom_has_one(live_server, browser, locale, width,
                                                          scheme):
    from tests.scorepad.factories import group_with, user

    group = group_with(user("anna"))
    rosters.player_add(group=group, name="Bert")
    page = new_phone(browser, locale=locale, width=width, scheme=scheme)
    log_in(page, live_server.url, "anna")
    page.goto(live_server.url + "/sessions/new/")
    with translation.override(locale[:2]):
        roster = gettext("Type names or pick from the roster; mark who deals first.")
    assert page.get_by_text(roster).is_visible()
    _no_internal_code(page)
    assert page.console_errors == []


#: Each house-rule chip's text: its width, its box's, and the lines it is drawn on.
CHIPS = """() => [...document.querySelectorAll('details.house-rules .toggle3 label')]
  .filter(l => l.getBoundingClientRect().width > 0).map(l => {
    const range = document.createRange(); range.selectNodeContents(l);
    const rects = [...range.getClientRects()].filter(r => r.width > 0);
    const box = l.getBoundingClientRect();
    return {text: l.innerText.trim(), left: Math.min(...rects.map(r => r.left)),
            right: Math.max(...rects.map(r => r.right)), boxLeft: box.left,
            boxRight: box.right, lines: new Set(rects.map(r => Math.round(r.top))).size,
            height: box.height, width: box.width};
  })"""


@pytest.mark.parametrize("locale", repeated(["hu-HU", "de-AT", "en-GB"]))
def test_the_house_rule_chips_fit_a_320_px_phone(live_server, browser, locale):
    page = new_phone(browser, locale=locale, width=320, height=640)
    page.goto(live_server.url + "/play/")
    page.locator("details.house-rules summary").first.click()
    chips = page.evaluate(CHIPS)
    assert len(chips) >= 20 * 3
    clipped = [c["text"] for c in chips
               if c["left"] < c["boxLeft"] - 0.5 or c["right"] > c["boxRight"] + 0.5]
    broken = [c["text"] for c in chips if c["lines"] > 1]
    small = [c["text"] for c in chips if c["height"] < 44 or c["width"] < 44]
    assert (clipped, broken, small) == ([], [], []), chips[:3]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
    assert page.console_errors == []
