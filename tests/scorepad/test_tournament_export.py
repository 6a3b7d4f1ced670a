"""A tournament goes along in the group's export and import and in the instance backup:
its players, rounds and tables (on the imported sessions), and the same ranking."""

from __future__ import annotations

import json

import pytest

from scorepad import rosters
from scorepad.models import Tournament, TournamentTable
from scorepad.tournaments import services as tour
from scorepad.transfer import backups, exporting, importing

from .factories import group_with, user
from .tournament_play import drawn, finish_game, seats, tournament

pytestmark = pytest.mark.django_db


def _evening(anna):
    group = group_with(anna)
    t = tournament(group, anna, players=8, rounds=3)
    first = drawn(t, anna)
    for table in first.tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[1])
    tour.round_close(tournament=t, number=1)
    tour.entrant_withdraw(tournament=t, name="Cilli")
    drawn(t, anna, seed=4)
    return group, t


def test_the_group_file_carries_the_tournament_and_its_ranking():
    anna = user("anna")
    group, t = _evening(anna)
    data = json.loads(json.dumps(exporting.group_export(group)))
    assert [x["name"] for x in data["group"]["tournaments"]] == ["Preisschnapsen"]
    target = group_with(anna, "Elsewhere")
    importing.group_import(group=target, data=data)
    copy = Tournament.objects.get(group=target)
    assert copy.uid == t.uid and copy.screen_token != t.screen_token
    assert tour.ranking_json(copy) == tour.ranking_json(t)
    assert tour.players_of(copy) == tour.players_of(t)
    assert [r.status for r in copy.round_set.order_by("number")] == ["closed", "open"]
    tables = copy.round_set.get(number=2).tables.select_related("session")
    assert all(x.session.group_id == target.pk for x in tables)
    assert {x.code for x in tables}.isdisjoint(
        {x.code for x in t.round_set.get(number=2).tables.all()})


def test_the_backup_restores_the_tournament():
    anna = user("anna")
    group, t = _evening(anna)
    data = json.loads(json.dumps(backups.backup_export()))
    ranking = tour.ranking_json(t)
    backups.backup_restore(data=data, merge=True)  # the group again, beside it
    again = Tournament.objects.exclude(pk=t.pk).get()
    assert again.group_id != group.pk and again.uid == t.uid
    assert tour.ranking_json(again) == ranking


def test_a_result_entered_from_a_score_slip_goes_along_by_player_name():
    anna = user("anna")
    group = group_with(anna)
    t = tournament(group, anna, players=8, rounds=2)
    first = drawn(t, anna)
    one = first.tables.get(number=1).session
    finish_game(one, anna, seats(one)[0])
    paper = first.tables.get(number=2)
    ids = [str(p) for p in paper.session.seats.order_by("position")
           .values_list("player_id", flat=True)]
    tour.table_result_enter(tournament=t, round_number=1, table_number=2, user=anna,
                            figures={"scores_after": dict(zip(ids, [3, -2, 15, 9],
                                                              strict=True))})
    tour.round_close(tournament=t, number=1)
    data = json.loads(json.dumps(exporting.group_export(group)))
    slip = data["group"]["tournaments"][0]["round_list"][0]["tables"][1]["slip"]
    names = dict(paper.session.seats.values_list("player_id", "player__name"))
    assert slip["by"] == "anna" and set(slip["figures"]["scores_after"]) == {
        names[int(p)] for p in ids}
    target = group_with(anna, "Elsewhere")
    importing.group_import(group=target, data=data)
    copy = Tournament.objects.get(group=target)
    assert tour.ranking_json(copy) == tour.ranking_json(t)
    kept = copy.round_set.get(number=1).tables.get(number=2).result
    assert kept["slip"]["by_name"] == "anna" and kept["finished"]


def _formats_evening(anna):
    """Every format at once: combined points, tie-breaks with a lot, a final, confirmed
    results, fees and prizes, a category, a date; round 1 and the final closed."""
    group = group_with(anna)
    t = tournament(group, anna, players=8, rounds=1, scoring="combined",
                   rank_points=[60, 40, 20.5, 0], tiebreaks=["best_round", "lot"],
                   final_tables=1, confirm_results=True, date="2026-12-05",
                   entry_fee="5.00", currency="EUR",
                   prizes=[{"place": 1, "percent": 50}, {"place": 2, "amount": "10.00"},
                           {"place": 3, "item": "Geschenkkorb"}])
    for name in ("Anna", "Bert", "Cilli"):
        tour.entrant_change(tournament=t, name=name, paid=True,
                            category="Damen" if name != "Bert" else rosters.UNCHANGED)
    for number in (1, 2):
        the_round = drawn(t, anna, seed=number)
        for table in the_round.tables.select_related("session"):
            finish_game(table.session, anna, seats(table.session)[1])
            tour.table_confirm(session_id=table.session_id, player=seats(table.session)[0])
        tour.round_close(tournament=t, number=number)
    tour.tournament_change(tournament=t, status="finished")
    t.refresh_from_db()
    return group, t


FORMATS = ("scoring", "rank_points", "tiebreaks", "final_tables", "confirm_results", "date",
           "entry_fee", "currency", "prizes")


def _same_tournament(copy, t):
    assert [getattr(copy, f) for f in FORMATS] == [getattr(t, f) for f in FORMATS]
    assert tour.ranking_json(copy) == tour.ranking_json(t)
    assert tour.ranking_json(copy, category="damen") == tour.ranking_json(t, category="damen")
    assert tour.prizes_json(copy) == tour.prizes_json(t)
    assert tour.players_of(copy) == tour.players_of(t)
    assert [r.final for r in copy.round_set.order_by("number")] == [False, True]
    assert [(x.confirmed_by, x.confirmed_at) for x in TournamentTable.objects.filter(
        round__tournament=copy).order_by("round__number", "number")] == [
        (x.confirmed_by, x.confirmed_at) for x in TournamentTable.objects.filter(
            round__tournament=t).order_by("round__number", "number")]


def test_the_group_file_keeps_every_format_the_final_and_the_categories():
    anna = user("anna")
    group, t = _formats_evening(anna)
    assert {line["final_table"] for line in tour.ranking_json(t)["ranking"]} == {1, None}
    data = json.loads(json.dumps(exporting.group_export(group)))
    target = group_with(anna, "Elsewhere")
    importing.group_import(group=target, data=data)
    _same_tournament(Tournament.objects.get(group=target), t)
    assert sorted(target.players.exclude(category="").values_list("name", flat=True)) == [
        "Anna", "Cilli"]


def test_the_backup_keeps_every_format_the_final_and_the_categories():
    anna = user("anna")
    group, t = _formats_evening(anna)
    data = json.loads(json.dumps(backups.backup_export()))
    backups.backup_restore(data=data, merge=True)
    _same_tournament(Tournament.objects.exclude(pk=t.pk).get(), t)


def test_an_older_file_without_formats_makes_a_tournament_with_the_defaults():
    anna = user("anna")
    group, t = _evening(anna)
    data = json.loads(json.dumps(exporting.group_export(group)))
    body = data["group"]["tournaments"][0]
    for field in ("date", "rank_points", "tiebreaks", "final_tables", "confirm_results",
                  "entry_fee", "prizes"):
        body.pop(field)
    for player in body["players"]:
        player.pop("paid"), player.pop("lot")
    data["group"].pop("categories")
    target = group_with(anna, "Elsewhere")
    importing.group_import(group=target, data=data)
    copy = Tournament.objects.get(group=target)
    assert (copy.tiebreaks, copy.final_tables, copy.prizes) == (["score", "wins"], 0, [])
    assert tour.ranking_json(copy) == tour.ranking_json(t)
