"""The group's statistics on a phone (issue 33, "Looking back on a phone"): each player's
figures stand under their headings, in a card per player at 360 and 320 px and in the
table on a wide screen, and only the figures of the games the group has played are shown.
fits.js checks that nothing leaves the screen, under.js that no figure stands apart from
what names it. Screenshots go to test-results/fits/ (as test_looks.py says)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from scorepad import games

from ..strength import LANGUAGE_SCHEME_WIDTHS
from .phone import log_in, new_phone
from .test_fits import LOCALES, SHOTS, Measure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNDER = (Path(__file__).parent / "under.js").read_text("utf-8")
#: The players' names, long on purpose (the four seats of tests/scorepad/test_stats.py).
LONG = {"Bert": "Bernadette", "Dominik": "Maximilian"}


def _renamed(group: Any) -> None:
    for player in group.players.filter(name__in=LONG):
        player.name = LONG[player.name]
        player.save(update_fields=["name"])


@pytest.fixture
def groups() -> dict[str, Any]:
    """Two groups of Anna's: one that played Mulatschak only, one that played all three."""
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.test_stats import script_matz, script_mulatschak, script_mura

    anna = user("anna")
    one = group_with(anna, "Mulatschakrunde Zöbern")
    script_mulatschak(one, anna)
    every = group_with(anna, "Kartenrunde Mondsee")
    script_mulatschak(every, anna)
    script_mura(every, anna)
    script_matz(every, anna)
    _renamed(one)
    _renamed(every)
    return {"one": one, "every": every}


def _labels(lang: str, *names: str) -> set[str]:
    """The headings of the named games' statistics figures, in ``lang``."""
    with translation.override(lang):
        return {str(column.label) for name in names
                for column in games.get(name).STATS_COLUMNS}


def _shown_labels(page: Any) -> set[str]:
    """Every figure's heading on the page, in the cards (open or not) and the table."""
    return {" ".join(t.split()) for t in page.locator(
        "article dl dt, .stats-table thead th").all_text_contents()}


def _under(page: Any, name: str, problems: list[str]) -> None:
    problems += [f"{name}: {p}" for p in page.evaluate(UNDER)]


@pytest.mark.parametrize(("lang", "scheme", "width"), LANGUAGE_SCHEME_WIDTHS)
def test_each_figure_stands_under_its_heading_on_a_phone(live_server, browser, groups, lang,
                                                          scheme, width):
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width,
                     height=780 if width == 360 else 640)
    m = Measure(page, live_server.url, f"stats-{lang}-{scheme}-{width}")
    log_in(page, live_server.url, "anna")
    others = _labels(lang, "mura", "muller_matz")
    for name in ("one", "every"):
        m.look(f"stats-{name}", f"/groups/{groups[name].pk}/stats/")
        _under(page, f"stats-{name}", m.problems)
        assert page.locator("article.stat-card").count() == 4, "\n".join(m.problems)
        assert page.locator(".stats-table").is_hidden()
        for summary in page.locator("article.stat-card details > summary").all():
            summary.tap()
        assert page.locator("article.stat-card details[open]").count() == 4
        m.look(f"stats-{name}-open")
        _under(page, f"stats-{name}-open", m.problems)
        shown = _shown_labels(page)
        if name == "one":    # no figure of a game the group never played
            assert not shown & others, shown & others
        else:
            assert others <= shown, others - shown
    assert not m.problems, "\n".join(m.problems)
    assert page.console_errors == []


def test_on_a_wide_screen_the_table_keeps_each_figure_under_its_heading(live_server, browser,
                                                                         groups):
    page = new_phone(browser, width=1024, height=800)
    log_in(page, live_server.url, "anna")
    problems: list[str] = []
    others = _labels("en", "mura", "muller_matz")
    for name in ("one", "every"):
        page.goto(f"{live_server.url}/groups/{groups[name].pk}/stats/")
        assert page.locator(".stats-table").is_visible()
        assert page.locator("article.stat-card").first.is_hidden()
        _under(page, name, problems)
        headings = {" ".join(t.split()) for t in
                    page.locator(".stats-table thead th").all_text_contents()}
        assert bool(headings & others) is (name == "every"), headings
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "stats-wide.png"), full_page=True)
    assert not problems, "\n".join(problems)
