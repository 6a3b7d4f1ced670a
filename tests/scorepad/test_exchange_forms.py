"""The exchange part of the deal entry and the API's deal input (docs/rules.md, "Exchange")."""

from __future__ import annotations

import json

import pytest

from scorepad import services
from scorepad.games.mulatschak.form import DealEntry, form_values
from scorepad.models import Deal

from .factories import EVEN, SEATS, group_with, played, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def salzburg(anna):
    return services.session_start(group=group_with(anna), user=anna, preset="salzburg",
                                  overrides=None, seats=SEATS, dealer="Dominik")


def form(**more):
    data = {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns",
            "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1"}
    return data | more


def test_the_entry_offers_a_tap_per_form_the_rules_allow(salzburg, phone):
    page = phone.get(f"/sessions/{salzburg.pk}/").content.decode()
    for value in ("on_sight", "ace_five", "seven_six", "bridge"):
        assert f'name="xf_0" value="{value}"' in page
    assert 'value="x0:+1"' in page  # the plain count has a stepper


def test_murln_offers_no_special_form_but_the_declarers_chain(anna, phone):
    session = services.session_start(group=group_with(anna), user=anna, preset="murln",
                                      overrides=None, seats=SEATS, dealer="Dominik")
    page = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert 'name="xf_0"' not in page
    assert 'name="chain_up"' in page and 'name="trump_delayed"' not in page


def test_a_deal_with_exchange_forms_is_saved_from_the_form(salzburg, phone):
    phone.post(f"/sessions/{salzburg.pk}/deals/new",
               form(number="1", x_0="2", xf_1="on_sight", xr_1="1", xf_2="bridge", xu_2="2"))
    deal = Deal.objects.get(session=salzburg)
    names = services.Names.of(salzburg)
    stored = names.deal_names(deal.data)
    assert stored["exchanged"] == {"Anna": 2}
    assert stored["exchanges"] == {"Bert": {"form": "on_sight", "refused": True},
                                   "Cilli": {"form": "bridge", "face_up": 2}}


def test_a_form_the_rules_do_not_allow_is_named_on_the_form(anna, phone):
    session = services.session_start(group=group_with(anna), user=anna, preset="salzburg",
                                      overrides={"exchange_bridge": False}, seats=SEATS,
                                      dealer="Dominik")
    html = phone.post(f"/sessions/{session.pk}/check",
                      form(xf_1="bridge")).content.decode()
    assert 'id="err-exchanged"' in html
    err = html[html.index('id="err-exchanged"'):][:600]
    assert "Bert" in err and 'class="error"' in err
    assert 'name="xf_1" value="bridge"' not in html  # not offered either


def test_the_stepper_counts_cards_without_javascript(salzburg, phone):
    html = phone.post(f"/sessions/{salzburg.pk}/check",
                      form(x_0="2", step="x0:+1")).content.decode()
    assert 'name="x_0" min="0" max="5" inputmode="numeric" value="3"' in html
    html = phone.post(f"/sessions/{salzburg.pk}/check",
                      form(xf_2="bridge", step="xu2:+1")).content.decode()
    assert 'name="xu_2" min="0" max="26" inputmode="numeric" value="2"' in html


def test_seven_six_needs_bells(salzburg, phone):
    html = phone.post(f"/sessions/{salzburg.pk}/check", form(xf_1="seven_six")).content.decode()
    assert "If you save" not in html
    html = phone.post(f"/sessions/{salzburg.pk}/check",
                      form(xf_1="seven_six", trump="bells")).content.decode()
    assert "If you save" in html


def test_a_correction_shows_the_recorded_forms(salzburg, anna, phone):
    record(salzburg, anna, played("Anna", EVEN, exchanges={
        "Bert": {"form": "bridge", "face_up": 3}}))
    page = phone.get(f"/sessions/{salzburg.pk}/deals/1/edit").content.decode()
    assert 'name="xf_1" value="bridge" checked' in page
    assert 'name="xu_1" min="0" max="26" inputmode="numeric" value="3"' in page


def test_the_api_takes_exchanges_and_a_delayed_trump(anna, phone):
    session = services.session_start(group=group_with(anna), user=anna, preset="salzburg",
                                      overrides={"delayed_trump": True}, seats=SEATS,
                                      dealer="Dominik")
    deal = played("Anna", EVEN, exchanges={"Anna": {"form": "bridge", "face_up": 2},
                                           "Bert": {"form": "on_sight"}},
                  trump_delayed=True)
    answer = phone.post(f"/api/v1/sessions/{session.pk}/deals/", json.dumps(deal),
                        content_type="application/json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()["deal"]["deal"]
    assert body["trump_delayed"] is True
    assert body["exchanges"]["Anna"] == {"form": "bridge", "face_up": 2}
    assert body["exchanges"]["Bert"] == {"form": "on_sight", "refused": False}


def test_the_api_names_a_malformed_exchange(salzburg, phone):
    deal = played("Anna", EVEN, exchanges={"Bert": {"form": "wormhole"}})
    answer = phone.post(f"/api/v1/sessions/{salzburg.pk}/deals/", json.dumps(deal),
                        content_type="application/json")
    assert answer.status_code == 400
    assert any(k.startswith("exchanges.Bert") for k in answer.json()["errors"]), answer.json()


def test_the_api_refuses_a_delayed_trump_the_rules_do_not_allow(salzburg, phone):
    deal = played("Anna", EVEN, exchanges={"Anna": {"form": "bridge", "face_up": 2}},
                  trump_delayed=True)
    answer = phone.post(f"/api/v1/sessions/{salzburg.pk}/deals/", json.dumps(deal),
                        content_type="application/json")
    assert answer.status_code == 422
    assert [v["code"] for v in answer.json()["violations"]] == ["exchange_form_not_allowed"]


def test_a_deal_stored_with_the_old_exchanged_map_loads_replays_and_shows(salzburg, anna,
                                                                        phone):
    record(salzburg, anna, played("Anna", EVEN, exchanged={"Anna": 2, "Bert": 1}))
    record(salzburg, anna, played("Bert", EVEN))
    names = services.Names.of(salzburg)
    services.deal_correct(session=salzburg, user=anna, number=2,
                          data=names.deal_ids(played("Cilli", EVEN)))
    page = phone.get(f"/sessions/{salzburg.pk}/deals/1/edit").content.decode()
    assert 'name="x_0" min="0" max="5" inputmode="numeric" value="2"' in page
    assert 'name="x_1" min="0" max="5" inputmode="numeric" value="1"' in page
    assert phone.get(f"/api/v1/sessions/{salzburg.pk}/deals/1/").json()["deal"][
        "exchanged"] == {"Anna": 2, "Bert": 1}
    assert DealEntry(
        form_values(names.deal_names(Deal.objects.get(number=1).data), SEATS)[0],
        SEATS).as_deal()["exchanged"] == {"Anna": 2, "Bert": 1}
