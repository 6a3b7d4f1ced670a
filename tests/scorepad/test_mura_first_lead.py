"""Mura sessions pass the dealer to the referee: card by card, the player after the dealer
leads the first trick (docs/rules.md, "First lead"); deals stored before still replay."""

from __future__ import annotations

import json

import pytest

from scorepad import services
from scorepad.models import Deal

from .factories import game_start, record
from .mura_play import form, play

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


@pytest.fixture
def mura(anna):
    """Dominik deals first: Anna leads the first trick."""
    return game_start(anna, "mura", dealer="Dominik")


def test_a_deal_led_by_the_player_after_the_dealer_is_recorded(mura, anna):
    row = record(mura, anna, {"trick_cards": play(SEATS, 1, leader="Anna")})
    assert row.data["first_lead_checked"] is True


def test_the_api_refuses_a_first_trick_led_by_the_wrong_player(mura, phone):
    answer = phone.post(f"/api/v1/sessions/{mura.pk}/deals/",
                        json.dumps({"trick_cards": play(SEATS, 1, leader="Cilli")}),
                        content_type="application/json")
    assert answer.status_code == 422
    codes = [v["code"] for v in answer.json()["violations"]]
    assert codes == ["wrong_leader"]
    assert not Deal.objects.exists()


def test_counts_do_not_name_a_leader_and_are_not_checked_for_one(mura, anna):
    row = record(mura, anna, {"tricks": {"Anna": 2, "Bert": 2, "Cilli": 2, "Dominik": 2},
                              "figures": {"Anna": 4, "Bert": 4, "Cilli": 4, "Dominik": 4}})
    assert "first_lead_checked" not in row.data


def test_the_card_form_offers_the_first_leader_and_explains_a_wrong_one(mura, phone):
    page = phone.get(f"/sessions/{mura.pk}/?mode=cards").content.decode()
    assert 'name="l_0" value="0" data-suggest data-leader checked' in page  # Anna
    wrong = form(SEATS, play(SEATS, 1, leader="Cilli"))
    html = phone.post(f"/sessions/{mura.pk}/check", wrong).content.decode()
    assert "Anna sits to the dealer’s right and leads the first trick." in html.replace(
        "&#x27;", "’").replace("'", "’")


def test_a_deal_stored_before_the_check_still_replays(mura, anna):
    record(mura, anna, {"trick_cards": play(SEATS, 1, leader="Anna")})
    stale = {"trick_cards": play(SEATS, 2, leader="Cilli")}  # a wrong lead, unchecked then
    row = record(mura, anna, {"trick_cards": play(SEATS, 2, leader="Bert")})
    Deal.objects.filter(pk=row.pk).update(data=services.Names.of(mura).deal_ids(stale))
    names = services.Names.of(mura)
    services.deal_correct(session=mura, user=anna, number=1,
                          data=names.deal_ids({"trick_cards": play(SEATS, 4, leader="Anna")}))
    mura.refresh_from_db()
    assert mura.state["deals"] == 2
