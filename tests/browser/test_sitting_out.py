"""Five at a Murln table with sit_out_at 5, on a phone: the dealer sits out every deal, the
seat rotates through a whole game, and every score on screen is the referee's."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from referee.deal import DealKind, deal_from_dict, sitting_out
from referee.rules import mulatschak_rules
from referee.session import apply, start
from scorepad import rosters, services

from .conftest import SCREENSHOTS
from .phone import PASSWORD, enter_deal, log_in, scores

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE = ["Anna", "Bert", "Cilli", "Dominik", "Eva"]
RULES = mulatschak_rules("murln", {"sit_out_at": 5})


def next_deal(state: Any, number: int) -> dict[str, Any]:
    """Deal 3 collapses; every other deal: the first player after the dealer declares two
    in hearts and makes them, the others one trick each."""
    if number == 3:
        return {"kind": "collapsed"}
    out = sitting_out(RULES, FIVE, state.dealer)
    assert out == state.dealer
    active = list(FIVE[FIVE.index(out) + 1:] + FIVE[:FIVE.index(out)])
    declarer = active[0]
    tricks = {p: 2 if p == declarer else 1 for p in active}
    return {"kind": "played", "declarer": declarer, "bid": 2, "trump": "hearts",
            "tricks": tricks, "stayed_home": [], "knocked": False}


@pytest.mark.long(7)
def test_five_at_murln_rotate_the_sitting_out_dealer_through_a_game(live_server, phone):
    page = phone
    resi = get_user_model().objects.create_user(username="resi", password=PASSWORD)
    group = rosters.group_create(user=resi, name="Murln zu fünft")
    session = services.session_start(group=group, user=resi, preset="murln",
                                     overrides={"sit_out_at": 5}, seats=FIVE, dealer="Eva")
    log_in(page, live_server.url, "resi")
    page.goto(f"{live_server.url}/sessions/{session.pk}/")

    state = start(RULES, FIVE, "Eva")
    seen_out: list[str] = []
    for number in range(1, 30):
        out = sitting_out(RULES, FIVE, state.dealer)
        assert out is not None
        seen_out.append(out)
        assert out in page.locator("#scoreboard .next").inner_text()
        assert page.locator(f"#deal-form [data-player='{out}']").count() == 0
        assert page.locator("#deal-form [data-row]").count() == 4
        deal = next_deal(state, number)
        enter_deal(page, FIVE, deal, number)
        _outcome, state = apply(RULES, FIVE, state, deal_from_dict(deal))
        assert scores(page) == dict(state.scores), f"after deal {number}"
        if number == 3:
            assert deal_from_dict(deal).kind is DealKind.COLLAPSED
            assert seen_out[-1] == sitting_out(RULES, FIVE, state.dealer)  # same dealer
        if state.game_over:
            break
    assert state.game_over, "the game did not end"
    assert set(seen_out) == set(FIVE), seen_out  # everybody sat out at least once
    assert "Game over" in page.locator("#scoreboard").inner_text()
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, "the session page scrolls sideways on a phone"
    page.screenshot(path=str(SCREENSHOTS / "murln-five-sitting-out.png"), full_page=True)
    assert page.console_errors == []
