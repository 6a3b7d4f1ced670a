"""Mura and Müller Matz sessions: any history of corrections and deletions leaves the
same tally as replaying the final list of deals from scratch."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import games, services

from ..strength import examples
from .factories import apply_actions, group_with

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
#: Legal Mura deals as (tricks, figures), rotated over the seats by the seed.
MURA_DEALS = [([2, 3, 3, 0], [2, 9, 7, 0]), ([4, 2, 2, 0], [2, 8, 8, 0]),
              ([2, 2, 2, 2], [4, 4, 4, 4]), ([8, 0, 0, 0], [16, 0, 0, 0]),
              ([1, 3, 4, 0], [1, 8, 9, 0])]
ACTIONS = st.lists(st.tuples(st.sampled_from(["record", "record", "correct", "delete"]),
                             st.integers(0, 1000), st.integers(0, 1000)),
                   min_size=1, max_size=12)


def _data(game: str, seed: int) -> dict:
    if game == "muller_matz":
        return {"loser": SEATS[seed % 4]}
    tricks, figures = MURA_DEALS[seed % len(MURA_DEALS)]
    shift = seed % 4
    order = SEATS[shift:] + SEATS[:shift]
    return {"tricks": dict(zip(order, tricks, strict=True)),
            "figures": dict(zip(order, figures, strict=True))}


@pytest.mark.parametrize("game", ["mura", "muller_matz"])
@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_any_history_leaves_the_tally_of_a_fresh_replay(anna, game, actions):
    session = services.session_start(group=group_with(anna, name="prop"), user=anna,
                                     preset=game, overrides=None, seats=SEATS, game=game)
    apply_actions(session, anna, actions, lambda seed: _data(game, seed))
    session.refresh_from_db()
    game_rules = games.of(session)
    seats = services.Names.of(session).seats
    state = game_rules.start(session, seats)
    for row in session.deals.order_by("number"):
        result, state = game_rules.apply(session, seats, state, row.data)
        assert row.result == result
    assert session.state == state
