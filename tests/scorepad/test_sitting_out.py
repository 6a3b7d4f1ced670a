"""Five at a Murln table with sit_out_at 5: the dealer sits out, deal by deal
(docs/rules.md, "Sitting out")."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import services
from scorepad.games import mulatschak
from scorepad.models import Deal

from ..strength import examples
from .factories import apply_actions, assert_scores_like_a_fresh_replay, group_with, record

pytestmark = pytest.mark.django_db

FIVE = ["Anna", "Bert", "Cilli", "Dominik", "Eva"]


@pytest.fixture
def murln(anna):
    """Five at a Murln table where the dealer sits out; Eva deals first."""
    return services.session_start(group=group_with(anna, name="Murln"), user=anna,
                                  preset="murln", overrides={"sit_out_at": 5}, seats=FIVE,
                                  dealer="Eva")


def form_of(client: Client, url: str) -> tuple[str, str]:
    """A session page as its form is used: without the parts kept in a <template> (the
    seat that sits out, kept for the phone to bring back offline), and those parts."""
    page = client.get(url).content.decode()
    kept = re.compile(r'<template data-seat-out="\d+">.*?</template>', flags=re.S)
    return kept.sub("", page), "".join(kept.findall(page))


def board(session):
    session.refresh_from_db()
    return services.scoreboard(session)


def four(declarer: str, out: str, bid: int = 2) -> dict:
    """A played deal among the four who play: the declarer makes ``bid``, the rest share."""
    active = [p for p in FIVE if p != out]
    tricks = dict.fromkeys(active, 0)
    tricks[declarer] = bid
    rest = [p for p in active if p != declarer]
    for i in range(5 - bid):
        tricks[rest[i % len(rest)]] += 1
    return {"kind": "played", "declarer": declarer, "bid": bid, "trump": "acorns",
            "tricks": tricks, "stayed_home": []}


def test_the_scoreboard_names_who_sits_out_the_next_deal(murln):
    assert board(murln)["next_sitting_out"] == "Eva"


def test_the_dealer_sits_out_and_the_deal_passes_on(murln, anna):
    deal = record(murln, anna, four("Anna", "Eva"))
    names = services.Names.of(murln)
    eva = names.to_id("Eva")
    assert deal.result["sitting_out"] == eva
    assert deal.result["deltas"][eva] == 0 and deal.result["reasons"][eva] == "sitting_out"
    b = board(murln)
    assert b["next_dealer"] == "Anna" and b["next_sitting_out"] == "Anna"
    assert b["scores"]["Eva"] == 21


def test_a_collapse_keeps_the_dealer_and_so_who_sits_out(murln, anna):
    record(murln, anna, {"kind": "collapsed"})
    assert board(murln)["next_sitting_out"] == "Eva"


def test_with_four_seated_nobody_sits_out(anna):
    session = services.session_start(group=group_with(anna), user=anna, preset="murln",
                                     overrides={"sit_out_at": 5}, seats=FIVE[:4],
                                     dealer="Dominik")
    assert board(session)["next_sitting_out"] is None


def test_the_api_refuses_a_row_for_the_player_who_sits_out(murln, phone):
    deal = four("Anna", "Eva")
    deal["tricks"] = {**deal["tricks"], "Eva": 0}
    answer = phone.post(f"/api/v1/sessions/{murln.pk}/deals/", json.dumps(deal),
                        content_type="application/json")
    assert answer.status_code == 422
    violation = answer.json()["violations"][0]
    assert violation["code"] == "player_sitting_out"
    assert violation["player"] == "Eva" and violation["params"]["field"] == "tricks"
    assert "Eva" in violation["message"]
    assert not Deal.objects.exists()


def test_the_api_refuses_a_deal_that_leaves_out_a_player_who_plays(murln, phone):
    deal = four("Anna", "Eva")
    del deal["tricks"]["Bert"]
    deal["tricks"]["Cilli"] += 1
    answer = phone.post(f"/api/v1/sessions/{murln.pk}/deals/", json.dumps(deal),
                        content_type="application/json")
    assert answer.status_code == 422
    assert {v["code"] for v in answer.json()["violations"]} == {"tricks_missing"}
    assert answer.json()["violations"][0]["player"] == "Bert"


def test_the_api_answers_who_sits_out(murln, phone):
    answer = phone.post(f"/api/v1/sessions/{murln.pk}/deals/", json.dumps(four("Anna", "Eva")),
                        content_type="application/json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["scoreboard"]["next_sitting_out"] == "Anna"
    assert answer.json()["deal"]["sitting_out"] == "Eva"
    assert phone.get(f"/api/v1/sessions/{murln.pk}/scoreboard").json()[
        "next_sitting_out"] == "Anna"


def test_the_entry_has_no_row_for_the_player_who_sits_out(murln, phone):
    page, kept = form_of(phone, f"/sessions/{murln.pk}/")
    assert 'data-player="Eva"' not in page and 'id="decl-4"' not in page
    assert 'data-player="Eva"' in kept and 'id="decl-4"' in kept
    assert 'data-player="Anna"' in page
    assert 'name="out" value="4"' in page
    assert "sits out" in page


def test_a_deal_entered_on_the_form_leaves_the_dealer_out(murln, phone):
    form = {"kind": "played", "number": "1", "out": "4", "declarer": "Anna", "bid": "2",
            "trump": "acorns", "t_0": "2", "t_1": "1", "t_2": "1"}  # Dominik's is inferred
    phone.post(f"/sessions/{murln.pk}/deals/new", form)
    deal = Deal.objects.get(session=murln, number=1)
    names = services.Names.of(murln)
    assert deal.data["tricks"] == {names.to_id(p): n
                                   for p, n in {"Anna": 2, "Bert": 1, "Cilli": 1,
                                                "Dominik": 1}.items()}
    page, _kept = form_of(phone, f"/sessions/{murln.pk}/")
    assert 'data-player="Eva"' in page and 'data-player="Anna"' not in page


def test_the_correction_form_leaves_out_who_sat_out_that_deal(murln, anna, phone):
    record(murln, anna, four("Anna", "Eva"))
    record(murln, anna, four("Bert", "Anna"))
    page, _kept = form_of(phone, f"/sessions/{murln.pk}/deals/1/edit")
    assert 'data-player="Eva"' not in page and 'data-player="Anna"' in page
    page, _kept = form_of(phone, f"/sessions/{murln.pk}/deals/2/edit")
    assert 'data-player="Anna"' not in page and 'data-player="Eva"' in page


def test_statistics_do_not_count_a_deal_sat_out_as_played(murln, anna):
    from scorepad import stats
    from scorepad.models import Session

    record(murln, anna, four("Anna", "Eva"))
    names = services.Names.of(murln)
    (rec,) = stats.load(Session.objects.filter(pk=murln.pk))
    eva, anna_acc = mulatschak.stats_empty(), mulatschak.stats_empty()
    mulatschak.stats_add(names.to_id("Eva"), rec, eva)
    mulatschak.stats_add(names.to_id("Anna"), rec, anna_acc)
    assert eva["deals_seated"] == 0 and eva["deals_played"] == 0
    assert anna_acc["deals_played"] == 1


def _four_of_five(seed: int) -> dict:
    """A deal among four of the five (the one left out by the seed); the referee refuses
    it unless that one is the dealer."""
    if seed % 6 == 0:
        return {"kind": "collapsed"}
    out = FIVE[seed % 5]
    active = [p for p in FIVE if p != out]
    return four(active[(seed // 5) % 4], out, bid=1 + (seed // 20) % 4)


ACTIONS = st.lists(st.tuples(st.sampled_from(["record", "record", "correct", "delete"]),
                             st.integers(0, 1000), st.integers(0, 1000)),
                   min_size=1, max_size=14)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_corrections_at_a_table_where_the_dealer_sits_out_score_like_a_fresh_replay(
        anna, actions):
    session = services.session_start(group=group_with(anna, name="prop"), user=anna,
                                     preset="murln", overrides={"sit_out_at": 5},
                                     seats=FIVE, dealer="Eva")
    apply_actions(session, anna, actions, _four_of_five, refusals_ok=True)
    rows = assert_scores_like_a_fresh_replay(session, "murln")
    for row in rows:
        assert row.result["sitting_out"] == row.result["dealer"]
