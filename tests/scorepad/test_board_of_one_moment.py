"""A scoreboard is of one moment: the next deal's number and the running state it shows
(and gives the phone's scorer, ``data-scorer``) are read together. Read one after the
other, a deal recorded in between (another phone's, or this phone's deals kept offline
being sent) was in the number and not in the state; a phone counting its waiting deals
from both left that deal out, and showed scores that were never true until the next
poll (seen in the browser test of three deals synced after being kept offline)."""

from __future__ import annotations

import json

import pytest

from scorepad import games, services
from scorepad.access import READ, session_for
from scorepad.loaded import Loaded
from scorepad.views.common import board_context

from .factories import group_with, played, record, session_at, user

pytestmark = pytest.mark.django_db

A, B, C, D = "Anna", "Bert", "Cilli", "Dominik"


@pytest.fixture
def table():
    anna = user("anna")
    session = session_at(group_with(anna), anna, overrides={"start_score": 8})
    return anna, session


def test_a_deal_recorded_after_the_row_was_read_is_in_both_the_number_and_the_scores(table):
    anna, session = table
    row = session_for(anna, session.pk, READ, without_state=True)   # as a poll reads it
    early = session_for(anna, session.pk, READ)                      # with its state
    record(session, anna, played(A, {A: 2, B: 1, C: 1, D: 1}))       # another phone, now
    for read in (row, early):
        board = services.scoreboard(Loaded.of(read))
        assert board["next_number"] == 2
        assert board["scores"] == {A: 6, B: 7, C: 7, D: 7}


def test_the_scorers_state_and_number_on_the_page_are_of_one_moment(table):
    anna, session = table
    loaded = Loaded.of(session_for(anna, session.pk, READ))
    record(session, anna, played(A, {A: 2, B: 1, C: 1, D: 1}))
    context = board_context(loaded, games.of(loaded.session), "/board")
    scorer = json.loads(context["scorer_state"]())
    fresh = Loaded.of(session_for(anna, session.pk, READ))
    assert scorer["number"] == 2
    assert scorer == json.loads(board_context(fresh, games.of(fresh.session),
                                              "/board")["scorer_state"]())


def test_the_scoreboards_version_is_of_the_same_moment_as_its_scores(table):
    anna, session = table
    for without_state in (True, False):
        read = session_for(anna, session.pk, READ, without_state=without_state)
        record(session, anna, played(A, {A: 2, B: 1, C: 1, D: 1}))  # after the row was read
        board = services.scoreboard(Loaded.of(read))
        session.refresh_from_db()
        assert board["version"] == session.version
        assert board["next_number"] == session.deals.count() + 1


def test_what_a_session_stands_at_is_one_statement_and_leaves_the_row_given_as_it_was(
        table, django_assert_num_queries):
    anna, session = table
    read = session_for(anna, session.pk, READ)
    before = (dict(read.state), read.version)
    record(session, anna, played(A, {A: 2, B: 1, C: 1, D: 1}))
    loaded = Loaded.of(read)
    with django_assert_num_queries(1):
        now = loaded.state
        assert loaded.state is now and loaded.next_number == 2
    session.refresh_from_db()
    assert (now.state, now.version) == (session.state, session.version)
    assert (loaded.session.state, loaded.session.version) == (now.state, now.version)
    assert (read.state, read.version) == before  # the caller's row: as it read it


def test_a_loaded_session_that_knows_its_last_deal_asks_nothing(table,
                                                                 django_assert_num_queries):
    anna, session = table
    record(session, anna, played(A, {A: 2, B: 1, C: 1, D: 1}))
    session.refresh_from_db()
    with django_assert_num_queries(0):
        now = Loaded(session, last_number=1).state
    assert (now.next_number, now.state, now.version) == (2, session.state, session.version)
