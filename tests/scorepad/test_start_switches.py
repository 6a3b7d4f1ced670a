"""The start form and the API start sessions with the switches of docs/rules.md,
"House rules", that were added later: sitting out, knocks over collapses, the exchange
forms."""

from __future__ import annotations

import pytest

from referee.rules import INT_BOUNDS, mulatschak_rules
from referee.violations import RuleError
from scorepad.models import Session

pytestmark = pytest.mark.django_db

NEW = ("sit_out_at", "knock_survives_collapse", "exchange_on_sight", "exchange_ace_five",
       "exchange_bridge", "exchange_seven_six", "delayed_trump", "declarer_on_sight_chain")


def test_the_start_form_offers_every_new_switch(phone):
    page = phone.get("/sessions/new/").content.decode()
    for name in NEW:
        assert f'name="rule_{name}"' in page, name
    assert 'id="id_rule_knock_survives_collapse_on"' in page  # an on/off toggle
    assert 'data-rule-step="+1"' in page and 'data-min="3" data-max="7"' in page


def test_the_start_form_starts_five_at_murln_where_the_dealer_sits_out(phone):
    response = phone.post("/sessions/new/", {
        "new_group": "Murln", "preset": "murln", "dealer": "4",
        **{f"seat_{i}": name for i, name in enumerate(["Anna", "Bert", "Cilli", "Dominik",
                                                         "Eva"])},
        "rule_sit_out_at": "5", "rule_knock_survives_collapse": "true",
        "rule_knock_doubles": "true", "rule_delayed_trump": "true"})
    assert response.status_code == 302, response.content.decode()[:2000]
    session = Session.objects.get()
    assert session.rules["sit_out_at"] == 5
    assert session.rules["knock_survives_collapse"] is True
    assert session.rules["delayed_trump"] is True
    page = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert "Eva deals and sits out this deal." in page.replace('<span class="pname">', "").replace(
        "</span>", "")


def test_a_sit_out_at_out_of_range_is_shown_next_to_it(phone):
    response = phone.post("/sessions/new/", {
        "new_group": "Murln", "preset": "murln", "seat_0": "Anna", "seat_1": "Bert",
        "rule_sit_out_at": "2"})
    assert response.status_code == 200
    assert "sit_out_at" in response.content.decode()
    assert not Session.objects.exists()


def test_the_api_starts_a_session_with_the_new_switches(phone, anna):
    group = phone.post("/api/v1/groups/", {"name": "Murln"},
                       content_type="application/json").json()
    answer = phone.post("/api/v1/sessions/", {
        "group": group["id"], "game": "mulatschak",
        "rules": {"preset": "murln", "overrides": {"sit_out_at": 5,
                                                    "knock_survives_collapse": True}},
        "seats": ["Anna", "Bert", "Cilli", "Dominik", "Eva"], "dealer": "Eva"},
        content_type="application/json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["rules"]["sit_out_at"] == 5 and body["rules"]["knock_survives_collapse"]
    assert body["scoreboard"]["next_sitting_out"] == "Eva"


def test_the_api_names_a_bad_switch(phone):
    group = phone.post("/api/v1/groups/", {"name": "Murln"},
                       content_type="application/json").json()
    answer = phone.post("/api/v1/sessions/", {
        "group": group["id"], "rules": {"preset": "murln", "overrides": {"sit_out_at": 9}},
        "seats": ["Anna", "Bert"]}, content_type="application/json")
    assert answer.status_code == 400
    assert "rules.overrides.sit_out_at" in answer.json()["errors"]


@pytest.mark.parametrize("name", sorted(INT_BOUNDS))
def test_the_steppers_stop_where_the_referee_does(name):
    low, high = INT_BOUNDS[name]
    for outside, code in ((low - 1, "too_small"), (high + 1, "too_large")):
        with pytest.raises(RuleError) as e:
            mulatschak_rules("salzburg", {name: outside})
        assert (e.value.field, e.value.code) == (f"overrides.{name}", code)
