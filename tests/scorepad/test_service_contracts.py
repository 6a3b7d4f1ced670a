"""Every use case checks what it is given: a malformed deal, number or session start that
reaches the services directly (not through the API's or a form's checks) is refused as one
InputError naming each bad field, and changes nothing; a use case is one transaction."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scorepad import accounts, rosters, services
from scorepad.models import Deal, DealEvent, Group, Player, Session

from .factories import SEATS, game_start, group_with, session_at, user

pytestmark = pytest.mark.django_db

MALFORMED = {
    "mulatschak": ({"kind": "played", "bid": "2", "tricks": {"Anna": "x"}},
                   {"bid", "tricks.Anna"}),
    "mura": ({"tricks": "x", "figures": {"Anna": True}}, {"tricks", "figures.Anna"}),
    "muller_matz": ({"finish_order": "Anna"}, {"finish_order"}),
}


def start(owner, game):
    if game == "mulatschak":
        return session_at(group_with(owner), owner)
    return game_start(owner, game)


@pytest.mark.parametrize("game", list(MALFORMED))
def test_a_malformed_deal_sent_to_the_service_is_one_input_error_naming_each_field(anna, game):
    session = start(anna, game)
    data, fields = MALFORMED[game]
    with pytest.raises(services.InputError) as e:
        services.deal_record(session=session, user=anna, data=data)
    assert {p.field for p in e.value.problems} == fields
    assert not Deal.objects.exists() and not DealEvent.objects.exists()


@pytest.mark.parametrize("game", list(MALFORMED))
@pytest.mark.parametrize("data", [None, [1, 2], "passed", 7])
def test_a_deal_that_is_not_an_object_is_an_input_error_not_a_crash(anna, game, data):
    session = start(anna, game)
    with pytest.raises(services.InputError):
        services.deal_record(session=session, user=anna, data=data)


def test_a_correction_is_checked_like_a_new_deal(anna, table):
    services.deal_record(session=table, user=anna, data={"kind": "passed"})
    with pytest.raises(services.InputError) as e:
        services.deal_correct(session=table, user=anna, number=1,
                              data={"kind": "played", "declarer": "Anna", "bid": 2,
                                    "trump": "acorns", "tricks": {"Anna": 100}},
                              version="1")
    assert {p.field for p in e.value.problems} == {"tricks.Anna", "version"}
    assert Deal.objects.get().data["kind"] == "passed"


@pytest.mark.parametrize("number", ["2", 0, True, 1.5])
def test_the_deal_number_a_client_believes_in_must_be_a_whole_number(anna, table, number):
    with pytest.raises(services.InputError) as e:
        services.deal_record(session=table, user=anna, data={"kind": "passed"}, number=number)
    assert e.value.field == "number"
    assert not Deal.objects.exists()


def test_the_services_take_deals_by_the_names_people_type(anna, table):
    row = services.deal_record(session=table, user=anna, data={
        "kind": "played", "declarer": "anna", "bid": 2, "trump": "acorns",
        "tricks": {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}})
    anna_id = str(table.seats.get(position=0).player_id)
    assert row.data["declarer"] == anna_id and anna_id in row.data["tricks"]


def test_an_unseated_first_dealer_leaves_no_new_roster_names_behind(anna):
    group = group_with(anna)
    with pytest.raises(services.InputError) as e:
        services.session_start(group=group, user=anna, preset="salzburg", overrides=None,
                               seats=["Xaver", "Yvonne", "Zenzi", "Anna"], dealer="Nobody")
    assert e.value.field == "dealer"
    assert not Player.objects.exists() and not Session.objects.exists()


def test_a_new_group_and_its_first_session_are_made_together_or_not_at_all(anna):
    with pytest.raises(services.InputError):
        services.session_start(group_name="Kocsma", user=anna, preset="salzburg",
                               overrides={"start_score": "many"}, seats=SEATS)
    assert not Group.objects.exists()
    session = services.session_start(group_name="Kocsma", user=anna, preset="salzburg",
                                     overrides=None, seats=SEATS)
    assert session.group.name == "Kocsma"
    assert session.group.memberships.get().user == anna


def test_the_start_page_leaves_no_group_behind_when_the_session_cannot_start(phone):
    response = phone.post("/sessions/new/", {
        "game": "mulatschak", "preset": "salzburg", "new_group": "Kocsma",
        "seat_0": "Anna", "seat_1": "Bert", "seat_2": "Cilli", "seat_3": "Dominik",
        "rule_start_score": "many"})
    assert response.status_code == 200 and "start_score" in response.content.decode()
    assert not Group.objects.exists() and not Player.objects.exists()


def test_a_username_is_taken_whatever_its_case(anna):
    with pytest.raises(services.InputError) as e:
        accounts.account_register(username="ANNA", password="kartenspiel-2026")
    assert (e.value.field, e.value.code) == ("username", "username_taken")
    assert get_user_model().objects.count() == 1


def test_a_weak_password_is_refused_by_the_service_in_the_users_words():
    with pytest.raises(services.InputError) as e:
        accounts.account_register(username="greta", password="123")
    assert e.value.field == "password" and e.value.problems[0].worded
    assert not get_user_model().objects.exists()


def test_a_roster_rename_and_link_are_one_change(anna):
    group = group_with(anna)
    session_at(group, anna)
    bert = group.players.get(name="Bert")
    stranger = user("zoe")
    with pytest.raises(services.InputError):
        rosters.player_change(player=bert, name="Berti", user=stranger)  # not a member
    bert.refresh_from_db()
    assert bert.name == "Bert" and bert.user is None
