"""A season goes along in the group's export and import and in the instance backup: its
choices, and (its events coming along as sessions and tournaments) the same standings."""

from __future__ import annotations

import json

import pytest

from scorepad.models import Season
from scorepad.seasons import standings
from scorepad.transfer import backups, exporting, importing

from .factories import group_with, user
from .season_play import day, evening, finished_tournament, season

pytestmark = pytest.mark.django_db

CHOICES = ("name", "game", "start", "end", "events", "cup_points", "best_of", "min_events")


def _year(anna):
    group = group_with(anna)
    made = season(group, anna, cup_points=[10, 7.5, "5", 0], best_of=2, min_events=1)
    evening(group, anna, ["Anna", "Anna", "Bert"], at=day(1))
    evening(group, anna, ["Cilli"], at=day(2), then="Bert")
    finished_tournament(group, anna, ["Anna", "Erna"], at=day(3))
    return group, made


def _shown(body):
    """The standings without the ids, which are new in the copy."""
    return ([(e["kind"], e["date"], e["name"], e["players"]) for e in body["events"]],
            [{k: v for k, v in line.items() if k != "player"} for line in body["standings"]])


def _same(copy, made):
    assert {f: getattr(copy, f) for f in CHOICES} == {f: getattr(made, f) for f in CHOICES}
    assert copy.uid == made.uid
    assert _shown(standings(copy)) == _shown(standings(made))
    assert len(standings(copy)["events"]) == 3


def test_the_group_file_carries_the_season_and_the_same_standings():
    anna = user("anna")
    group, made = _year(anna)
    data = json.loads(json.dumps(exporting.group_export(group)))
    assert [s["name"] for s in data["group"]["seasons"]] == ["Jahreswertung 2026"]
    assert data["group"]["seasons"][0]["cup_points"] == [10, 7.5, 5, 0]
    target = group_with(anna, "Elsewhere")
    importing.group_import(group=target, data=data)
    _same(Season.objects.get(group=target), made)


def test_the_backup_restores_the_season():
    anna = user("anna")
    group, made = _year(anna)
    data = json.loads(json.dumps(backups.backup_export()))
    backups.backup_restore(data=data, merge=True)  # the group again, beside it
    copy = Season.objects.exclude(pk=made.pk).get()
    assert copy.group_id != group.pk
    _same(copy, made)


def test_a_wrong_season_in_a_file_is_refused_naming_its_field_and_nothing_is_made():
    anna = user("anna")
    group = group_with(anna)
    season(group, anna)
    data = json.loads(json.dumps(exporting.group_export(group)))
    data["group"]["seasons"][0]["end"] = "2025-01-01"
    target = group_with(anna, "Elsewhere")
    with pytest.raises(importing.ImportRejected) as refused:
        importing.group_import(group=target, data=data)
    assert [p.path for p in refused.value.problems] == ["group/seasons/0/end"]
    assert not Season.objects.filter(group=target).exists()


def test_an_older_file_without_seasons_imports_as_before():
    anna = user("anna")
    group = group_with(anna)
    evening(group, anna, ["Anna"])
    data = json.loads(json.dumps(exporting.group_export(group)))
    del data["group"]["seasons"]
    target = group_with(anna, "Elsewhere")
    assert importing.group_import(group=target, data=data)
    assert not Season.objects.filter(group=target).exists()
