"""Issue 23 on a phone: a sheet that fits, a start form that clips nothing, no internal
code on any page, an outbox that says its deals in words, an offline copy as fresh as the
screen, an "Undo" on every game's entry panel, a "+" that corrects, and a Save bar that
does not hide the rows still to fill in. Screenshots go to test-results/fits/ (the pages
looked at: as test_looks.py says)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext

from scorepad import services
from scorepad.models import Deal

from ..strength import LANGUAGE_SCHEME_WIDTHS, LANGUAGE_SCHEMES, repeated
from .phone import log_in, new_phone, quiet, save, until
from .test_looks import Looker
from .test_offline import installed  # active first, then controlled (the shell is large)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "fits"
FITS = (Path(__file__).parent / "fits.js").read_text("utf-8")
LOCALES = {"de": "de-AT", "en": "en-GB", "hu": "hu-HU"}
#: Long names on purpose, six of them: where columns used to need sideways scrolling.
SIX = ["Anna", "Bernadette", "Cilli", "Dominik", "Elisabeth", "Maximilian"]
CONTROLLED = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"




def _mulatschak(group: Any, anna: Any, seats: list[str]) -> Any:
    """A Mulatschak session whose first game ends (Anna's second Muli): the deals of the
    looks evening (test_looks.py), the fifth and sixth players at home or, where nobody
    may stay home (hearts trump, a Muli), without a trick."""
    from tests.scorepad.factories import played, record

    session = services.session_start(group=group, user=anna, preset="salzburg", overrides=None,
                                     seats=seats, dealer=seats[3])
    a, b, c, m = seats[:4]
    extra = seats[4:]
    for deal in (
        played(a, {a: 2, b: 1, c: 1, m: 1}),
        played(b, {a: 1, b: 3, m: 1}, bid=3, trump="leaves", stayed_home=[c]),
        played(c, {a: 1, b: 1, c: 2, m: 1}, bid=3, trump="hearts"),
        {"kind": "collapsed"},
        played(m, {b: 0, c: 2, m: 3}, trump="bells", stayed_home=[a]),
        played(a, {a: 5, b: 0, c: 0, m: 0}, bid=5),
        played(b, {a: 1, b: 2, c: 1, m: 1}),
        played(a, {a: 5, b: 0, c: 0, m: 0}, bid=5, trump="hearts"),
        played(b, {a: 1, b: 2, c: 1, m: 1}, trump="leaves"),
    ):
        if deal["kind"] == "played" and (deal["trump"] == "hearts" or deal["bid"] == 5):
            deal["tricks"] |= dict.fromkeys(extra, 0)
        elif deal["kind"] == "played":
            deal["stayed_home"] = deal["stayed_home"] + extra
        record(session, anna, deal)
    return session


@pytest.fixture
def evening() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, record, user

    anna = user("anna")
    user("newcomer")  # no group yet: the start form asks for a new group's name only
    group = group_with(anna)
    four = SIX[:2] + ["Cilli", "Maximilian"]
    out = {"group": group,
           "four": _mulatschak(group, anna, four),
           "five": _mulatschak(group, anna, SIX[:5]),
           "six": _mulatschak(group, anna, SIX)}
    mura = services.session_start(group=group, user=anna, preset="mura", overrides=None,
                                  seats=four, game="mura", stake="0.50", currency="EUR")
    for tricks, figures in (([2, 3, 3, 0], [2, 9, 7, 0]), ([4, 2, 2, 0], [2, 8, 8, 0])):
        record(mura, anna, {"tricks": dict(zip(four, tricks, strict=True)),
                            "figures": dict(zip(four, figures, strict=True))})
    matz = services.session_start(group=group, user=anna, preset="muller_matz", overrides=None,
                                  seats=SIX, game="muller_matz", stake="0.20", currency="EUR")
    record(matz, anna, {"loser": "Bernadette"})
    record(matz, anna, {"finish_order": SIX[::-1]})
    out |= {"mura": mura, "matz": matz}
    return out


def Measure(page: Any, base: str, tag: str) -> Looker:  # noqa: N802 (reads like the class)
    """test_looks' Looker with this test's checks (fits.js) and screenshot folder."""
    return Looker(page, base, tag, SHOTS, FITS)


def every_score_shown(page: Any, players: int) -> None:
    """Every deal row of the sheet shows each player's running score inside the screen."""
    width = page.evaluate("document.documentElement.clientWidth")
    rows = page.locator("table.sheet tbody tr:not(.game-sep)").all()
    assert rows
    for row in rows:
        cells = row.locator("td.p").all()
        assert len(cells) == players
        for cell in cells:
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
            assert cell.locator("strong").inner_text().strip()
    ends = page.locator("table.sheet .game-sep td")
    if ends.count():
        box = ends.first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def session_marks(page: Any, problems: list[str]) -> None:
    """On a session's page: who deals next is marked readably, and the Referee button's
    icon and word stand apart."""
    mark = page.locator("#scoreboard .dealer-mark")
    if not mark.is_visible() or mark.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") < 12:
        problems.append("session: who deals next is not marked readably")
    gap = page.locator("[data-referee-link]").evaluate("""e => {
        const icon = e.querySelector('[aria-hidden]').getBoundingClientRect();
        const range = document.createRange(); range.setStart(e.lastChild, 0);
        range.setEnd(e.lastChild, e.lastChild.length);
        const word = [...range.getClientRects()].find(r => r.width > 0);
        return word.left - icon.right; }""")
    if gap < 3:
        problems.append(f"session: the Referee button's icon and word {gap:.1f} px apart")


@pytest.mark.parametrize(("lang", "scheme", "width"), LANGUAGE_SCHEME_WIDTHS)
@pytest.mark.long(10)
def test_sheets_and_start_form_fit_and_no_internal_code_shows(live_server, browser, evening,
                                                              lang, scheme, width):
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width,
                     height=780 if width == 360 else 640)
    m = Measure(page, live_server.url, f"{lang}-{scheme}-{width}")
    m.look("home", "/")
    m.look("referee", "/referee/")
    m.look("referee-auction", "/referee/auction/")
    log_in(page, live_server.url, "anna")
    m.look("dashboard")
    m.look("sessions", "/sessions/")
    m.look("start", "/sessions/new/")
    page.locator("label[for=id_game_1]").tap()
    m.look("start-mura")
    page.locator("label[for=id_game_2]").tap()
    m.look("start-matz")
    with translation.override(lang):
        group_word = gettext("Group")
    legend = page.locator(".start-form fieldset").first.evaluate(
        "e => [...e.querySelectorAll('legend, label:not(.sr-only)')].map(x => x.innerText)"
        ".join(' ')")
    if re.search(rf"{group_word}\s+{group_word}", legend):   # not "Group Group"
        m.problems.append(f"start: the group said twice: {legend}")
    group = evening["group"]
    m.look("past-sessions", f"/groups/{group.pk}/sessions/")
    m.look("group", f"/groups/{group.pk}/")
    # four players fit 320 px, up to six fit 360 px; a column per player, all of them seen
    for name, players in (("four", 4), ("mura", 4)) + ((("five", 5), ("six", 6), ("matz", 6))
                                                      if width == 360 else ()):
        session = evening[name]
        m.look(f"sheet-{name}", f"/sessions/{session.pk}/sheet")
        every_score_shown(page, players)
        m.look(f"session-{name}", f"/sessions/{session.pk}/")
        if name == "four":   # on the four's board (seen once, not loaded again for it)
            session_marks(page, m.problems)
        m.look(f"referee-{name}", f"/sessions/{session.pk}/referee/")
    assert not m.problems, "\n".join(m.problems)
    assert page.console_errors == []

    # somebody without a group is asked for its name, not "or a new group"
    newcomer = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width)
    log_in(newcomer, live_server.url, "newcomer")
    newcomer.goto(live_server.url + "/sessions/new/")
    with translation.override(lang):
        assert newcomer.get_by_text(gettext("or a new group"), exact=True).count() == 0
        assert newcomer.get_by_text(gettext("Name of the new group"), exact=True).is_visible()


# --- the outbox in words -------------------------------------------------------------------


@pytest.fixture
def table() -> dict[str, Any]:
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    group = group_with(anna)
    return {"anna": anna, "group": group, "session": session_at(group, anna)}


def outbox(page: Any) -> list[str]:
    if page.locator("#outbox").is_hidden():
        return []
    return [" ".join(t.split()) for t in page.locator("#outbox li").all_inner_texts()]


@pytest.mark.parametrize(("lang", "scheme"), repeated(LANGUAGE_SCHEMES))
def test_the_outbox_names_players_and_tricks(live_server, browser, table, lang, scheme):
    session = table["session"]
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    page.context.set_offline(True)
    acorns = page.locator("label[for=trump-acorns]").inner_text().strip()
    cards = page.locator("label[for=xf-0-plain]").text_content().strip()  # an exchange's label
    assert cards
    for selector in ("label[for=decl-0]", "label[for=bid-3]", "label[for=trump-acorns]"):
        page.locator(selector).tap()
    for _ in range(3):
        page.locator("#row-0 button[data-step='+1']").tap()
    page.locator("#row-1 button[data-step='+1']").tap()
    page.locator("#row-2 .home-toggle").tap()   # Cilli stays home; Dominik: the remainder
    page.locator("#save-button").tap()
    until(page, lambda: len(outbox(page)) == 1)
    with translation.override(lang):
        expected = (gettext("Deal %(n)s") % {"n": 1} + " · "
                    + gettext("%(p)s bids %(n)s, trump %(t)s") % {"p": "Anna", "n": 3,
                                                                  "t": acorns}
                    + " · " + gettext("tricks %(list)s")
                    % {"list": "Anna 3, Bert 1, Cilli ⌂, Dominik 1"})
        waiting = gettext("not sent yet: it is sent when the network is back")
    assert outbox(page)[0] == f"{expected} {waiting}"
    assert cards not in outbox(page)[0]
    page.screenshot(path=str(SHOTS / f"outbox-{lang}-{scheme}.png"))
    page.context.set_offline(False)
    until(page, lambda: Deal.objects.count() == 1)
    assert Deal.objects.get().data["bid"] == 3


def test_a_game_kept_offline_names_its_loser(live_server, browser):
    from tests.scorepad.factories import game_start, user

    matz = game_start(user("anna"), "muller_matz", seats=("Anna", "Bert", "Cilli"))
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{matz.pk}/")
    installed(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Bert").tap()
    until(page, lambda: len(outbox(page)) == 1)
    assert outbox(page)[0].startswith("Game 1 · Bert is the Müller Matz")


# --- the offline copy ----------------------------------------------------------------------


def board_on_screen(page: Any) -> tuple[str, str]:
    return (" ".join(page.locator("#scoreboard .scores").inner_text().split()),
            " ".join(page.locator("#recent .deal-no").all_inner_texts()))


@pytest.mark.parametrize(("lang", "scheme"), repeated(LANGUAGE_SCHEMES, dev=1))
def test_the_offline_copy_is_as_fresh_as_the_screen(live_server, browser, table, lang, scheme):
    from tests.scorepad.factories import EVEN, played, record

    session = table["session"]
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    # a deal saved here...
    for selector in ("label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]",
                     "button[data-split]"):
        page.locator(selector).tap()
    quiet(page)
    save(page, page.locator("#save-button").inner_text().strip())
    until(page, lambda: "#1" in board_on_screen(page)[1])
    # ...and one recorded on another phone, seen by the poll
    record(session, table["anna"], played("Bert", EVEN | {"Anna": 1, "Bert": 2}))
    until(page, lambda: "#2" in board_on_screen(page)[1], 15)
    screen = board_on_screen(page)
    copy = """() => caches.keys().then(names => Promise.all(names.filter(n => n.startsWith(
        'schreiber-pages-')).map(n => caches.open(n).then(c => c.match(location.href)))))
        .then(hits => hits.filter(Boolean)).then(hits => hits.length ? hits[0].text() : '')"""
    until(page, lambda: ">#2<" in page.evaluate(copy), 10)   # written within moments

    page.context.set_offline(True)
    page.reload()
    assert page.locator("html").get_attribute("data-offline-copy") is not None
    assert board_on_screen(page) == screen
    page.screenshot(path=str(SHOTS / f"offline-copy-{lang}-{scheme}.png"))


# --- Undo on every game's entry panel --------------------------------------------------------


def test_undo_is_on_every_games_entry_panel_with_a_confirmation(live_server, browser):
    from tests.scorepad.factories import (
        EVEN,
        game_start,
        group_with,
        played,
        record,
        session_at,
        user,
    )

    anna = user("anna")
    group = group_with(anna)
    mulatschak = session_at(group, anna)
    record(mulatschak, anna, played("Anna", EVEN))
    record(mulatschak, anna, {"kind": "collapsed"})
    mura = game_start(anna, "mura")
    record(mura, anna, {"tricks": {"Anna": 2, "Bert": 3, "Cilli": 3, "Dominik": 0},
                        "figures": {"Anna": 2, "Bert": 9, "Cilli": 7, "Dominik": 0}})
    matz = game_start(anna, "muller_matz", seats=("Anna", "Bert", "Cilli"))
    fresh = session_at(group, anna)
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")

    page.goto(f"{live_server.url}/sessions/{fresh.pk}/")
    assert page.locator("#undo-last").count() == 0   # nothing to undo yet

    page.goto(f"{live_server.url}/sessions/{matz.pk}/")
    save(page, "Bert")                                  # Müller Matz: one tap on the loser
    expect_undo = page.locator("#entry #undo-last summary")
    until(page, lambda: expect_undo.count() == 1)
    assert expect_undo.inner_text().strip().endswith("Undo game 1")

    for session, word, number in ((mulatschak, "deal", 2), (mura, "deal", 1),
                                  (matz, "game", 1)):
        page.goto(f"{live_server.url}/sessions/{session.pk}/")
        summary = page.locator("#entry #undo-last summary")
        assert summary.is_visible()
        assert summary.inner_text().strip().endswith(f"Undo {word} {number}")
        confirm = page.get_by_role("button", name=f"Delete {word} {number}")
        assert confirm.is_hidden()                       # the first tap only asks
        summary.tap()
        assert confirm.is_visible()
        before = session.deals.count()
        with page.expect_navigation():
            confirm.tap()
        assert session.deals.count() == before - 1
        assert not session.deals.filter(number=number).exists()
        assert page.locator(".messages").inner_text().strip().startswith(f"Deal {number} deleted")
    assert page.console_errors == []


# --- the tricks' "+", and a Save that cannot save yet ----------------------------------------


def test_plus_moves_on_after_five_tricks_and_the_legend_says_one_too_many(live_server, browser,
                                                                          table):
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table['session'].pk}/")
    for selector in ("label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]",
                     "button[data-split]"):
        page.locator(selector).tap()
    plus_bert = page.locator("#row-1 button[data-step='+1']")
    assert plus_bert.is_enabled()   # five tricks given: "+" still corrects
    plus_bert.tap()
    assert page.locator("#row-1 input[name=t_1]").input_value() == "2"
    assert "1 too many" in page.locator("#tricks-left").inner_text()
    page.locator("#row-2 button[data-step='-1']").tap()   # Cilli had none
    quiet(page)
    assert re.search(r"\(0 left\)", page.locator("#tricks-left").inner_text())
    assert page.locator("#save-button").get_attribute("aria-disabled") is None


def test_no_row_sits_under_a_save_bar_that_cannot_save_yet(live_server, browser, table):
    page = new_phone(browser, locale="de-AT")
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table['session'].pk}/")
    for selector in ("label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]"):
        page.locator(selector).tap()
    page.locator("#row-0 button[data-step='+1']").tap()
    page.locator("#row-0 button[data-step='+1']").tap()
    page.locator("#row-1 button[data-step='+1']").tap()   # two rows still empty
    quiet(page)
    covered = """sel => {
        const e = document.querySelector(sel);   // as a thumb leaves it: just above the edge
        window.scrollBy(0, e.getBoundingClientRect().bottom - (innerHeight - 2));
        const s = e.getBoundingClientRect();
        const hit = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
        return !!(hit && hit.closest('#form-actions'));
    }"""
    for selector in ("#row-3", "#row-2", "label.check:has(input[name=knocked])"):
        assert not page.evaluate(covered, selector), f"{selector} sits under the Save bar"
    assert page.locator("#save-button").get_attribute("aria-disabled") == "true"
    page.locator("#row-2 button[data-step='+1']").tap()   # Dominik: the remainder
    quiet(page)   # a whole deal: Save can save, and is pinned again
    assert page.locator("#save-button").get_attribute("aria-disabled") is None
    assert page.locator("#form-actions").evaluate("e => getComputedStyle(e).position") == "sticky"


def test_the_dealer_badge_speaks_the_pages_language(live_server, browser, table):
    page = new_phone(browser, locale="hu-HU")
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{table['session'].pk}/")
    badge = page.locator("#scoreboard .dealer .dealer-mark")
    with translation.override("hu"):
        assert badge.locator("[aria-hidden]").inner_text().strip() == pgettext("dealer badge",
                                                                                "deals")
    assert float(badge.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 12


# --- a tournament on paper -----------------------------------------------------------------


@pytest.fixture
def prize_evening() -> dict[str, Any]:
    """A finished tournament of two rounds at tables of four (round 1 forced closed with
    table 2 entered from its score slip), names as long as the sheets'."""
    from scorepad.tournaments import services as tour
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, finish_game, seats

    anna = user("anna")
    t = tour.tournament_create(group=group_with(anna), user=anna,
                               name="Preis-Mulatschak der Feuerwehr Zöbern",
                               game=services.games.for_tournaments()[0], preset="geiser",
                               rounds=2, round_ends="game", table_size=4,
                               scoring="placement", draw="random")
    for name in SIX + ["Gertrude", "Hildegard"]:
        tour.entrant_register(tournament=t, name=name)
    first = drawn(t, anna)
    one = first.tables.get(number=1).session
    finish_game(one, anna, seats(one)[0])
    paper = first.tables.get(number=2).session
    ids = [str(p) for p in paper.seats.values_list("player_id", flat=True)]
    tour.table_result_enter(tournament=t, round_number=1, table_number=2, user=anna,
                            figures={"scores_after": dict(zip(ids, [3, -12, 15, 9],
                                                              strict=True))})
    tour.round_close(tournament=t, number=1)
    for table in drawn(t, anna, seed=3).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[2])
    tour.round_close(tournament=t, number=2)
    tour.tournament_change(tournament=t, status="finished")
    return {"tournament": t}


@pytest.mark.parametrize(("lang", "scheme", "width"), LANGUAGE_SCHEME_WIDTHS)
def test_a_tournament_on_paper_fits_a_phone(live_server, browser, prize_evening, lang,
                                            scheme, width):
    t = prize_evening["tournament"]
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width)
    m = Measure(page, live_server.url, f"{lang}-{scheme}-{width}")
    log_in(page, live_server.url, "anna")
    m.look("tournament", f"/tournaments/{t.pk}/")
    m.look("final-ranking", f"/tournaments/{t.pk}/ranking/print")
    names = page.locator(".final-name").all_inner_texts()
    assert len(names) == 8 and page.locator(".by-round-line").first.is_visible()
    m.look("score-slips", f"/tournaments/{t.pk}/rounds/2/slips")
    m.look("slip-entry", f"/tournaments/{t.pk}/rounds/1/tables/2/slip")
    page.locator(".slip-form fieldset input").first.fill("zwölf")
    with page.expect_navigation():
        page.locator(".slip-form button.primary").tap()
    assert page.locator("#slip-error").is_visible()
    m.look("slip-entry-error")
    assert not m.problems, "\n".join(m.problems)
    assert page.console_errors == []


def test_the_final_ranking_prints_its_round_columns_without_the_bar(live_server, browser,
                                                                     prize_evening):
    t = prize_evening["tournament"]
    page = new_phone(browser, width=794, height=1123)  # A4 at 96 dpi
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/ranking/print")
    page.emulate_media(media="print")
    assert page.locator("th.by-round").first.is_visible()
    assert page.locator(".by-round-line").first.is_hidden()
    assert page.locator("header.bar").is_hidden()
    size = page.locator(".final-table").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 16  # 13pt
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "final-ranking-print.png"), full_page=True)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/2/slips")
    assert page.locator(".slip").count() == 2 and page.locator(".slip-links").is_hidden()
    page.screenshot(path=str(SHOTS / "score-slips-print.png"), full_page=True)


@pytest.mark.parametrize("width", [703, 360, 320])
def test_the_seating_plan_fits_a4_and_a_phone_with_its_long_addresses(live_server, browser,
                                                                       width):
    """The plan's table addresses (a 43-character code each) wrap inside their box: on A4
    inside the 12 mm margins (703 CSS pixels, print media) and on a phone; so does the
    director's list of the open round's tables."""
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, tournament

    director = user("anna")
    contest = tournament(group_with(director), director, players=8, rounds=2)
    drawn(contest, director)
    page = new_phone(browser, width=width, height=1123 if width > 360 else 640)
    log_in(page, live_server.url, "anna")
    if width > 360:
        page.emulate_media(media="print")
    m = Measure(page, live_server.url, f"plan-{width}")
    m.look("seating-plan", f"/tournaments/{contest.pk}/rounds/1/plan")
    assert page.locator("a[data-table-url]").count() == 2
    for box in page.locator(".plan-table").all():
        inner = box.evaluate("e => e.scrollWidth - e.clientWidth")
        assert inner <= 0, box.inner_text()
    if width <= 360:  # the director's live tables: open, enter from the slip, the code
        m.look("tournament-open-round", f"/tournaments/{contest.pk}/")
        assert page.locator("a[data-slip-entry]").count() == 2
    assert not m.problems, "\n".join(m.problems)


# --- a tournament table's phone (scorepad/tablephone.py) -----------------------------------


@pytest.mark.parametrize(("lang", "scheme", "width"), LANGUAGE_SCHEME_WIDTHS)
def test_a_table_phones_pages_fit(live_server, browser, lang, scheme, width):
    """The table's page (its banner: table, round, seats), the form for typing a code, a
    wrong code and the page after the round: they fit and show no internal code."""
    from scorepad.tournaments import services as tour
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, record, tournament

    director = user("anna")
    contest = tournament(group_with(director), director, players=8, rounds=2)
    long_names = ["Bernadette", "Maximilian", "Elisabeth", "Konstantin"]
    for entrant, name in zip(contest.entrants.order_by("number")[:4], long_names,
                             strict=True):
        entrant.player.name = name
        entrant.player.save(update_fields=["name"])
    table = drawn(contest, director).tables.get(number=1)
    record(table.session, director, {"kind": "collapsed"})
    page = new_phone(browser, locale=LOCALES[lang], scheme=scheme, width=width,
                     height=780 if width == 360 else 640)
    m = Measure(page, live_server.url, f"table-{lang}-{scheme}-{width}")
    m.look("table-code-form", "/t/")
    m.look("table-code-unknown", "/t/" + "x" * 43 + "/")
    m.look("table-phone", f"/t/{table.code}/")
    assert page.locator("[data-table-phone]").is_visible()
    assert page.locator(".table-phone-seats li").count() == 4
    assert page.locator("#entry").is_visible()
    tour.round_close(tournament=contest, number=1, force=True)
    m.look("table-ended", f"/sessions/{table.session_id}/")
    assert page.locator("[data-table-ended]").is_visible()
    assert not m.problems, "\n".join(m.problems)
