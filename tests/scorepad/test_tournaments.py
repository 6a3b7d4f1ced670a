"""A tournament's use cases (scorepad.tournaments.services): registering, drawing rounds
of 13 and 16 players, tables that finish, closing (and forcing) a round, withdrawing and
arriving late, corrections in a closed round that move the ranking, and a Mura tournament
over deals_per_round. Every figure is compared to one computed here by hand."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations

import pytest

from scorepad import rosters, services
from scorepad.errors import Conflict, InputError, RulesBroken
from scorepad.models import Session, Tournament
from scorepad.tournaments import services as tour

from .factories import group_with
from .tournament_play import drawn, finish_game, mura_deal, record, seats, sweep, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def group(anna):
    return group_with(anna)


def _tables(the_round):
    return list(the_round.tables.select_related("session").order_by("number"))


def _finish_all(the_round, who):
    for table in _tables(the_round):
        finish_game(table.session, who, seats(table.session)[0])


def test_players_get_start_numbers_in_order(group, anna):
    t = tournament(group, anna, players=3)
    assert [p["number"] for p in tour.players_of(t)] == [1, 2, 3]
    assert [p["name"] for p in tour.players_of(t)] == ["Anna", "Bert", "Cilli"]


def test_a_name_registered_twice_is_refused_naming_name(group, anna):
    t = tournament(group, anna, players=2)
    with pytest.raises(InputError) as e:
        tour.entrant_register(tournament=t, name="  anna ")
    assert e.value.field == "name"


def test_sixteen_players_sit_at_four_tables_of_four_and_meet_nobody_twice_in_round_two(
        group, anna):
    t = tournament(group, anna, players=16)
    first = drawn(t, anna)
    assert [len(seats(x.session)) for x in _tables(first)] == [4, 4, 4, 4]
    _finish_all(first, anna)
    tour.round_close(tournament=t, number=1)
    second = drawn(t, anna, seed=2)
    met = {frozenset(p) for x in _tables(first) for p in combinations(seats(x.session), 2)}
    again = {frozenset(p) for x in _tables(second) for p in combinations(seats(x.session), 2)}
    assert met & again == set()
    everybody = sorted(n for x in _tables(second) for n in seats(x.session))
    assert everybody == sorted(p["name"] for p in tour.players_of(t))


def test_thirteen_players_sit_at_tables_of_five_four_and_four(group, anna):
    t = tournament(group, anna, players=13)
    first = drawn(t, anna)
    assert [len(seats(x.session)) for x in _tables(first)] == [5, 4, 4]
    t.refresh_from_db()
    assert t.status == Tournament.Status.PLAYING


def test_each_table_is_a_session_with_the_tournaments_rules_and_a_drawn_dealer(group, anna):
    t = tournament(group, anna, players=8)
    for table in _tables(drawn(t, anna)):
        session = table.session
        assert session.game == t.game and session.rules == t.rules
        assert session.first_dealer.name in seats(session)
        assert len(table.code) >= 43


def test_a_round_cannot_be_drawn_while_one_is_open_or_all_are_drawn(group, anna):
    t = tournament(group, anna, players=4, rounds=1)
    first = drawn(t, anna)
    with pytest.raises(Conflict):
        drawn(t, anna)
    _finish_all(first, anna)
    tour.round_close(tournament=t, number=1)
    with pytest.raises(Conflict):
        drawn(t, anna)


def test_registering_closes_when_the_last_round_is_drawn(group, anna):
    t = tournament(group, anna, players=4, rounds=2)
    first = drawn(t, anna)
    tour.entrant_register(tournament=t, name="Erna")  # late, but round 2 is to come
    _finish_all(first, anna)
    tour.round_close(tournament=t, number=1)
    drawn(t, anna)
    with pytest.raises(Conflict) as e:
        tour.entrant_register(tournament=t, name="Franz")
    assert e.value.reason == "registration_closed"


def test_a_finished_table_refuses_further_deals_with_table_finished(group, anna):
    t = tournament(group, anna, players=4)
    session = _tables(drawn(t, anna))[0].session
    finish_game(session, anna, seats(session)[1])
    with pytest.raises(RulesBroken) as e:
        record(session, anna, sweep(session, seats(session)[1]))
    assert [v.code for v in e.value.violations] == ["table_finished"]


def test_an_ordinary_session_plays_on_after_its_game(group, anna):
    session = services.session_start(group=group, user=anna, preset="geiser",
                                     seats=["Anna", "Bert", "Cilli", "Dominik"])
    finish_game(session, anna, "Anna")
    record(session, anna, sweep(session, "Bert"))
    assert session.deals.count() == 3


def test_a_round_with_an_unfinished_table_closes_only_by_force(group, anna):
    t = tournament(group, anna, players=8)
    first = drawn(t, anna)
    one, two = _tables(first)
    finish_game(one.session, anna, seats(one.session)[0])
    record(two.session, anna, sweep(two.session, seats(two.session)[2]))
    with pytest.raises(tour.TablesUnfinished) as e:
        tour.round_close(tournament=t, number=1)
    assert e.value.tables == [2]
    closed = tour.round_close(tournament=t, number=1, force=True)
    assert closed.forced
    two.refresh_from_db()
    # the forced table stands as it is: after one deal, 15 − 5 and 15 − 25 (Geiser)
    names = {str(k): v for k, v in services.Names.of(two.session).by_id.items()}
    scores = {names[p]: F(v) for p, v in two.result["scores"].items()}
    winner = seats(two.session)[2]
    assert scores == {n: F(10) if n == winner else F(-10) for n in seats(two.session)}
    assert two.result["finished"] is False
    two.session.refresh_from_db()
    assert two.session.status == Session.Status.CLOSED


def _expected_placement(tables):
    """Each player's points by hand: one winner (3), the others share places 2..n."""
    out = {}
    for winner, others in tables:
        n = len(others) + 1
        out[winner] = out.get(winner, F(0)) + 3
        shared = sum(F(3 * (n - k), n - 1) for k in range(2, n + 1)) / (n - 1)
        for o in others:
            out[o] = out.get(o, F(0)) + shared
    return out


def test_the_ranking_follows_the_closed_rounds_and_a_correction_moves_it(group, anna):
    t = tournament(group, anna, players=8)
    first = drawn(t, anna)
    plan = []
    for table in _tables(first):
        names = seats(table.session)
        finish_game(table.session, anna, names[1])
        plan.append((names[1], names[:1] + names[2:]))
    assert tour.ranking_json(t)["rounds_closed"] == 0
    tour.round_close(tournament=t, number=1)
    answer = tour.ranking_json(t)
    expected = _expected_placement(plan)
    got = {line["name"]: line["points"] for line in answer["ranking"]}
    assert got == {n: f"{float(v):.2f}" for n, v in expected.items()}
    # winners share place 1 (3 points, score 15 − (−5) = 20, one win)
    assert [line["place"] for line in answer["ranking"]] == [1, 1, 3, 3, 3, 3, 3, 3]
    assert answer["ranking"][0]["score"] == "20.00" and answer["ranking"][0]["wins"] == 1
    # the director corrects table 1's second deal: another player sweeps it, the game
    # does not end there... the first deal's winner has 5, the other 25 -> table unfinished
    table = _tables(first)[0]
    names = seats(table.session)
    version = Tournament.objects.get(pk=t.pk).version
    services.deal_correct(session=table.session, user=anna, number=2,
                          data=services.Names.of(table.session).deal_ids(
                              sweep(table.session, names[2])))
    assert Tournament.objects.get(pk=t.pk).version == version + 1
    after = {line["name"]: line for line in tour.ranking_json(t)["ranking"]}
    # table 1 as it stands: names[1] 5 -> +10 … everybody's score after two deals
    # deal 1: names[1] 5, others 25; deal 2: names[2] declares and sweeps: names[2] 15,
    # the others +10: names[1] 15, others 35 -> scores 0, 0, -20, -20 (names 1 and 2 share 1)
    assert after[names[1]]["score"] == "0.00" and after[names[2]]["score"] == "0.00"
    assert after[names[1]]["points"] == "2.50" and after[names[0]]["points"] == "0.50"


def test_a_withdrawn_player_keeps_their_results_and_is_not_drawn_again(group, anna):
    t = tournament(group, anna, players=9, rounds=3)
    first = drawn(t, anna)
    _finish_all(first, anna)
    tour.round_close(tournament=t, number=1)
    tour.entrant_withdraw(tournament=t, name="Anna")
    tour.entrant_register(tournament=t, name="Ida2")  # a late arrival
    second = drawn(t, anna, seed=3)
    sat = {n for x in _tables(second) for n in seats(x.session)}
    assert "Anna" not in sat and "Ida2" in sat
    lines = {line["name"]: line for line in tour.ranking_json(t)["ranking"]}
    assert len(lines["Anna"]["rounds"]) == 1 and lines["Ida2"]["rounds"] == []
    assert [p for p in tour.players_of(t) if p["name"] == "Anna"][0]["withdrawn"] is True


def test_a_closed_round_keeps_its_tables_closed(group, anna):
    t = tournament(group, anna, players=4)
    first = drawn(t, anna)
    _finish_all(first, anna)
    tour.round_close(tournament=t, number=1)
    session = _tables(first)[0].session
    with pytest.raises(Conflict):
        services.session_set_status(session=session, status="open")
    with pytest.raises(Conflict):
        tour.round_close(tournament=t, number=1)


def test_a_mura_tournament_ends_each_table_after_deals_per_round(group, anna):
    game = [g for g in services.games.for_tournaments()
            if not services.games.get(g).TOURNAMENT.ends_with_game][0]
    with pytest.raises(InputError) as e:
        tournament(group, anna, players=4, game=game, preset=None)
    assert e.value.field == "round_ends"
    t = tournament(group, anna, players=8, game=game, preset=None, round_ends="deals",
                   deals_per_round=2, scoring="score")
    first = drawn(t, anna)
    expected = {}
    for table in _tables(first):
        names = seats(table.session)
        figures = dict.fromkeys(names, 4)
        figures[names[0]], figures[names[3]] = 6, 2  # 16 figures; names[3]: two mura
        record(table.session, anna, mura_deal(table.session, figures))
        with pytest.raises(tour.TablesUnfinished):
            tour.round_close(tournament=t, number=1)
        record(table.session, anna, mura_deal(table.session, figures))
        with pytest.raises(RulesBroken) as refused:
            record(table.session, anna, mura_deal(table.session, figures))
        assert refused.value.violations[0].code == "table_finished"
        expected |= {n: F(-4) if n == names[3] else F(0) for n in names}
    tour.round_close(tournament=t, number=1)
    lines = {line["name"]: line for line in tour.ranking_json(t)["ranking"]}
    assert {n: lines[n]["points"] for n in expected} == {
        n: f"{float(v):.2f}" for n, v in expected.items()}
    assert {n: lines[n]["rounds"][0]["place"] for n in expected} == {
        n: 4 if v else 1 for n, v in expected.items()}


def test_the_swiss_draw_seats_the_winners_of_round_one_together(group, anna):
    t = tournament(group, anna, players=8, draw="swiss")
    first = drawn(t, anna)
    winners = []
    for table in _tables(first):
        names = seats(table.session)
        finish_game(table.session, anna, names[0])
        winners.append(names[0])
    tour.round_close(tournament=t, number=1)
    second = drawn(t, anna, seed=9)
    assert set(winners) <= set(seats(_tables(second)[0].session))


def test_the_tournament_ends_once_no_round_is_open(group, anna):
    t = tournament(group, anna, players=4)
    first = drawn(t, anna)
    with pytest.raises(Conflict):
        tour.tournament_change(tournament=t, status="finished")
    _finish_all(first, anna)
    tour.round_close(tournament=t, number=1)
    done = tour.tournament_change(tournament=t, status="finished", screen_hides_rounds=1)
    assert done.status == "finished" and done.screen_hides_rounds == 1
    assert tour.ranking_json(done, hide=1)["rounds_closed"] == 0
    with pytest.raises(Conflict):
        tour.entrant_register(tournament=done, name="Zora")


def test_renaming_a_player_moves_the_rankings_version(group, anna):
    t = tournament(group, anna, players=4)
    version = Tournament.objects.get(pk=t.pk).version
    rosters.player_rename(player=group.players.get(name="Bert"), name="Berti")
    assert Tournament.objects.get(pk=t.pk).version == version + 1
    assert [p["name"] for p in tour.players_of(t)][1] == "Berti"
