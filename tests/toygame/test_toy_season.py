"""A season of the toy game (docs/tournaments.md, "Seasons"): its evenings placed by the
toy's own ``evening_places``, through the game protocol alone; a game without it is told
what it lacks."""

from __future__ import annotations

import types
from decimal import Decimal
from typing import Any

import pytest

from scorepad import games, services
from scorepad.models import Session
from scorepad.seasons import services as seasons
from scorepad.seasons import standings
from tests.gamesetting import with_games
from tests.scorepad.factories import group_with, user
from tests.scorepad.test_layers import protocol_gaps

pytestmark = pytest.mark.django_db

TOY = "tests.toygame"
NAME = "high_card"


@pytest.fixture
def toy() -> Any:
    with with_games(TOY):
        yield games.get(NAME)


def test_a_toy_season_places_its_evenings_by_the_toys_own_rule(toy):
    anna = user("anna")
    club = group_with(anna, "Kartenrunde")
    season = seasons.season_create(club, anna, {
        "name": "High Card 2026", "game": NAME, "start": "2026-01-01", "end": "2026-12-31",
        "events": "evenings", "cup_points": [10, 6, 3]})
    session = services.session_start(group=club, user=anna, preset=None, overrides=None,
                                     seats=["Anna", "Bert", "Cilli"], game=NAME)
    services.session_describe(session=session, date="2026-05-01")
    names = services.Names.of(session)
    for winners in (["Anna"], ["Bert"], ["Anna"]):
        services.deal_record(session=session, user=anna,
                             data=names.deal_ids({"winners": winners}))
    services.session_set_status(session=session, status=Session.Status.CLOSED)
    lines = standings(season)["standings"]
    # Anna 2 points, Bert 1, Cilli 0: the most first
    assert [(line["name"], line["place"], line["points"]) for line in lines] == [
        ("Anna", 1, Decimal("10.00")), ("Bert", 2, Decimal("6.00")),
        ("Cilli", 3, Decimal("3.00"))]


def test_a_game_without_evening_places_is_told_it_lacks_them(toy):
    lacking = types.ModuleType(toy.__name__)
    lacking.__file__ = toy.__file__
    for name in dir(toy):
        if name != "evening_places":
            setattr(lacking, name, getattr(toy, name))
    gaps = protocol_gaps(lacking)
    assert "missing evening_places" in gaps
