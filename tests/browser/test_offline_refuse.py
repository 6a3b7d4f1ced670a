"""Offline, the phone refuses a deal that breaks a rule (its scorer checks it where the
session will stand, after the deals still waiting) in the words the server would use, and
keeps nothing; at a table where someone sits out, the form follows the deals kept offline,
so that each is counted and the server records them all."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from referee.violations import Violation
from scorepad import games, services
from scorepad.messages import violation_message
from scorepad.models import Deal

from ..strength import repeated
from .phone import log_in, new_phone, quiet, until
from .test_offline import installed, outbox
from .test_provisional import board, offline_polls, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"en": "en-GB", "de": "de-AT", "hu": "hu-HU"}
PAIRS = [("en", "light"), ("de", "dark"), ("hu", "light")]
FIVE = ["Anna", "Bert", "Cilli", "Dominik", "Eva"]


def said(language: str, code: str, player: str, game: str = "mulatschak",
         **params: Any) -> str:
    """What the server says for this violation of a deal of ``game``, in ``language``."""
    with translation.override(language):
        return violation_message(Violation.of(code, player, **params),
                                 games.get(game).WORDING)


def offline_at(live_server: Any, browser: Any, session: Any, username: str,
               language: str = "en", scheme: str = "light") -> Any:
    page = new_phone(browser, locale=LOCALES[language], scheme=scheme)
    log_in(page, live_server.url, username)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    installed(page)
    page.context.set_offline(True)
    return page


def errors(page: Any) -> list[str]:
    shown = page.locator("#deal-form #hints p.error").all_inner_texts()
    return [" ".join(t.split()) for t in shown]


@pytest.mark.parametrize(("language", "scheme"), repeated(PAIRS, dev=1))
def test_a_bid_by_a_player_at_five_is_refused_offline_in_the_servers_words(
        live_server, browser, language, scheme):
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna, overrides={"start_score": 8})
    page = offline_at(live_server, browser, session, "anna", language, scheme)
    # 1: Anna bids 3 in acorns and makes them: 8 − 3 = 5, at the Salzburg limit for bidding
    tap(page, "label[for=decl-0]", "label[for=bid-3]", "label[for=trump-acorns]")
    for seat, tricks in enumerate(("3", "1", "1", "0")):
        page.fill(f"#deal-form input[name=t_{seat}]", tricks)
    tap(page, "#save-button")
    until(page, lambda: len(outbox(page)) == 1)
    until(page, lambda: board(page)["provisional"])
    assert board(page)["scores"]["Anna"] == 5
    # 2: Anna bids again: she may only pass now (the phone's count says so, offline)
    tap(page, "label[for=decl-0]", "label[for=bid-2]", "label[for=trump-leaves]")
    for seat, tricks in enumerate(("2", "1", "1", "1")):
        page.fill(f"#deal-form input[name=t_{seat}]", tricks)
    tap(page, "#save-button")
    expected = said(language, "bid_forbidden_low_score", "Anna", score=5, threshold=5)
    until(page, lambda: errors(page) == [expected])
    assert len(outbox(page)) == 1  # nothing kept
    assert page.locator("#decl-0").is_checked() and page.locator("#bid-2").is_checked()
    assert page.locator("#deal-form input[name=t_0]").input_value() == "2"  # the form stays
    assert page.locator("#deal-form input[name=number]").input_value() == "2"
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, "the refused form scrolls sideways on a phone"
    # Bert bids instead: kept, counted
    tap(page, "label[for=decl-1]")
    for seat, tricks in enumerate(("1", "2", "1", "1")):
        page.fill(f"#deal-form input[name=t_{seat}]", tricks)
    tap(page, "#save-button")
    until(page, lambda: len(outbox(page)) == 2)
    page.context.set_offline(False)
    until(page, lambda: Deal.objects.count() == 2 and outbox(page) == [], 60)
    assert [e for e in page.console_errors if not offline_polls(e)] == []


@pytest.mark.parametrize(("language", "scheme"), repeated(PAIRS, dev=2))
def test_staying_home_in_hearts_is_refused_as_the_first_deal_offline(
        live_server, browser, language, scheme):
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    page = offline_at(live_server, browser, session, "anna", language, scheme)
    tap(page, "label[for=decl-0]", "label[for=bid-2]", "label[for=trump-hearts]")
    page.locator("#row-1 .home-toggle").tap()  # Bert stays home: not in hearts
    for seat, tricks in ((0, "2"), (2, "2"), (3, "1")):
        page.fill(f"#deal-form input[name=t_{seat}]", tricks)
    tap(page, "#save-button")
    expected = said(language, "stay_home_forbidden_hearts", "Bert")
    until(page, lambda: errors(page) == [expected])
    assert outbox(page) == []
    assert page.locator("#row-1 input[data-home]").is_checked()
    assert not board(page)["provisional"]
    assert [e for e in page.console_errors if not offline_polls(e)] == []


def test_at_three_points_bidding_staying_home_and_exchanging_are_refused_offline(
        live_server, browser):
    from tests.scorepad.factories import group_with, session_at, user

    anna = user("anna")
    session = session_at(group_with(anna), anna, overrides={"start_score": 3})
    page = offline_at(live_server, browser, session, "anna", "de", "dark")
    tap(page, "label[for=decl-0]", "label[for=bid-2]", "label[for=trump-acorns]")
    page.locator("#row-1 .home-toggle").tap()  # Bert stays home
    page.locator("#more summary").tap()
    page.fill("#x-2", "2")  # Cilli exchanges two cards
    for seat, tricks in ((0, "2"), (2, "2"), (3, "1")):
        page.fill(f"#deal-form input[name=t_{seat}]", tricks)
    tap(page, "#save-button")
    until(page, lambda: len(errors(page)) == 3)
    assert set(errors(page)) == {
        said("de", "bid_forbidden_low_score", "Anna", score=3, threshold=5),
        said("de", "stay_home_forbidden_low_score", "Bert", score=3, threshold=3),
        said("de", "exchange_forbidden_low_score", "Cilli", score=3, threshold=3),
    }
    assert outbox(page) == []
    assert page.locator("#x-2").input_value() == "2"


def test_a_player_placed_twice_is_refused_offline_in_muller_matz(live_server, browser):
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, overrides=None,
                                     seats=FIVE[:4], game="muller_matz", dealer="Dominik")
    page = new_phone(browser)
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/sessions/{session.pk}/?mode=order")
    installed(page)
    page.context.set_offline(True)
    for place, name in enumerate(("Anna", "Anna", "Cilli", "Dominik")):
        page.select_option(f"#o-{place}", name)
    tap(page, "#save-button")
    until(page, lambda: len(errors(page)) > 0)
    assert said("en", "player_listed_twice", "Anna", "muller_matz") in errors(page)
    assert said("en", "player_missing", "Bert", "muller_matz") in errors(page)
    assert outbox(page) == []
    assert page.locator("#o-1").input_value() == "Anna"


def test_tricks_that_do_not_add_up_are_refused_offline_in_mura(live_server, browser):
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, overrides=None,
                                     seats=FIVE[:4], game="mura", dealer="Dominik")
    page = offline_at(live_server, browser, session, "anna")
    for seat, (tricks, figures) in enumerate(((3, 6), (3, 4), (2, 5), (1, 1))):
        page.fill(f"#deal-form input[name=t_{seat}]", str(tricks))
        page.fill(f"#deal-form input[name=f_{seat}]", str(figures))
    tap(page, "#save-button")
    until(page, lambda: len(errors(page)) > 0)
    assert said("en", "tricks_sum", "", "mura", total=9, expected=8) in errors(page)
    assert outbox(page) == []
    assert page.locator("#deal-form input[name=t_0]").input_value() == "3"


@pytest.mark.parametrize(("language", "scheme"), repeated([("en", "light"), ("hu", "dark")],
                                                           dev=1))
def test_three_deals_offline_at_five_with_one_sitting_out_are_all_counted_and_synced(
        live_server, browser, language, scheme):
    from tests.scorepad.factories import group_with, user

    anna = user("anna")
    session = services.session_start(group=group_with(anna), user=anna, preset="murln",
                                     overrides={"sit_out_at": 5}, seats=FIVE, dealer="Eva")
    page = offline_at(live_server, browser, session, "anna", language, scheme)
    seen = []
    for number in (1, 2, 3):
        out = page.locator("#deal-form .sitting-out-note .pname").inner_text().strip()
        seen.append(out)
        assert page.locator("#deal-form input[name=out]").input_value() == str(FIVE.index(out))
        assert page.locator(f"#deal-form [data-player='{out}']").count() == 0
        assert page.locator("#deal-form [data-row]").count() == 4
        declarer = FIVE.index(out) + 1 if FIVE.index(out) < 4 else 0
        # the declarer bids 2 in hearts and makes them, the others one trick each
        tap(page, f"label[for=decl-{declarer}]", "label[for=bid-2]", "label[for=trump-hearts]",
            "button[data-split]", "#save-button")
        until(page, lambda n=number: len(outbox(page)) == n)
        until(page, lambda n=number: page.locator("#scoreboard").get_attribute("data-provisional")
              == str(n))
        assert errors(page) == []
    assert len(set(seen)) == 3, seen  # three different players sat out
    provisional = board(page)

    page.context.set_offline(False)
    until(page, lambda: Deal.objects.count() == 3 and outbox(page) == [], 60)
    until(page, lambda: not board(page)["provisional"], 30)
    quiet(page)
    server = board(page)
    assert server["scores"] == provisional["scores"]
    assert server["dealer"] == provisional["dealer"] and server["next"] == provisional["next"]
    session.refresh_from_db()
    assert services.scoreboard(session)["scores"] == provisional["scores"]
    assert [e for e in page.console_errors if not offline_polls(e)] == []
