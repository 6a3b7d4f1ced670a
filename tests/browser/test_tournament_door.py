"""The director at the door, in the browser (issue 34): twelve names typed one after
another without a tap, a name twice refused at its field; the score slips one to an A4
page; the screen taking a 1920 px display's width; and the tournament's pages with every
new choice fitting a 360 and a 320 px phone in each language and colour scheme."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ..strength import LANGUAGE_SCHEME_WIDTHS
from .phone import log_in, new_phone, until
from .test_fits import LOCALES, Measure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TWELVE = ["Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz", "Gerti", "Hans", "Ida",
          "Josef", "Karl", "Lisi"]
SCREEN = {"width": 1920, "height": 1080}


def _contest(players: int = 0, **kw: Any) -> Any:
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import tournament

    director = user("anna")
    return director, tournament(group_with(director), director, players=players, **kw)


def test_twelve_names_typed_one_after_another_without_a_tap(live_server, browser):
    _director, contest = _contest(rounds=2)
    page = new_phone(browser, width=1280, height=900)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/tournaments/{contest.pk}/")
    expect(page.locator("#register-name")).to_be_focused()
    for name in TWELVE:  # as fast as the keyboard goes: no wait between the names
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    until(page, lambda: contest.entrants.count() >= 12, seconds=20)
    assert list(contest.entrants.order_by("number").values_list("player__name", flat=True)) \
        == TWELVE
    names = page.locator("#players .player-name")
    expect(names).to_have_count(12, timeout=20_000)
    assert names.all_inner_texts() == TWELVE
    expect(page.locator("#register-name")).to_be_focused()
    expect(page.locator("#register-name")).to_have_value("")
    # a name twice: refused at the field, with the name, which comes back to be corrected
    page.keyboard.type("anna")
    page.keyboard.press("Enter")
    expect(page.locator("#register-error")).to_have_text("anna is already registered")
    expect(page.locator("#register-name")).to_have_value("anna")
    expect(page.locator("#register-name")).to_have_attribute("aria-invalid", "true")
    page.keyboard.press("Control+A")
    page.keyboard.type("Maria")
    page.keyboard.press("Enter")
    expect(names).to_have_count(13)
    expect(page.locator("#register-error")).to_have_count(0)
    assert page.console_errors == []


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_score_slips_print_one_to_an_a4_page(live_server, browser):
    from tests.scorepad.tournament_play import drawn

    director, contest = _contest(players=12, round_ends="deals", deals_per_round=3)
    drawn(contest, director)
    page = new_phone(browser, width=794, height=1123)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/tournaments/{contest.pk}/rounds/1/slips")
    assert page.locator(".slip").count() == 3
    pdf = page.pdf(format="A4", print_background=False)
    assert _pdf_pages(pdf) == 3
    assert page.locator(".slip").first.locator("tbody td.num").all_inner_texts() == [
        "1", "2", "3"]


def test_the_screen_takes_the_width_of_a_1920_px_display(live_server, browser):
    from scorepad.tournaments import services as tour
    from tests.scorepad.tournament_play import drawn, finish_game, seats

    director, contest = _contest(players=8, rounds=2)
    for table in drawn(contest, director).tables.select_related("session"):
        finish_game(table.session, director, seats(table.session)[0])
    tour.round_close(tournament=contest, number=1)
    screen = new_phone(browser, width=SCREEN["width"], height=SCREEN["height"])
    screen.goto(f"{live_server.url}/screen/{contest.screen_token}/")
    ranking = screen.locator("#screen-ranking").bounding_box()
    assert ranking is not None and ranking["width"] >= 0.9 * SCREEN["width"]
    assert screen.locator("tr.top-1").count() == 2 and screen.locator("tr.top-1").first.is_visible()
    assert screen.locator("header .lang, header .menu").count() == 0
    # with a round open the ranking and the tables share the width
    drawn(contest, director, seed=2)
    screen.reload()
    parts = [screen.locator(f"#{part}").bounding_box() for part in ("screen-ranking",
                                                                    "screen-live")]
    assert all(parts) and parts[1]["x"] + parts[1]["width"] - parts[0]["x"] >= \
        0.9 * SCREEN["width"]
    assert screen.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]


@pytest.fixture
def formats_evening() -> dict[str, Any]:
    """Every format at once, with long names: a tournament registering (paid, categories,
    the prize list), and one whose round is open with a finished table to confirm."""
    from scorepad.tournaments import services as tour
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, finish_game, seats, tournament

    from .test_fits import SIX

    director = user("anna")
    group = group_with(director)
    names = [*SIX, "Gertrude", "Hildegard"]
    formats = {"scoring": "combined", "rank_points": [60, 40, 20, 0],
               "tiebreaks": ["score", "best_round", "lot"], "final_tables": 1,
               "confirm_results": True, "entry_fee": "5.00", "currency": "EUR",
               "prizes": [{"place": 1, "percent": 50}, {"place": 2, "amount": "20.00"},
                          {"place": 3, "item": "Geschenkkorb mit Speck und Wein"}]}
    door = tournament(group, director, players=0,
                      name="Preis-Mulatschak der Feuerwehr Zöbern", **formats)
    playing = tournament(group, director, players=0, name="Herbstturnier", **formats)
    for index, name in enumerate(names):
        for contest in (door, playing):
            tour.entrant_register(tournament=contest, name=name)
            tour.entrant_change(tournament=contest, name=name, paid=index % 2 == 0,
                                category="Jugend" if index % 3 == 0 else None)
    table = drawn(playing, director).tables.get(number=1)
    finish_game(table.session, director, seats(table.session)[0])
    return {"door": door, "playing": playing, "code": table.code, "group": group}


@pytest.mark.parametrize(("lang", "scheme", "width"), LANGUAGE_SCHEME_WIDTHS)
def test_the_tournaments_pages_with_every_format_fit_a_phone(live_server, browser,
                                                            formats_evening, lang, scheme,
                                                            width):
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width)
    m = Measure(page, live_server.url, f"formats-{lang}-{scheme}-{width}")
    log_in(page, live_server.url, "anna")
    door, playing = formats_evening["door"], formats_evening["playing"]
    m.look("new-tournament", f"/groups/{formats_evening['group'].pk}/tournaments/")
    page.locator("input[name=scoring][value=combined] + label").tap()
    page.locator("input[name=round_ends][value=deals] + label").tap()
    m.look("new-tournament-combined")
    m.look("door", f"/tournaments/{door.pk}/")
    page.locator("#players details.more summary").first.tap()
    page.locator(".prize-setup summary").tap()
    m.look("door-open")
    m.look("playing", f"/tournaments/{playing.pk}/")
    m.look("ranking-print", f"/tournaments/{playing.pk}/ranking/print?category=Jugend")
    m.look("screen", f"/screen/{playing.screen_token}/")
    phone = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width)
    at_table = Measure(phone, live_server.url, f"formats-{lang}-{scheme}-{width}")
    at_table.look("table-finished", f"/t/{formats_evening['code']}/")
    assert phone.locator("[data-table-finished] .confirm-names button").count() == 4
    assert not m.problems + at_table.problems, "\n".join(m.problems + at_table.problems)
    assert page.console_errors == [] and phone.console_errors == []
