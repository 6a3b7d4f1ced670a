"""Sessions carry knocks over a collapse where the rules say so (docs/rules.md,
"Knocks and collapses")."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import services
from scorepad.models import Deal

from ..strength import examples
from .factories import (
    EVEN,
    SEATS,
    apply_actions,
    assert_scores_like_a_fresh_replay,
    deal_from_seed,
    group_with,
    played,
    record,
)

pytestmark = pytest.mark.django_db

CARRY = {"knock_survives_collapse": True}


def carrying(anna, **more):
    return services.session_start(group=group_with(anna, name="Klopfer"), user=anna,
                                  preset="salzburg", overrides={**CARRY, **more},
                                  seats=SEATS, dealer="Dominik")


def board(session):
    session.refresh_from_db()
    return services.scoreboard(session)


def test_a_knocked_collapse_carries_its_knock_into_the_pending_multiplier(anna):
    session = carrying(anna)
    record(session, anna, {"kind": "collapsed", "knocked": True})
    b = board(session)
    assert b["pending_multiplier"] == 4
    assert b["pending_factors"] == ["collapse", "knock"]


def test_the_next_played_deal_is_doubled_by_the_carried_knock(anna):
    session = carrying(anna)
    record(session, anna, {"kind": "collapsed", "knocked": True})
    deal = record(session, anna, played("Anna", EVEN))
    assert deal.result["multiplier"] == 4
    assert deal.result["knocks_before"] == 1
    anna_id = services.Names.of(session).to_id("Anna")
    assert deal.result["deltas"][anna_id] == -8
    assert board(session)["pending_multiplier"] == 1  # used up


def test_without_the_switch_a_knock_dies_with_its_collapse(anna):
    session = services.session_start(group=group_with(anna), user=anna, preset="salzburg",
                                     overrides=None, seats=SEATS, dealer="Dominik")
    record(session, anna, {"kind": "collapsed", "knocked": True})
    assert board(session)["pending_multiplier"] == 2
    assert record(session, anna, played("Anna", EVEN)).result["multiplier"] == 2


def test_two_knocked_collapses_and_a_knocked_deal_multiply_by_thirty_two(anna):
    session = carrying(anna)
    record(session, anna, {"kind": "collapsed", "knocked": True})
    record(session, anna, {"kind": "collapsed", "knocked": True})
    deal = record(session, anna, played("Anna", EVEN, knocked=True))
    assert deal.result["multiplier"] == 32
    assert sorted(deal.result["factors"]) == ["collapse", "collapse", "knock", "knock", "knock"]


def test_a_state_stored_before_knocks_carried_over_still_loads(anna):
    session = carrying(anna)
    record(session, anna, played("Anna", EVEN))
    session.refresh_from_db()
    old = dict(session.state)
    del old["knocks"]
    type(session).objects.filter(pk=session.pk).update(state=old)
    assert board(session)["scores"]["Anna"] == 19
    assert record(session, anna, played("Bert", EVEN)).number == 2


def test_correcting_the_knock_away_replays_the_deal_after_it(anna):
    session = carrying(anna)
    record(session, anna, {"kind": "collapsed", "knocked": True})
    record(session, anna, played("Anna", EVEN))
    names = services.Names.of(session)
    services.deal_correct(session=session, user=anna, number=1,
                          data=names.deal_ids({"kind": "collapsed", "knocked": False}))
    assert Deal.objects.get(session=session, number=2).result["multiplier"] == 2


def test_the_board_page_and_the_entry_preview_show_the_carried_knock(anna):
    session = carrying(anna)
    phone = Client()
    phone.force_login(anna)
    phone.post(f"/sessions/{session.pk}/deals/new",
               {"kind": "collapsed", "knocked": "1", "number": "1"})
    assert Deal.objects.get(session=session, number=1).data["knocked"] is True
    page = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert "collapse × knock = ×4" in page
    data = {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns",
            "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1"}
    html = phone.post(f"/sessions/{session.pk}/check", data).content.decode()
    assert "If you save" in html and "collapse × knock = ×4" in html


def test_the_knocked_collapse_button_shows_only_where_a_knock_carries(anna):
    phone = Client()
    phone.force_login(anna)
    carried = carrying(anna)
    plain = services.session_start(group=group_with(anna, name="Plain"), user=anna,
                                   preset="salzburg", overrides=None, seats=SEATS,
                                   dealer="Dominik")
    assert "Knocked, collapsed" in phone.get(f"/sessions/{carried.pk}/").content.decode()
    assert "Knocked, collapsed" not in phone.get(f"/sessions/{plain.pk}/").content.decode()


def test_the_api_scoreboard_names_the_carried_knock(anna):
    session = carrying(anna)
    api = Client()
    api.force_login(anna)
    answer = api.post(f"/api/v1/sessions/{session.pk}/deals/",
                      {"kind": "collapsed", "knocked": True}, content_type="application/json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["scoreboard"]["pending_multiplier"] == 4


def _knocky_deal(seed: int) -> dict:
    """Mostly collapses, knocked or not, and knocked played deals."""
    if seed % 3 == 0:
        return {"kind": "collapsed", "knocked": bool(seed % 2)}
    if seed % 11 == 1:
        return {"kind": "passed", "knocked": bool(seed % 2)}
    return deal_from_seed(seed, SEATS) | {"knocked": bool(seed % 2)}


ACTIONS = st.lists(st.tuples(st.sampled_from(["record", "record", "correct", "delete"]),
                             st.integers(0, 1000), st.integers(0, 1000)),
                   min_size=1, max_size=14)


@pytest.mark.parametrize("all_pass", ["redeal", "redeal_double"])
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_corrections_with_carried_knocks_score_like_a_fresh_replay(anna, all_pass, actions):
    session = services.session_start(group=group_with(anna, name="prop"), user=anna,
                                     preset="salzburg",
                                     overrides={**CARRY, "all_pass": all_pass},
                                     seats=SEATS, dealer="Dominik")
    apply_actions(session, anna, actions, _knocky_deal, refusals_ok=True)
    assert_scores_like_a_fresh_replay(session, "salzburg")
