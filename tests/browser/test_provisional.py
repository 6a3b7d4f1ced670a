"""The board keeps counting offline: deals recorded without a network are counted on the
phone (its scorer, static/provisional.js) into a board marked provisional, and once they
are sent the server's board says the very same."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad import services
from scorepad.models import Deal

from ..strength import repeated
from .conftest import SCREENSHOTS
from .phone import log_in, new_phone, quiet, until
from .test_offline import installed, outbox

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
#: The badge of a provisional board in each language (templates/scorepad/_provisional.html).
BADGE = {"en": "provisional", "de": "vorläufig", "hu": "ideiglenes"}


#: The scoreboard read in one go (a read spread over several calls could see it change).
READ_BOARD = """section => {
  const text = el => el ? el.innerText.split(/\\s+/).join(" ").trim() : "";
  const scores = {};
  section.querySelectorAll(".scores li").forEach(li => {
    scores[li.querySelector(".name").innerText.trim()] =
      parseInt(li.querySelector(".score").innerText.replace("\u2212", "-"), 10);
  });
  return {scores: scores, next: text(section.querySelector("p.next")),
          banner: Array.from(section.querySelectorAll("p.banner")).map(text).join(" "),
          dealer: text(section.querySelector(".scores li.dealer .name")),
          provisional: section.classList.contains("provisional")};
}"""


def board(page: Any) -> dict[str, Any]:
    """What the scoreboard says: scores, who deals next, the pending multiplier, the game's
    end, and whether it is provisional."""
    return dict(page.locator("#scoreboard").evaluate(READ_BOARD))


def offline_polls(error: str) -> bool:
    """What the page logs for its polls while the network is away (htmx, the browser)."""
    return any(text in error for text in ("ERR_INTERNET_DISCONNECTED", "htmx:sendError",
                                          "htmx:afterRequest"))


def tap(page: Any, *selectors: str) -> None:
    for selector in selectors:
        page.locator(selector).tap()


@pytest.mark.parametrize(("language", "scheme"), repeated([("en", "light"), ("de", "dark"),
                                                           ("hu", "light")], dev=1))
def test_three_deals_recorded_offline_show_the_scores_the_server_shows_after_they_sync(
        live_server, browser, language, scheme):
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna, overrides={"start_score": 8})
    page = new_phone(browser, locale={"en": "en-GB", "de": "de-AT", "hu": "hu-HU"}[language],
                     scheme=scheme)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    before = board(page)
    assert not before["provisional"]

    page.context.set_offline(True)
    # 1: Anna bids 2 in acorns and makes it, the others one trick each (a made deal)
    tap(page, "label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]",
        "button[data-split]", "#save-button")
    until(page, lambda: len(outbox(page)) == 1)
    until(page, lambda: board(page)["provisional"])
    first = board(page)
    assert first["scores"] == {"Anna": 6, "Bert": 7, "Cilli": 7, "Dominik": 7}
    assert first["dealer"] == "Anna"
    assert BADGE[language] in page.locator("#scoreboard .provisional-note").inner_text().lower()
    # 2: collapsed: the next deal counts double, Anna deals again
    page.locator("#entry .one-tap form").first.locator("button").tap()
    until(page, lambda: len(outbox(page)) == 2)
    until(page, lambda: board(page)["next"] != first["next"])
    second = board(page)
    assert second["scores"] == first["scores"] and second["dealer"] == "Anna"
    assert "×2" in second["next"]
    # 3: Bert bids 3 in hearts (everybody plays) and makes 3, Anna one trick, Cilli none,
    # Dominik the last one (filled in): ×4 (hearts, the collapse)
    tap(page, "label[for=decl-1]", "label[for=bid-3]", "label[for=trump-hearts]")
    for seat, tricks in ((1, "3"), (0, "1"), (2, "0")):
        page.fill(f"#deal-form input[name=t_{seat}]", tricks)
    tap(page, "#save-button")
    until(page, lambda: len(outbox(page)) == 3)
    until(page, lambda: board(page)["scores"] != first["scores"])
    third = board(page)
    assert third["provisional"]
    assert third["scores"] == {"Anna": 2, "Bert": -5, "Cilli": 27, "Dominik": 3}
    assert third["banner"]  # Bert went below 0: the game is over, Bert won
    assert Deal.objects.count() == 0
    page.screenshot(path=str(SCREENSHOTS / f"provisional-{language}-{scheme}.png"),
                    full_page=True)

    page.context.set_offline(False)
    seen: list[dict[str, int]] = []

    def synced() -> bool:
        """The deals went and the server's own board is shown; meanwhile the board never
        falls back to an older count (every look says the same scores)."""
        seen.append(board(page)["scores"])
        return Deal.objects.count() == 3 and outbox(page) == [] and not board(page)["provisional"]

    until(page, synced, 60)
    quiet(page)
    server = board(page)
    assert all(s == third["scores"] for s in seen), seen
    assert server["scores"] == third["scores"]
    assert server["dealer"] == third["dealer"] and server["next"] == third["next"]
    assert server["banner"] == third["banner"]
    session.refresh_from_db()
    board_now = services.scoreboard(session)
    assert board_now["scores"] == third["scores"] and board_now["game_over"]
    assert [e for e in page.console_errors if not offline_polls(e)] == []


@pytest.mark.parametrize("game", ["mura", "muller_matz"])
def test_the_other_games_count_offline_too(live_server, browser, game):
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, overrides=None,
                                     seats=SEATS, game=game, dealer="Dominik")
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    page.context.set_offline(True)
    if game == "mura":
        for counts in ({"t": (3, 2, 2, 1), "f": (6, 4, 5, 1)},
                       {"t": (8, 0, 0, 0), "f": (16, 0, 0, 0)}):
            for i in range(4):
                page.fill(f"#deal-form input[name=t_{i}]", str(counts["t"][i]))
                page.fill(f"#deal-form input[name=f_{i}]", str(counts["f"][i]))
            page.locator("#save-button").tap()
            until(page, lambda n=counts: len(outbox(page)) >= (1 if n["t"][0] == 3 else 2))
    else:
        for loser in ("Bert", "Bert", "Cilli"):
            page.locator("#entry button[name=loser]", has_text=loser).tap()
        until(page, lambda: len(outbox(page)) == 3)
    until(page, lambda: "provisional" in (page.locator("#scoreboard").get_attribute("class") or ""))
    shown = " ".join(page.locator("#scoreboard table.tally").inner_text().split())
    title = page.locator("#scoreboard .board-title").inner_text()
    assert ("2 deals" if game == "mura" else "3 games") in title
    page.screenshot(path=str(SCREENSHOTS / f"provisional-{game}.png"), full_page=True)

    page.context.set_offline(False)
    until(page, lambda: Deal.objects.count() == (2 if game == "mura" else 3), 60)
    until(page, lambda: outbox(page) == [], 60)
    until(page, lambda: "provisional" not in (page.locator("#scoreboard").get_attribute("class")
                                        or ""), 30)
    quiet(page)
    assert " ".join(page.locator("#scoreboard table.tally").inner_text().split()) == shown
    assert page.locator("#scoreboard .board-title").inner_text() == title


#: Two taps on the same button within one moment (a finger's double tap), before the first
#: deal is kept in the phone's store.
DOUBLE_TAP = """name => {
  const button = Array.from(document.querySelectorAll("#entry button[name=loser]"))
    .find(b => b.textContent.includes(name));
  button.click();
  button.click();
}"""


def test_a_tap_while_a_deal_is_being_kept_offline_is_not_a_second_deal_of_the_same_number(
        live_server, browser):
    """Keeping a deal on the phone takes a moment (its store, then the list). The form's
    buttons stay disabled meanwhile, so a second tap is not a second deal under the number
    the first one took (two quick taps kept two deals both numbered 1, and the board
    counted one of them); the next tap, once it is kept, is the next number."""
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, overrides=None,
                                     seats=SEATS, game="muller_matz", dealer="Dominik")
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    page.context.set_offline(True)
    page.evaluate(DOUBLE_TAP, "Bert")
    until(page, lambda: len(outbox(page)) == 1)
    page.locator("#entry button[name=loser]", has_text="Cilli").tap()
    until(page, lambda: len(outbox(page)) == 2)
    kept = outbox(page)
    assert kept[0].startswith("Game 1 · Bert") and kept[1].startswith("Game 2 · Cilli"), kept
    until(page, lambda: "2 games" in page.locator("#scoreboard .board-title").inner_text())
    page.context.set_offline(False)
    until(page, lambda: outbox(page) == [], 60)
    assert [d.number for d in Deal.objects.filter(session=session).order_by("number")] == [1, 2]
    assert page.console_errors == []
