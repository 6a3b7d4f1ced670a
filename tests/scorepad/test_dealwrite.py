"""Every deal is written through scorepad.dealwrite: its locking read is a value of its own,
its columns are the models' own, and it refuses with domain errors, never HTTP ones."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scorepad import dealwrite, services
from scorepad.models import Deal, DealEvent, FinishedGame

from .factories import EVEN, SEATS, group_with, member, played, record, session_at, user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_the_locking_read_brings_the_seats_the_last_number_and_the_role(table, anna):
    with transaction.atomic():
        before = dealwrite.lock(table.pk, anna)
    assert before.session.pk == table.pk and before.session.version == 0
    assert [before.names.to_name(p) for p in before.names.seats] == SEATS
    assert (before.last_number, before.next_number, before.role) == (None, 1, "owner")
    record(table, anna, played("Anna", EVEN))
    with transaction.atomic():
        after = dealwrite.lock(table.pk)
    assert (after.last_number, after.next_number, after.role) == (1, 2, None)
    assert after.session.version == 1


def test_the_locked_session_is_a_value_and_nothing_is_bolted_onto_the_row(table, anna):
    with transaction.atomic():
        locked = dealwrite.lock(table.pk, anna)
    with pytest.raises(dataclasses.FrozenInstanceError):
        locked.last_number = 7  # type: ignore[misc]
    for extra in ("seat_names", "last_number", "asker_role"):
        assert not hasattr(locked.session, extra)


def test_recording_in_a_session_that_is_not_there_is_not_found(anna):
    with pytest.raises(services.NotFound):
        services.deal_record(session=10**9, user=anna, data={"kind": "passed"})


def test_a_non_member_learns_nothing_and_a_viewer_may_not_record(table, anna):
    bert, cilli = user("bert"), user("cilli")
    member(table.group, cilli, "viewer")
    with pytest.raises(services.NotFound):
        services.deal_record(session=table.pk, user=bert, data={"kind": "passed"})
    with pytest.raises(PermissionDenied):
        services.deal_record(session=table.pk, user=cilli, data={"kind": "passed"})
    assert not Deal.objects.exists()


def inserted_columns(sql: str, model: type) -> set[str]:
    table = connection.ops.quote_name(model._meta.db_table)
    found = re.findall(rf"INSERT INTO {re.escape(table)} \(([^)]*)\)", sql)
    assert len(found) == 1, f"one insert into {table}"
    return {name.strip().strip('"') for name in found[0].split(",")}


def test_a_deal_its_history_row_and_its_game_are_written_with_every_column_of_their_model(
        anna):
    session = session_at(group_with(anna), anna, overrides={
        "start_score": 2, "no_bid_at_or_below": None, "must_play_at_or_below": None,
        "no_exchange_at_or_below": None})  # the first deal ends a game
    with CaptureQueriesContext(connection) as queries:
        record(session, anna, played("Anna", EVEN))
    sql = "\n".join(q["sql"] for q in queries.captured_queries)
    for model in (Deal, DealEvent, FinishedGame):
        columns = {f.column for f in model._meta.concrete_fields if not f.primary_key}
        assert inserted_columns(sql, model) == columns, model.__name__
    deal, event = Deal.objects.get(), DealEvent.objects.get()
    assert deal.created_at == deal.updated_at == event.at and deal.version == 1
    assert (event.action, event.before, event.after) == ("create", None, deal.data)
    assert (event.user, event.imported, event.imported_user) == (anna, False, "")
    assert FinishedGame.objects.get().number == 1


@pytest.mark.parametrize("module", ["services", "rosters", "sharing", "dealwrite"])
def test_the_use_cases_and_the_deal_write_refuse_without_http(module):
    tree = ast.parse((ROOT / "scorepad" / f"{module}.py").read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    assert not {m for m in modules if m and m.startswith("django.http")}
    assert "Http404" not in {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
