"""Ratings across a season (docs/using.md, "Ratings across a season"; docs/rules.md,
"Ratings"): openskill's Bradley-Terry model (full pairing) over every finished game's
places, per group and game family, recomputed when a correction changes a finished game,
and the same whether served from the cache after each change or computed from nothing."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import BradleyTerryFull

from scorepad import ratings, services, stats
from scorepad.games import base
from scorepad.models import Session
from scorepad.transfer import exporting, importing

from ..strength import examples
from .factories import (
    EVEN,
    SEATS,
    deal_from_seed,
    group_with,
    member,
    phone_of,
    played,
    record,
    session_at,
    user,
)

pytestmark = pytest.mark.django_db

#: Short Mulatschak games: four points to go, nobody barred from bidding by a low score.
SHORT = {"start_score": 4, "no_bid_at_or_below": None, "must_play_at_or_below": None,
         "no_exchange_at_or_below": None}


def short_session(group: Any, who: Any, **kw: Any) -> Session:
    return session_at(group, who, overrides=SHORT, **kw)


def win_game(session: Session, who: Any, winner: str) -> None:
    """Deals that end a game with ``winner`` alone first (two tricks a deal, bid 2)."""
    session.refresh_from_db()
    while True:
        before = session.state.get("games_total", 0)
        rest = [p for p in SEATS if p != winner]
        record(session, who, played(winner, {winner: 2, rest[0]: 1, rest[1]: 1, rest[2]: 1}))
        session.refresh_from_db()
        if session.state.get("games_total", 0) > before:
            return


def rows(group: Any, game: str = "mulatschak", since: Any = None) -> list[dict[str, Any]]:
    found = ratings.group_ratings(group, game, since)
    return ratings.table(found, ratings.names_of(group))


def by_name(table: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["player"], r["rating"], r["games"], r["trend"], r["mu"], r["sigma"])
            for r in table]


# --- places ---------------------------------------------------------------------------------


def test_places_share_a_place_like_in_sport():
    assert base.places({"a": 3, "b": 1, "c": 3, "d": 7}) == {"a": 2, "b": 1, "c": 2, "d": 4}


def test_a_finished_mulatschak_game_places_its_winner_first_then_by_score(anna):
    session = short_session(group_with(anna), anna)
    win_game(session, anna, "Bert")
    record_ = stats.load(Session.objects.filter(pk=session.pk))[0]
    (placing,) = __import__("scorepad.games", fromlist=["get"]).get("mulatschak").placings(
        record_)
    names = services.Names.of(session)
    named = {names.to_name(p): place for p, place in placing.items()}
    assert named["Bert"] == 1 and sorted(named.values())[0] == 1
    assert set(named) == set(SEATS)


def test_an_unfinished_game_places_nobody(anna, table):
    record(table, anna, played("Anna", EVEN))
    assert rows(table.group) == []


def test_mura_rates_a_closed_session_by_penalty_points(anna):
    from .test_import_export import mura

    session = services.session_start(group=group_with(anna), user=anna, preset="mura",
                                     overrides=None, seats=SEATS, game="mura")
    names = services.Names.of(session)
    services.deal_record(session=session, user=anna, data=names.deal_ids(mura(0)))
    assert rows(session.group, "mura") == []  # still being played
    services.session_set_status(session=session, status="closed")
    table = rows(session.group, "mura")
    assert [r["games"] for r in table] == [1, 1, 1, 1]
    # mura(0): Anna 2 tricks 2 figures (mura 2), Dominik a zero, Bert and Cilli safe
    assert {r["player"] for r in table[:2]} == {"Bert", "Cilli"}
    assert table[-1]["player"] == "Anna"


def test_muller_matz_rates_each_game_by_its_finishing_order_or_its_loser(anna):
    session = services.session_start(group=group_with(anna), user=anna, preset="muller_matz",
                                     overrides=None, seats=SEATS, game="muller_matz")
    names = services.Names.of(session)
    services.deal_record(session=session, user=anna, data=names.deal_ids(
        {"finish_order": ["Cilli", "Anna", "Dominik", "Bert"]}))
    services.deal_record(session=session, user=anna, data=names.deal_ids({"loser": "Bert"}))
    table = rows(session.group, "muller_matz")
    assert table[0]["player"] == "Cilli" and table[-1]["player"] == "Bert"
    assert all(r["games"] == 2 for r in table)


# --- the model ------------------------------------------------------------------------------


def test_the_ratings_are_the_library_s_plackett_luce_over_the_places(anna):
    group = group_with(anna)
    session = short_session(group, anna)
    win_game(session, anna, "Cilli")
    win_game(session, anna, "Anna")
    model = BradleyTerryFull()
    players = {p: model.rating() for p in SEATS}
    names = services.Names.of(session)
    game = __import__("scorepad.games", fromlist=["get"]).get("mulatschak")
    for placing in game.placings(stats.load(Session.objects.filter(pk=session.pk))[0]):
        order = [names.to_name(p) for p in placing]
        new = model.rate([[players[n]] for n in order], ranks=list(placing.values()))
        players.update({n: team[0] for n, team in zip(order, new, strict=True)})
    expected = sorted(((n, round(r.ordinal(), 2)) for n, r in players.items()),
                      key=lambda x: -x[1])
    assert [(r["player"], r["rating"]) for r in rows(group)] == expected
    assert ratings.MODEL_NAME == "openskill BradleyTerryFull"


def test_a_winner_rises_and_the_trend_says_so(anna):
    group = group_with(anna)
    session = short_session(group, anna)
    for _ in range(3):
        win_game(session, anna, "Dominik")
    table = rows(group)
    assert table[0]["player"] == "Dominik"
    assert table[0]["rating"] > 0 and table[0]["trend"] == table[0]["rating"]
    assert table[0]["games"] == 3


def test_a_correction_that_changes_a_finished_game_changes_the_ratings(anna):
    group = group_with(anna)
    session = short_session(group, anna)
    win_game(session, anna, "Anna")
    before = rows(group)
    assert before[0]["player"] == "Anna"
    last = session.deals.order_by("-number").first()
    names = services.Names.of(session)
    services.deal_correct(session=session, user=anna, number=last.number, data=names.deal_ids(
        played("Anna", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}, bid=2)))
    session.refresh_from_db()
    after = rows(group)
    assert after != before
    assert after == ratings.table(ratings.group_ratings(group, "mulatschak", fresh=True),
                                  ratings.names_of(group))


def test_a_season_rates_only_its_sessions_from_a_fresh_start(anna):
    group = group_with(anna)
    old = short_session(group, anna)
    win_game(old, anna, "Bert")
    services.session_describe(session=old, date="2020-01-01")
    new = short_session(group, anna)
    win_game(new, anna, "Cilli")
    everything = rows(group)
    season = rows(group, since=datetime.date(2021, 1, 1))
    assert {r["games"] for r in everything} == {2}
    assert {r["games"] for r in season} == {1}
    assert season[0]["player"] == "Cilli"


def test_games_are_rated_in_the_order_of_the_sessions_dates(anna):
    group = group_with(anna)
    first = short_session(group, anna)
    win_game(first, anna, "Bert")
    second = short_session(group, anna)
    win_game(second, anna, "Cilli")
    in_order = rows(group)
    services.session_describe(session=second, date="2000-01-01")  # played before, really
    assert rows(group) != in_order


# --- the API --------------------------------------------------------------------------------



def test_the_api_answers_the_contract_s_fields_highest_first(anna):
    group = group_with(anna)
    session = short_session(group, anna)
    win_game(session, anna, "Bert")
    answer = phone_of(anna).get(f"/api/v1/groups/{group.pk}/ratings?game=mulatschak")
    assert answer.status_code == 200
    body = answer.json()
    assert body["game"] == "mulatschak" and body["model"] == "openskill BradleyTerryFull"
    assert {"player", "rating", "games", "trend"} <= set(body["ratings"][0])
    values = [r["rating"] for r in body["ratings"]]
    assert values == sorted(values, reverse=True)
    assert body["ratings"][0]["player"] == "Bert"


def test_the_api_takes_a_season(anna):
    group = group_with(anna)
    old = short_session(group, anna)
    win_game(old, anna, "Bert")
    services.session_describe(session=old, date="2020-06-30")
    url = f"/api/v1/groups/{group.pk}/ratings?game=mulatschak"
    assert phone_of(anna).get(url + "&since=2020-07-01").json()["ratings"] == []
    assert len(phone_of(anna).get(url + "&since=2020-06-30").json()["ratings"]) == 4


@pytest.mark.parametrize("query", ["game=chess", "since=yesterday", "since=2025-13-01"])
def test_the_api_refuses_a_bad_question_naming_it(anna, query):
    group = group_with(anna)
    answer = phone_of(anna).get(f"/api/v1/groups/{group.pk}/ratings?{query}")
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == [query.split("=")[0]]


def test_only_members_see_a_group_s_ratings(anna):
    group = group_with(anna)
    bert, zenzi = user("bert"), user("zenzi")
    member(group, bert, "viewer")
    url = f"/api/v1/groups/{group.pk}/ratings"
    assert phone_of(bert).get(url).status_code == 200
    assert phone_of(zenzi).get(url).status_code == 404
    assert Client().get(url).status_code in (401, 403)


def test_the_schema_documents_the_ratings(anna):
    schema = phone_of(anna).get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/groups/{group_id}/ratings"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"game", "since", "group_id"}
    out = schema["components"]["schemas"]["RatingsOut"]
    assert {"game", "model", "ratings"} <= set(out["properties"])
    row = schema["components"]["schemas"]["RatingOut"]
    assert {"player", "rating", "games", "trend"} <= set(row["required"])


# --- the page -------------------------------------------------------------------------------


def test_the_group_statistics_show_a_table_and_a_chart_per_family(anna, phone):
    group = group_with(anna)
    session = short_session(group, anna)
    win_game(session, anna, "Bert")
    page = phone.get(reverse("scorepad:group_stats", args=[group.pk])).content.decode()
    assert 'class="sheet ratings-table"' in page and 'id="ratings-mulatschak"' in page
    assert 'aria-labelledby="ratings-mulatschak-t ratings-mulatschak-d"' in page
    assert page.count('class="chart-svg"') == 2  # the games won, and the ratings
    assert "a skill estimate from who beat whom" in page   # in players' words:
    assert "BradleyTerryFull" not in page and "σ" not in page   # the model is in docs/rules.md


@pytest.mark.parametrize(("season", "shown"), [("all", True), ("year", False),
                                               ("month", False)])
def test_the_season_filter_narrows_the_statistics(anna, phone, season, shown):
    group = group_with(anna)
    old = short_session(group, anna)
    win_game(old, anna, "Bert")
    services.session_describe(session=old, date="2001-01-01")
    page = phone.get(reverse("scorepad:group_stats", args=[group.pk]) + f"?season={season}"
                     ).content.decode()
    assert ('class="sheet ratings-table"' in page) is shown
    assert 'aria-current="page"' in page


@pytest.mark.parametrize(("language", "words"), [("de", "Wertung"), ("hu", "Értékszám"),
                                                 ("en", "Rating")])
def test_the_ratings_speak_the_language(anna, phone, language, words):
    group = group_with(anna)
    win_game(short_session(group, anna), anna, "Bert")
    page = phone.get(reverse("scorepad:group_stats", args=[group.pk]),
                     HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page


# --- reproducible: served after each change == computed from nothing ------------------------

ACTIONS = st.lists(
    st.tuples(st.sampled_from(["record", "record", "record", "record", "correct", "delete"]),
              st.integers(0, 1), st.integers(0, 10_000), st.integers(0, 10_000)),
    min_size=1, max_size=24,
)


def _step(sessions: list[Session], who: Any, action: str, which: int, target: int,
          deal: dict[str, Any]) -> None:
    session = sessions[which % len(sessions)]
    names = services.Names.of(session)
    numbers = list(session.deals.values_list("number", flat=True))
    try:
        if action == "record" or not numbers:
            services.deal_record(session=session, user=who, data=names.deal_ids(deal))
        elif action == "correct":
            services.deal_correct(session=session, user=who,
                                  number=numbers[target % len(numbers)],
                                  data=names.deal_ids(deal))
        else:
            services.deal_delete(session=session, user=who,
                                 number=numbers[target % len(numbers)])
    except services.RulesBroken:
        pass  # refused: nothing changed


def _check_reproducible(group: Any, game: str, served: list[Any]) -> None:
    """The ratings served along the way ended where a computation from nothing ends, and
    where a clean replay of the group's sessions (an export imported elsewhere) ends."""
    fresh = by_name(ratings.table(ratings.group_ratings(group, game, fresh=True),
                                  ratings.names_of(group)))
    assert served[-1] == fresh
    copy = group_with(group.memberships.first().user, name="from scratch")
    importing.group_import(group=copy, data=json.loads(json.dumps(
        exporting.group_export(group))))
    assert by_name(rows(copy, game)) == fresh


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ACTIONS)
def test_mulatschak_ratings_after_any_deals_and_corrections_equal_a_fresh_computation(
        anna, actions):
    group = group_with(anna, name="prop")
    sessions = [short_session(group, anna), short_session(group, anna, seats=SEATS[:3],
                                                          dealer="Cilli")]
    served = []
    for action, which, target, seed in actions:
        seats = SEATS if which % 2 == 0 else SEATS[:3]
        _step(sessions, anna, action, which, target, deal_from_seed(seed, seats))
        served.append(by_name(rows(group)))  # through the cache, after every change
        assert served[-1] == by_name(ratings.table(
            ratings.group_ratings(group, "mulatschak", fresh=True), ratings.names_of(group)))
    _check_reproducible(group, "mulatschak", served)


def _matz_deal(seed: int) -> dict[str, Any]:
    if seed % 3 == 0:
        return {"loser": SEATS[seed % 4]}
    order = list(SEATS)
    for i in range(4):  # a permutation from the seed
        j = (seed // (i + 1)) % 4
        order[i], order[j] = order[j], order[i]
    return {"finish_order": order}


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ACTIONS)
def test_muller_matz_ratings_after_any_games_and_corrections_equal_a_fresh_computation(
        anna, actions):
    group = group_with(anna, name="prop")
    sessions = [services.session_start(group=group, user=anna, preset="muller_matz",
                                       overrides=None, seats=SEATS, game="muller_matz")
                for _ in range(2)]
    served = []
    for action, which, target, seed in actions:
        _step(sessions, anna, action, which, target, _matz_deal(seed))
        served.append(by_name(rows(group, "muller_matz")))
    _check_reproducible(group, "muller_matz", served)
