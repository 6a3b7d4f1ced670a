"""Finished games have rows of their own (FinishedGame): the running state lists only the
most recent ones, so that a deal reads and writes the same few hundred bytes however long
the evening. Sessions stored before keep every game (migration 0007)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from scorepad import services
from scorepad.games import mulatschak
from scorepad.models import FinishedGame, Session

from .factories import (
    SEATS,
    assert_scores_like_a_fresh_replay,
    group_with,
    played,
    record,
    session_at,
)

pytestmark = pytest.mark.django_db

migration = importlib.import_module("scorepad.migrations.0007_finished_games")

#: Games end after a deal or two: no bids forbidden near zero.
SHORT = {"start_score": 2, "no_bid_at_or_below": None, "must_play_at_or_below": None,
         "no_exchange_at_or_below": None}


def short_evening(anna, deals: int) -> Session:
    session = session_at(group_with(anna), anna, overrides=SHORT)
    for i in range(deals):
        declarer = SEATS[i % 4]
        record(session, anna, played(declarer, {p: 2 if p == declarer else 1 for p in SEATS}))
    session.refresh_from_db()
    return session


def test_the_deal_that_ends_a_game_writes_its_row(anna):
    session = short_evening(anna, 1)
    last = session.deals.get()
    assert last.result["game_over"]
    assert list(session.finished_games.values_list("summary", flat=True)) == [
        {"number": 1, "final_scores": last.result["scores_after"],
         "winners": last.result["winners"]}]
    assert (session.state["games_total"], len(session.state["games"])) == (1, 1)


def test_the_state_keeps_the_most_recent_games_and_counts_them_all(anna):
    session = short_evening(anna, 2 * services.GAMES_PER_PAGE + 5)
    everything = list(session.finished_games.values_list("summary", flat=True))
    assert len(everything) > services.GAMES_PER_PAGE
    assert session.state["games_total"] == len(everything)
    assert session.state["games"] == everything[-services.GAMES_PER_PAGE:]
    assert_scores_like_a_fresh_replay(session, "salzburg")


def test_a_correction_that_moves_a_games_end_rewrites_the_rows(anna):
    session = short_evening(anna, 3)
    assert session.finished_games.count() == 3
    names = services.Names.of(session)
    services.deal_correct(session=session, user=anna, number=1,
                          data=names.deal_ids({"kind": "passed"}))
    assert_scores_like_a_fresh_replay(session, "salzburg")
    assert session.finished_games.count() == 2
    services.deal_delete(session=session, user=anna, number=2)
    assert_scores_like_a_fresh_replay(session, "salzburg")


def test_the_money_counts_every_game_not_only_those_the_state_lists(anna):
    session = session_at(group_with(anna), anna, overrides=SHORT)
    Session.objects.filter(pk=session.pk).update(stake="0.10", currency="EUR")
    session.refresh_from_db()
    for i in range(services.GAMES_PER_PAGE + 3):
        declarer = SEATS[i % 4]
        record(session, anna, played(declarer, {p: 2 if p == declarer else 1 for p in SEATS}))
    session.refresh_from_db()
    everything = list(session.finished_games.values_list("summary", flat=True))
    assert len(everything) > len(session.state["games"])
    from referee import tally
    from scorepad.games.base import stake_of

    payments = [p for g in everything
                for p in tally.game_payments(g["final_scores"], g["winners"],
                                             stake_of(session), "EUR")]
    expected = tally.balances_of(payments, services.Names.of(session).seats, "EUR")
    assert mulatschak.money(session, services.Names.of(session).seats).balances == expected
    assert services.settlement(session)["games"] == len(everything)


def old_style(session: Session) -> dict:
    """The session's state as stored before 0007: every finished game listed."""
    everything = list(session.finished_games.values_list("summary", flat=True))
    state = {k: v for k, v in session.state.items() if k != "games_total"}
    return {**state, "games": everything}


def test_the_migration_moves_every_listed_game_into_rows_and_back(anna):
    session = short_evening(anna, services.GAMES_PER_PAGE + 4)
    now, rows = session.state, list(session.finished_games.values_list("summary", flat=True))
    before = old_style(session)
    FinishedGame.objects.all().delete()
    Session.objects.filter(pk=session.pk).update(state=before)

    migration.games_to_rows(apps, None)
    session.refresh_from_db()
    assert session.state == now
    assert list(session.finished_games.values_list("summary", flat=True)) == rows
    migration.games_to_rows(apps, None)  # twice: nothing more
    assert session.finished_games.count() == len(rows)

    migration.rows_to_games(apps, None)
    session.refresh_from_db()
    assert session.state == before


def test_the_migration_leaves_other_games_alone(anna):
    """Müller Matz counts its games in the state; Mura keeps none."""
    session = short_evening(anna, 2)
    Session.objects.filter(pk=session.pk).update(game="muller_matz", state={"games": 3})
    migration.games_to_rows(apps, None)
    session.refresh_from_db()
    assert session.state == {"games": 3}
