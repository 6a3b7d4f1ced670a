"""Replaying stored sessions through the referee as it is now (manage.py
replay_sessions): figures the referee now works out differently are saved anew; a deal
it now refuses is named and nothing changes."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scorepad import services
from scorepad.errors import RulesBroken

from .factories import EVEN, group_with, played, record, session_at

pytestmark = pytest.mark.django_db


def muli_with_cilli_at_home(anna):
    session = session_at(group_with(anna, name="Muli daheim"), anna,
                         overrides={"muli_all_play": False},
                         seats=["Anna", "Bert", "Cilli"], dealer="Cilli")
    record(session, anna, played("Bert", {"Anna": 0, "Bert": 5}, bid=5,
                                 stayed_home=["Cilli"]))
    session.refresh_from_db()
    return session


def as_scored_before(session):
    """The session as the referee left it before players at home in a Muli counted
    among the others: Cilli +1 (the stay-home penalty) instead of +10."""
    cilli = services.Names.of(session).to_id("Cilli")
    row = session.deals.get(number=1)
    row.result = {**row.result, "deltas": {**row.result["deltas"], cilli: 1},
                  "scores_after": {**row.result["scores_after"], cilli: 22}}
    row.save(update_fields=["result"])
    state = {**session.state, "scores": {**session.state["scores"], cilli: 22}}
    type(session).objects.filter(pk=session.pk).update(state=state)
    session.refresh_from_db()


def test_a_replay_saves_the_figures_the_referee_now_works_out(anna):
    session = muli_with_cilli_at_home(anna)
    as_scored_before(session)
    assert services.scoreboard(session)["scores"]["Cilli"] == 22
    assert services.session_replay(session=session) is True
    session.refresh_from_db()
    assert services.scoreboard(session)["scores"] == {"Anna": 31, "Bert": 11, "Cilli": 31}
    cilli = services.Names.of(session).to_id("Cilli")
    assert session.deals.get(number=1).result["deltas"][cilli] == 10


def test_a_session_the_referee_agrees_with_is_left_alone(anna, table):
    record(table, anna, played("Anna", EVEN))
    table.refresh_from_db()
    version = table.version
    assert services.session_replay(session=table) is False
    table.refresh_from_db()
    assert table.version == version


def test_a_stored_deal_the_referee_now_refuses_is_named_and_nothing_changes(anna, table):
    record(table, anna, played("Anna", {"Anna": 3, "Cilli": 1, "Dominik": 1},
                               stayed_home=["Bert"]))
    names = services.Names.of(table)
    row = table.deals.get(number=1)  # an old record: a 0 for Bert, who stayed home
    row.data = {**row.data, "tricks": {**row.data["tricks"], names.to_id("Bert"): 0}}
    row.save(update_fields=["data"])
    table.refresh_from_db()
    with pytest.raises(RulesBroken) as e:
        services.session_replay(session=table)
    assert e.value.number == 1
    assert [v.code for v in e.value.violations] == ["tricks_for_absent"]


def test_the_command_replays_every_session_and_says_what_it_did(anna, table):
    muli = muli_with_cilli_at_home(anna)
    as_scored_before(muli)
    out = io.StringIO()
    call_command("replay_sessions", stdout=out)
    assert f"session {muli.pk}: replayed, figures changed" in out.getvalue()
    assert "1 sessions changed, 0 with a refused deal" in out.getvalue()
    muli.refresh_from_db()
    assert services.scoreboard(muli)["scores"]["Cilli"] == 31
