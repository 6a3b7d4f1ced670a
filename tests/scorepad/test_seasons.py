"""A season's events and standings read from real evenings and tournaments, and its use
cases (docs/tournaments.md, "Seasons"): one test per rule, figures worked out by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from scorepad import rosters, services
from scorepad.errors import InputError
from scorepad.models import Deal, FinishedGame, Season, Session, Tournament
from scorepad.seasons import etag, standings
from scorepad.seasons import services as seasons
from scorepad.tournaments import services as tour

from .factories import group_with, user
from .season_play import DAY, day, evening, finished_tournament, season
from .tournament_play import record, seats, sweep

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def owner():
    return user("anna")


@pytest.fixture
def club(owner):
    return group_with(owner, "Kartenclub Mondsee")


def by_name(body):
    return {line["name"]: line for line in body["standings"]}


# --- which events count -------------------------------------------------------------------


def test_a_closed_evening_with_a_deal_is_an_event_with_its_seated_players(club, owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"])
    body = standings(made)
    assert body["season"] == made.pk
    assert body["events"] == [{"kind": "evening", "id": played.pk, "date": DAY,
                               "name": str(played), "players": 4}]


def test_an_open_evening_does_not_count(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna"], close=False)
    assert standings(made)["events"] == []


def test_a_reopened_evening_leaves_the_season_until_it_is_closed_again(club, owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"])
    services.session_set_status(session=played, status=Session.Status.OPEN)
    assert standings(made)["events"] == []
    services.session_set_status(session=played, status=Session.Status.CLOSED)
    assert [e["id"] for e in standings(made)["events"]] == [played.pk]


def test_an_evening_without_a_deal_does_not_count(club, owner):
    made = season(club, owner)
    evening(club, owner, [])
    assert standings(made)["events"] == []


def test_an_evening_of_another_game_does_not_count(club, owner):
    made = season(club, owner, game="mura")
    evening(club, owner, ["Anna"])
    assert standings(made)["events"] == []


def test_evenings_outside_the_seasons_days_do_not_count_its_first_and_last_do(club, owner):
    made = season(club, owner, start="2026-03-02", end="2026-03-04")
    inside = [evening(club, owner, ["Anna"], at=day(n)).pk for n in (1, 3)]
    for n in (0, 4):
        evening(club, owner, ["Anna"], at=day(n))
    assert [e["id"] for e in standings(made)["events"]] == inside


def test_another_groups_evening_does_not_count(club, owner):
    made = season(club, owner)
    evening(group_with(owner, "Other table"), owner, ["Anna"])
    assert standings(made)["events"] == []


def test_an_unfinished_tournament_does_not_count_a_finished_one_does(club, owner):
    made = season(club, owner, events="tournaments")
    finished_tournament(club, owner, ["Anna"], finish=False)
    assert standings(made)["events"] == []
    done = finished_tournament(club, owner, ["Anna"], at=day(1))
    body = standings(made)
    assert body["events"] == [{"kind": "tournament", "id": done.pk, "date": day(1),
                               "name": done.name, "players": 8}]


def test_a_tournaments_tables_are_not_evenings(club, owner):
    made = season(club, owner, events="both")
    finished_tournament(club, owner, ["Anna"])
    assert [e["kind"] for e in standings(made)["events"]] == ["tournament"]


def test_the_events_choice_picks_tournaments_evenings_or_both(club, owner):
    evening(club, owner, ["Anna"], at=day(2))
    finished_tournament(club, owner, ["Anna"], at=day(1))
    kinds = {choice: [e["kind"] for e in standings(season(club, owner, events=choice))
                      ["events"]] for choice in ("tournaments", "evenings", "both")}
    assert kinds == {"tournaments": ["tournament"], "evenings": ["evening"],
                     "both": ["tournament", "evening"]}


def test_events_are_in_date_order_then_by_id(club, owner):
    made = season(club, owner)
    late = evening(club, owner, ["Anna"], at=day(5))
    first = evening(club, owner, ["Bert"], at=day(1))
    second = evening(club, owner, ["Cilli"], at=day(1))
    assert [e["id"] for e in standings(made)["events"]] == [first.pk, second.pk, late.pk]


def test_a_tournament_player_who_never_played_a_round_is_not_at_the_event(club, owner):
    made = season(club, owner, events="tournaments")
    finished_tournament(club, owner, ["Anna"], withdrawn=("Zoe",))
    body = standings(made)
    assert body["events"][0]["players"] == 8
    assert "Zoe" not in by_name(body)


# --- a player's place at an event ----------------------------------------------------------


def test_an_evenings_places_go_by_games_won(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna", "Anna", "Bert"])
    lines = by_name(standings(made))
    assert {n: line["results"][0]["place"] for n, line in lines.items()} == {
        "Anna": 1, "Bert": 2, "Cilli": 3, "Dominik": 3}


def test_players_equal_at_an_evening_share_the_place_as_in_sport(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna", "Anna", "Bert", "Cilli"])
    lines = by_name(standings(made))
    assert {n: line["results"][0]["place"] for n, line in lines.items()} == {
        "Anna": 1, "Bert": 2, "Cilli": 2, "Dominik": 4}
    # Bert and Cilli share the cup points of places 2 and 3: (20 + 16) / 2
    assert lines["Bert"]["points"] == lines["Cilli"]["points"] == D("18.00")


def test_the_last_unfinished_games_score_decides_between_equal_winners(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna"], then="Cilli")  # Cilli 5, Bert and Dominik 25
    lines = by_name(standings(made))
    assert {n: line["results"][0]["place"] for n, line in lines.items()} == {
        "Anna": 1, "Cilli": 2, "Bert": 3, "Dominik": 3}


def test_every_winner_of_a_shared_game_counts_it(club, owner):
    session = evening(club, owner, ["Anna"], close=False)
    FinishedGame.objects.filter(session=session).update(summary={
        "number": 1, "final_scores": {}, "winners": [seats(session)[0], seats(session)[1]]})
    services.session_set_status(session=session, status=Session.Status.CLOSED)
    lines = by_name(standings(season(club, owner)))
    assert lines["Anna"]["results"][0]["place"] == lines["Bert"]["results"][0]["place"] == 1


def test_a_mura_evening_places_by_penalty_points(club, owner):
    made = season(club, owner, game="mura")
    session = services.session_start(group=club, user=owner, preset="mura", overrides=None,
                                     seats=["Anna", "Bert", "Cilli", "Dominik"], game="mura")
    services.session_describe(session=session, date=DAY)
    ids = {name: pid for pid, name in services.Names.of(session).by_id.items()}
    mura, zeros = {"Bert": 1}, {"Cilli": 1, "Dominik": 4}
    session.state = {**session.state, "mura": {ids[n]: k for n, k in mura.items()},
                     "zeros": {ids[n]: k for n, k in zeros.items()}}
    session.save(update_fields=["state"])
    Deal.objects.create(session=session, number=1, kind="counts", data={}, result={})
    services.session_set_status(session=session, status=Session.Status.CLOSED)
    per_mura = int(session.rules["zeros_per_mura"])
    penalty = {n: Fraction(mura.get(n, 0)) + Fraction(zeros.get(n, 0), per_mura)
               for n in ids}
    expected = {n: 1 + sum(1 for v in penalty.values() if v < mine)
                for n, mine in penalty.items()}
    assert expected["Anna"] == 1 and expected["Cilli"] == 2
    lines = by_name(standings(made))
    assert {n: line["results"][0]["place"] for n, line in lines.items()} == expected


def test_a_muller_matz_evening_places_by_games_lost(club, owner):
    made = season(club, owner, game="muller_matz")
    session = services.session_start(group=club, user=owner, preset="muller_matz",
                                     overrides=None, seats=["Anna", "Bert", "Cilli"],
                                     game="muller_matz")
    services.session_describe(session=session, date=DAY)
    ids = {name: pid for pid, name in services.Names.of(session).by_id.items()}
    session.state = {**session.state, "losses": {ids["Anna"]: 2, ids["Bert"]: 0,
                                                 ids["Cilli"]: 1}}
    session.save(update_fields=["state"])
    Deal.objects.create(session=session, number=1, kind="game", data={}, result={})
    services.session_set_status(session=session, status=Session.Status.CLOSED)
    lines = by_name(standings(made))
    assert {n: line["results"][0]["place"] for n, line in lines.items()} == {
        "Bert": 1, "Cilli": 2, "Anna": 3}


def test_a_tournament_player_has_their_place_in_its_final_ranking(club, owner):
    made = season(club, owner, events="tournaments")
    done = finished_tournament(club, owner, ["Anna", "Erna"])
    expected = {line.entry.name: line.place for line in tour.standings(done)}
    lines = by_name(standings(made))
    assert {n: line["results"][0]["place"] for n, line in lines.items()} == expected


# --- cup points ----------------------------------------------------------------------------


def test_places_earn_the_cup_points_and_shared_places_share_their_mean(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna", "Anna", "Bert"])  # 1, 2, 3, 3
    lines = by_name(standings(made))
    assert {n: line["results"][0]["points"] for n, line in lines.items()} == {
        "Anna": D("25.00"), "Bert": D("20.00"), "Cilli": D("14.50"), "Dominik": D("14.50")}


def test_a_place_beyond_the_list_earns_nothing(club, owner):
    made = season(club, owner, cup_points=[10, 5])
    evening(club, owner, ["Anna", "Anna", "Bert"])
    lines = by_name(standings(made))
    assert lines["Cilli"]["points"] == lines["Dominik"]["points"] == D("0.00")


def test_a_place_shared_across_the_end_of_the_list_shares_what_is_left(club, owner):
    made = season(club, owner, cup_points=[10, 5, 3])
    evening(club, owner, ["Anna", "Anna", "Bert"])  # Cilli and Dominik share 3 and 4
    assert by_name(standings(made))["Cilli"]["points"] == D("1.50")


def test_thirds_are_shown_with_two_places_half_away_from_zero(club, owner):
    made = season(club, owner, cup_points=[1, 1, 0])
    evening(club, owner, [], then="Anna", names=("Anna", "Bert", "Cilli"))
    # Anna 1 (she leads the unfinished game); Bert and Cilli share 2 and 3: (1 + 0) / 2
    lines = by_name(standings(made))
    assert lines["Bert"]["points"] == D("0.50")
    made.cup_points = ["2", "1", "1", "0"]
    made.save()
    evening(club, owner, [], then="Anna", names=("Anna", "Bert", "Cilli", "Dominik"),
            at=day(1))
    # Bert, Cilli, Dominik share 2, 3 and 4: 2 / 3 = 0.666… → 0.67
    assert by_name(standings(made))["Dominik"]["results"][-1]["points"] == D("0.67")


# --- standings -----------------------------------------------------------------------------


def test_points_events_wins_and_average_add_up_over_the_events(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna"], at=day(1))  # Anna 25, the others (20 + 16 + 13) / 3
    evening(club, owner, ["Bert"], at=day(2))  # Bert 25, the others 49 / 3
    lines = by_name(standings(made))
    # Anna: 25 + 49/3 = 41.333…, its half 20.666…
    assert (lines["Anna"]["points"], lines["Anna"]["events"], lines["Anna"]["wins"],
            lines["Anna"]["average"]) == (D("41.33"), 2, 1, D("20.67"))
    assert lines["Cilli"]["points"] == D("32.67") and lines["Cilli"]["wins"] == 0


def test_best_of_counts_the_highest_results_and_the_earlier_of_equal_ones(club, owner):
    made = season(club, owner, best_of=2)
    evening(club, owner, ["Bert"], at=day(1))   # Anna 16 (shared 2–4: (20+16+13)/3)
    evening(club, owner, ["Anna"], at=day(2))   # Anna 25
    evening(club, owner, ["Bert"], at=day(3))   # Anna 16.33…, equal to the first
    anna = by_name(standings(made))["Anna"]
    assert [r["counted"] for r in anna["results"]] == [True, True, False]
    assert anna["points"] == D("41.33")  # 49/3 + 25 = 41.333…
    assert anna["average"] == D("19.22")  # (49/3 · 2 + 25) / 3 = 19.222…


def test_the_unqualified_stand_after_every_qualified_player_and_places_count_on(club, owner):
    made = season(club, owner, min_events=2)
    evening(club, owner, ["Anna"], at=day(1))
    evening(club, owner, ["Bert"], at=day(2), names=("Bert", "Cilli", "Dominik", "Erna"))
    body = standings(made)
    order = [(line["name"], line["place"], line["qualified"]) for line in body["standings"]]
    # qualified: Bert 25 + 16.33, Cilli and Dominik 16.33 twice; Anna and Erna once
    assert order[:3] == [("Bert", 1, True), ("Cilli", 2, True), ("Dominik", 2, True)]
    assert order[3:] == [("Anna", 4, False), ("Erna", 5, False)]


def test_equal_points_are_ordered_by_wins_then_by_average(club, owner):
    made = season(club, owner, cup_points=[10, 10, 4, 0], best_of=1)
    evening(club, owner, ["Anna", "Anna", "Bert"], at=day(1))   # Anna 10, Bert 10, C/D 2
    evening(club, owner, ["Cilli", "Cilli", "Dominik"], at=day(2))  # Cilli 10, Dominik 10
    lines = standings(made)["standings"]
    # all four count 10 (best_of 1); Anna and Cilli won once, Bert and Dominik never
    # (second place); averages: Anna (10 + 2) / 2 = 6 as Bert, Cilli and Dominik
    assert [(line["name"], line["place"]) for line in lines] == [
        ("Anna", 1), ("Cilli", 1), ("Bert", 3), ("Dominik", 3)]


def test_the_average_orders_players_equal_in_points_and_wins(club, owner):
    made = season(club, owner, cup_points=[10, 6, 0, 0], best_of=1)
    evening(club, owner, ["Anna", "Anna", "Bert"], at=day(1))  # Bert second: 6
    evening(club, owner, ["Anna", "Anna", "Erna"], at=day(2),
            names=("Anna", "Erna", "Franz", "Gerti"))  # Erna second: 6
    evening(club, owner, ["Anna"], at=day(3),
            names=("Anna", "Bert", "Hans", "Ida"))  # Bert shares 2–4: 6 / 3 = 2
    lines = by_name(standings(made))
    # Bert and Erna: 6 counted, no win; Bert's average (6 + 2) / 2 = 4, Erna's 6
    assert (lines["Bert"]["points"], lines["Bert"]["wins"], lines["Bert"]["average"]) == (
        D("6.00"), 0, D("4.00"))
    assert (lines["Erna"]["points"], lines["Erna"]["wins"], lines["Erna"]["average"]) == (
        D("6.00"), 0, D("6.00"))
    assert (lines["Erna"]["place"], lines["Bert"]["place"]) == (2, 3)


def test_the_same_roster_player_is_one_line_across_evenings_and_tournaments(club, owner):
    made = season(club, owner)
    finished_tournament(club, owner, ["Anna"], at=day(1))
    evening(club, owner, ["Anna"], at=day(2))
    body = standings(made)
    assert [line["name"] for line in body["standings"]].count("Anna") == 1
    assert by_name(body)["Anna"]["events"] == 2


def test_a_category_shows_its_players_alone_with_their_place_in_it(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna", "Anna", "Bert"])
    for name in ("Bert", "Dominik"):
        rosters.player_categorize(player=club.players.get(name=name), category="Jugend")
    body = standings(made, "JUGEND")
    assert [(line["name"], line["place"]) for line in body["standings"]] == [
        ("Bert", 1), ("Dominik", 2)]
    assert len(body["events"]) == 1
    assert len(standings(made)["standings"]) == 4


# --- a correction moves the standings and the ETag -----------------------------------------


def test_a_correction_of_a_tournament_tables_deal_moves_the_standings_and_the_etag(
        club, owner):
    made = season(club, owner, events="tournaments")
    done = finished_tournament(club, owner, ["Anna"])
    before, tag = standings(made), etag(made)
    table = done.round_set.get().tables.get(session__seats__player__name="Anna")
    names = services.Names.of(table.session)
    loser = next(n for n in seats(table.session) if n != "Anna")
    for number in (1, 2):
        services.deal_correct(session=table.session, user=owner, number=number,
                              data=names.deal_ids(sweep(table.session, loser)))
    after = standings(made)
    assert by_name(after)["Anna"]["results"] != by_name(before)["Anna"]["results"]
    assert etag(made) != tag


def test_the_etag_stays_while_nothing_changes_and_differs_by_category(club, owner):
    made = season(club, owner)
    evening(club, owner, ["Anna"])
    assert etag(made) == etag(made)
    assert etag(made, "Jugend") != etag(made)
    evening(group_with(owner, "Elsewhere"), owner, ["Bert"])
    Season.objects.filter(pk=made.pk).update(name="Renamed")
    made.refresh_from_db()
    tag = etag(made)
    evening(club, owner, ["Bert"], close=False)
    assert etag(made) == tag


def test_a_reopened_and_corrected_evening_changes_the_etag_when_closed_again(club, owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"], then="Bert")
    tag = etag(made)
    services.session_set_status(session=played, status=Session.Status.OPEN)
    names = services.Names.of(played)
    services.deal_correct(session=played, user=owner, number=3,
                          data=names.deal_ids(sweep(played, "Cilli")))
    services.session_set_status(session=played, status=Session.Status.CLOSED)
    assert etag(made) != tag
    assert by_name(standings(made))["Cilli"]["results"][0]["place"] == 2


# --- the use cases -------------------------------------------------------------------------


def test_a_new_season_has_the_default_cup_points_and_no_best_of(club, owner):
    made = season(club, owner)
    assert made.group == club and made.created_by == owner
    assert made.cup_points == ["25", "20", "16", "13", "11", "10", "9", "8", "7", "6", "5",
                               "4", "3", "2", "1"]
    assert made.best_of is None and made.min_events == 0
    assert (made.start, made.end) == (dt.date(2026, 1, 1), dt.date(2026, 12, 31))


def test_cup_points_are_kept_exactly_as_given(club, owner):
    made = season(club, owner, cup_points=[12.5, "7,25", 0])
    assert made.cup_points == ["12.5", "7.25", "0"]


@pytest.mark.parametrize(("fields", "field", "code"), [
    ({"name": ""}, "name", "empty"),
    ({"name": "x" * 81}, "name", "too_long"),
    ({"name": 5}, "name", "not_string"),
    ({"game": "skat"}, "game", "not_choice"),
    ({"start": "1.1.2026"}, "start", "not_date"),
    ({"end": None}, "end", "not_date"),
    ({"end": "2025-12-31"}, "end", "end_before_start"),
    ({"events": "all"}, "events", "not_choice"),
    ({"cup_points": []}, "cup_points", "cup_points_list"),
    ({"cup_points": [1] * 51}, "cup_points", "cup_points_list"),
    ({"cup_points": "25,20"}, "cup_points", "cup_points_list"),
    ({"cup_points": [25, -1]}, "cup_points.1", "not_number_between"),
    ({"cup_points": [25, True]}, "cup_points.1", "not_number_between"),
    ({"cup_points": [float("nan")]}, "cup_points.0", "not_number_between"),
    ({"best_of": 0}, "best_of", "not_between"),
    ({"best_of": 2.5}, "best_of", "not_between"),
    ({"best_of": 40000}, "best_of", "not_between"),
    ({"min_events": -1}, "min_events", "not_between"),
    ({"min_events": "3"}, "min_events", "not_between"),
    ({"colour": "red"}, "colour", "unknown_field"),
])
def test_a_wrong_field_is_refused_naming_it_and_nothing_is_made(club, owner, fields, field,
                                                                 code):
    with pytest.raises(InputError) as refused:
        season(club, owner, **fields)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert not Season.objects.exists()


def test_a_missing_field_is_named_each_of_them(club, owner):
    with pytest.raises(InputError) as refused:
        seasons.season_create(club, owner, {"name": "2026"})
    assert {p.field for p in refused.value.problems} == {"game", "start", "end", "events"}
    assert {p.code for p in refused.value.problems} == {"missing"}


def test_a_change_checks_end_against_the_kept_start(club, owner):
    made = season(club, owner)
    with pytest.raises(InputError) as refused:
        seasons.season_update(made, {"end": "2025-06-30"})
    assert refused.value.field == "end"
    made.refresh_from_db()
    assert made.end == dt.date(2026, 12, 31)


def test_a_change_keeps_the_fields_not_given(club, owner):
    made = season(club, owner, best_of=10, min_events=3)
    seasons.season_update(made, {"name": "Cup 2026", "best_of": None})
    made.refresh_from_db()
    assert (made.name, made.best_of, made.min_events) == ("Cup 2026", None, 3)


def test_deleting_a_season_deletes_no_event(club, owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"])
    finished_tournament(club, owner, ["Anna"])
    seasons.season_delete(made)
    assert not Season.objects.exists()
    assert Session.objects.filter(pk=played.pk).exists() and Tournament.objects.exists()


def test_recording_a_deal_keeps_its_evening_out_until_it_is_closed(club, owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"], close=False)
    record(played, owner, sweep(played, "Bert"))
    assert standings(made)["events"] == []


def test_cup_points_of_many_places_after_the_point_are_kept_exactly(club, owner):
    made = season(club, owner, cup_points=[6.81791728154875e-238, 0.5])
    assert Decimal(made.cup_points[0]) == Decimal("6.81791728154875e-238")


def test_a_note_on_a_counted_evening_or_a_tournaments_screen_change_keeps_the_etag(club,
                                                                                 owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"], at=day(1))
    done = finished_tournament(club, owner, ["Anna"], at=day(2))
    tag = etag(made)
    services.session_describe(session=played, note="Kirtag at Hofer's")
    tour.tournament_change(tournament=done, screen_hides_rounds=1)
    assert etag(made) == tag


def test_a_correction_at_a_counted_evening_that_moves_no_figure_changes_the_etag(club,
                                                                                owner):
    made = season(club, owner)
    played = evening(club, owner, ["Anna"], then="Bert")
    before, tag = standings(made), etag(made)
    Session.objects.filter(pk=played.pk).update(status=Session.Status.OPEN)
    names = services.Names.of(played)
    services.deal_correct(session=played, user=owner, number=3,
                          data=names.deal_ids(sweep(played, "Bert")))
    Session.objects.filter(pk=played.pk).update(status=Session.Status.CLOSED)
    assert standings(made) == before
    assert etag(made) != tag
