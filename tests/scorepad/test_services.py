"""The scorepad's use cases: sessions, recording, correcting, deleting, replaying."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import rosters, services
from scorepad.cache import versions
from scorepad.models import Deal, DealEvent, Session

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
    session_at,
)

pytestmark = pytest.mark.django_db



def board(session):
    session.refresh_from_db()
    return services.scoreboard(session)


def test_a_new_session_seats_the_players_and_starts_everyone_at_21(table):
    b = board(table)
    assert b["scores"] == dict.fromkeys(SEATS, 21)
    assert b["next_dealer"] == "Dominik"
    assert b["game_number"] == 1
    assert table.rules["start_score"] == 21


def test_new_names_join_the_roster_and_known_ones_are_reused(anna):
    group = group_with(anna)
    session_at(group, anna)
    session_at(group, anna, seats=["anna", "Bert", "Zora"], dealer=None)
    assert sorted(group.players.values_list("name", flat=True)) == [
        "Anna", "Bert", "Cilli", "Dominik", "Zora"]


def test_a_session_refuses_too_many_players(anna):
    with pytest.raises(services.InputError) as e:
        session_at(group_with(anna), anna, preset="geiser",
                   seats=["A", "B", "C", "D", "E", "F"], dealer=None)
    assert e.value.field == "seats"


def test_bad_overrides_name_the_parameter(anna):
    with pytest.raises(services.InputError) as e:
        session_at(group_with(anna), anna, overrides={"knock_doubles": "yes"})
    assert e.value.field == "rules.overrides.knock_doubles"


def test_recording_deals_rotates_the_dealer_and_keeps_the_score(table, anna):
    record(table, anna, played("Anna", EVEN))
    record(table, anna, {"kind": "collapsed"})
    b = board(table)
    assert b["scores"] == {"Anna": 19, "Bert": 20, "Cilli": 20, "Dominik": 20}
    assert b["next_dealer"] == "Anna"  # a collapse is redealt by the same dealer
    assert b["pending_multiplier"] == 2 and b["pending_factors"] == ["collapse"]


def test_an_illegal_deal_is_refused_and_changes_nothing(table, anna):
    with pytest.raises(services.RulesBroken) as e:
        record(table, anna, played("Anna", EVEN, trump="hearts", stayed_home=["Bert"]))
    assert "stay_home_forbidden_hearts" in [v.code for v in e.value.violations]
    assert Deal.objects.count() == 0
    assert DealEvent.objects.count() == 0
    assert board(table)["scores"] == dict.fromkeys(SEATS, 21)


def test_a_stale_deal_number_is_a_conflict(table, anna):
    record(table, anna, played("Anna", EVEN), number=1)
    with pytest.raises(services.Conflict) as e:
        record(table, anna, played("Bert", EVEN), number=1)
    assert e.value.reason == "number_taken"
    assert Deal.objects.count() == 1


def test_a_closed_session_records_nothing(table, anna):
    services.session_set_status(session=table, status=Session.Status.CLOSED)
    with pytest.raises(services.Conflict):
        record(table, anna, played("Anna", EVEN))


def test_correcting_an_early_deal_replays_everything_after_it(table, anna):
    record(table, anna, played("Anna", EVEN))
    record(table, anna, {"kind": "collapsed"})
    record(table, anna, played("Bert", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}))
    names = services.Names.of(table)
    services.deal_correct(session=table, user=anna, number=1,
                          data=names.deal_ids(played("Anna", EVEN, trump="hearts")))
    # deal 1 now counts double (hearts); deal 3 still doubles for the collapse
    b = board(table)
    assert b["scores"] == {"Anna": 21 - 4 - 2, "Bert": 21 - 2 - 4, "Cilli": 21 - 2 - 2,
                           "Dominik": 21 - 2 - 2}
    third = Deal.objects.get(session=table, number=3)
    assert third.result["multiplier"] == 2


def test_a_correction_that_makes_a_later_deal_illegal_is_refused(anna):
    session = session_at(group_with(anna), anna, overrides={"no_stay_home_twice": True})
    record(session, anna, played("Anna", {"Anna": 2, "Bert": 2, "Cilli": 0, "Dominik": 1}))
    record(session, anna, played("Bert", {"Anna": 2, "Bert": 2, "Dominik": 1},
                                 stayed_home=["Cilli"]))
    names = services.Names.of(session)
    with pytest.raises(services.RulesBroken) as e:
        services.deal_correct(session=session, user=anna, number=1, data=names.deal_ids(
            played("Anna", {"Anna": 2, "Bert": 2, "Dominik": 1}, stayed_home=["Cilli"])))
    assert e.value.number == 2
    assert [v.code for v in e.value.violations] == ["stay_home_twice"]
    assert Deal.objects.get(session=session, number=1).data["stayed_home"] == []


def test_a_stale_version_of_a_deal_is_a_conflict(table, anna):
    record(table, anna, played("Anna", EVEN))
    names = services.Names.of(table)
    services.deal_correct(session=table, user=anna, number=1, version=1,
                          data=names.deal_ids(played("Bert", EVEN)))
    with pytest.raises(services.Conflict) as e:
        services.deal_correct(session=table, user=anna, number=1, version=1,
                              data=names.deal_ids(played("Cilli", EVEN)))
    assert e.value.reason == "deal_changed"


def test_deleting_a_deal_replays_and_the_history_keeps_it(table, anna):
    record(table, anna, played("Anna", EVEN))
    record(table, anna, played("Bert", EVEN))
    services.deal_delete(session=table, user=anna, number=1)
    assert list(Deal.objects.values_list("number", flat=True)) == [2]
    b = board(table)
    # deal 2 is now the first: Bert bid 2 and took 1, he falls (+10)
    assert b["scores"] == {"Anna": 19, "Bert": 31, "Cilli": 20, "Dominik": 20}
    assert b["next_dealer"] == "Anna"
    actions = list(DealEvent.objects.values_list("action", "deal_number"))
    assert actions == [("create", 1), ("create", 2), ("delete", 1)]
    assert DealEvent.objects.get(action="delete").before["declarer"] is not None


def test_renaming_a_player_keeps_their_history(table, anna):
    record(table, anna, played("Anna", EVEN))
    player = table.group.players.get(name="Anna")
    rosters.player_rename(player=player, name="Anni")
    b = board(table)
    assert b["scores"]["Anni"] == 19 and "Anna" not in b["scores"]


def test_a_duplicate_name_on_the_roster_is_refused_whatever_its_case(anna):
    group = group_with(anna)
    rosters.player_add(group=group, name="Sepp")
    with pytest.raises(services.InputError):
        rosters.player_add(group=group, name="sepp")


def test_a_game_ends_and_the_next_deal_starts_the_next_game(anna):
    session = session_at(group_with(anna), anna, overrides={
        "start_score": 2, "no_bid_at_or_below": None, "must_play_at_or_below": None,
        "no_exchange_at_or_below": None})
    record(session, anna, played("Anna", EVEN))
    b = board(session)
    assert b["game_over"] is True and b["winners"] == ["Anna"]
    assert b["games"][0]["final_scores"]["Anna"] == 0
    record(session, anna, played("Bert", EVEN))
    b = board(session)
    assert b["game_number"] == 2
    # game 2 started from 2 again: Anna's two tricks take her to 0, Bert fell (+10)
    assert b["scores"] == {"Anna": 0, "Bert": 12, "Cilli": 1, "Dominik": 1}
    assert [g["number"] for g in b["games"]] == [1, 2]


# --- replay equals incremental, whatever the corrections --------------------------------

ACTIONS = st.lists(
    st.tuples(st.sampled_from(["record", "record", "record", "correct", "delete"]),
              st.integers(0, 10_000), st.integers(0, 10_000)),
    min_size=1, max_size=14,
)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ACTIONS)
def test_any_history_of_corrections_scores_like_a_fresh_replay(anna, actions):
    session = session_at(group_with(anna, name="prop"), anna)
    apply_actions(session, anna, actions, lambda seed: deal_from_seed(seed, SEATS),
                  refusals_ok=True)
    assert_scores_like_a_fresh_replay(session, "salzburg")


def test_a_failure_halfway_through_a_write_leaves_no_trace(table, anna, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    # after the rows were written, before the commit (scorepad.dealwrite)
    monkeypatch.setattr(versions, "publish_version", broken)
    with pytest.raises(RuntimeError):
        record(table, anna, played("Anna", EVEN))
    table.refresh_from_db()
    assert Deal.objects.count() == 0
    assert DealEvent.objects.count() == 0
    assert table.version == 0 and table.state["deals"] == 0


def test_a_player_at_home_in_a_muli_carries_the_others_amount_on_the_scoreboard(anna):
    session = session_at(group_with(anna, name="Muli daheim"), anna,
                         overrides={"muli_all_play": False},
                         seats=["Anna", "Bert", "Cilli"], dealer="Cilli")
    record(session, anna, played("Bert", {"Anna": 0, "Bert": 5}, bid=5,
                                 stayed_home=["Cilli"]))
    assert board(session)["scores"] == {"Anna": 31, "Bert": 11, "Cilli": 31}
