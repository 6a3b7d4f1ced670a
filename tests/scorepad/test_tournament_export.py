"""A tournament goes along in the group's export and import and in the instance backup:
its players, rounds and tables (on the imported sessions), and the same ranking."""

from __future__ import annotations

import json

import pytest

from scorepad import import_export
from scorepad.models import Tournament
from scorepad.tournaments import services as tour

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
    data = json.loads(json.dumps(import_export.group_export(group)))
    assert [x["name"] for x in data["group"]["tournaments"]] == ["Preisschnapsen"]
    target = group_with(anna, "Elsewhere")
    import_export.group_import(group=target, data=data)
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
    data = json.loads(json.dumps(import_export.backup_export()))
    ranking = tour.ranking_json(t)
    import_export.backup_restore(data=data, merge=True)  # the group again, beside it
    again = Tournament.objects.exclude(pk=t.pk).get()
    assert again.group_id != group.pk and again.uid == t.uid
    assert tour.ranking_json(again) == ranking
