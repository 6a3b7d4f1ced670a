"""A group's seasons on its pages (docs/tournaments.md, "Seasons"): the list with the one
short form, changing and deleting a season, the season's page (its figures are the
standings' own, its events link to their pages, a category on request), its CSV through
the escaping writer, and who may do what."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from scorepad import rosters, seasons, services
from scorepad.models import Season, Session

from .factories import SEATS, group_with, member, played, record, session_at, user
from .tournament_play import drawn, finish_game, seats, tournament

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 14)


def evening(group: Any, owner: Any, day: date, winner: str = "Anna",
            names: list[str] | None = None) -> Session:
    """A closed evening of Mulatschak on ``day`` with one deal, ``winner`` declaring."""
    session = session_at(group, owner, seats=names, dealer=(names or SEATS)[-1])
    tricks = dict.fromkeys(names or SEATS, 1) | {winner: 2}
    record(session, owner, played(winner, tricks))
    Session.objects.filter(pk=session.pk).update(date=day)
    session.refresh_from_db()
    services.session_set_status(session=session, status="closed")
    return session


def season_of(group: Any, **kw: Any) -> Season:
    fields = {"name": "Jahreswertung 2026", "game": "mulatschak", "start": date(2026, 1, 1),
              "end": date(2026, 12, 31), "events": "evenings"} | kw
    return Season.objects.create(group=group, **fields)


@pytest.fixture
def year(anna: Any) -> dict[str, Any]:
    """Anna's group with two closed evenings in 2026 and a season over them."""
    group = group_with(anna)
    first = evening(group, anna, DAY)
    second = evening(group, anna, date(2026, 4, 2), winner="Bert")
    return {"group": group, "evenings": [first, second], "season": season_of(group)}


def form(**kw: str) -> dict[str, str]:
    return {"name": "Cup 2026", "game": "mulatschak", "start": "2026-01-01",
            "end": "2026-12-31", "events": "both", "cup_points": "25, 20, 16",
            "best_of": "", "min_events": "0"} | kw


# --- the list and the form ------------------------------------------------------------------


def test_the_group_page_links_to_its_seasons(phone, group):
    page = phone.get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/seasons/"' in page


def test_the_form_offers_the_default_cup_points_and_a_line_for_every_choice(phone, group):
    page = phone.get(f"/groups/{group.pk}/seasons/").content.decode()
    assert 'value="25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"' in page
    for name in ("name", "game", "start", "end", "events", "cup_points", "best_of",
                 "min_events"):
        assert f'id="help-{name}"' in page, name


def test_an_owner_makes_a_season_with_the_form(phone, group):
    answer = phone.post(f"/groups/{group.pk}/seasons/",
                        form(best_of="10", min_events="3", events="evenings"))
    made = Season.objects.get(group=group)
    assert answer.status_code == 302 and answer["Location"] == f"/seasons/{made.pk}/"
    assert (made.name, made.game, made.start, made.end, made.events, made.cup_points,
            made.best_of, made.min_events) == (
        "Cup 2026", "mulatschak", date(2026, 1, 1), date(2026, 12, 31), "evenings",
        ["25", "20", "16"], 10, 3)


def test_an_empty_best_of_counts_every_result(phone, group):
    phone.post(f"/groups/{group.pk}/seasons/", form())
    assert Season.objects.get(group=group).best_of is None


def test_an_end_before_the_start_is_refused_at_the_end_field_and_nothing_is_made(phone,
                                                                                   group):
    answer = phone.post(f"/groups/{group.pk}/seasons/",
                        form(start="2026-12-31", end="2026-01-01"))
    page = answer.content.decode()
    assert answer.status_code == 200
    assert re.search(r'id="error-end" role="alert">[^<]+<', page)
    assert 'id="id_end" name="end" value="2026-01-01"' in page  # the typed value kept
    assert not Season.objects.exists()


def test_a_cup_point_that_is_no_number_is_refused_at_the_cup_points(phone, group):
    answer = phone.post(f"/groups/{group.pk}/seasons/", form(cup_points="25, x, 16"))
    assert answer.status_code == 200
    assert 'id="error-cup_points"' in answer.content.decode()
    assert not Season.objects.exists()


def test_a_best_of_that_is_no_count_is_refused_at_its_field(phone, group):
    answer = phone.post(f"/groups/{group.pk}/seasons/", form(best_of="-2"))
    assert 'id="error-best_of"' in answer.content.decode()
    assert not Season.objects.exists()


@pytest.mark.parametrize("field", ["game", "events"])
def test_a_choice_none_of_the_offered_is_refused_in_words_without_the_codes(phone, group,
                                                                           field):
    page = phone.post(f"/groups/{group.pk}/seasons/", form(**{field: "poker"})).content.decode()
    error = re.search(rf'id="error-{field}" role="alert">([^<]+)<', page).group(1)
    assert "poker" in error and "mulatschak" not in error and "evenings" not in error
    assert not Season.objects.exists()


def test_the_refusal_speaks_german_for_a_german_phone(phone, group):
    phone.cookies["django_language"] = "de"
    page = phone.post(f"/groups/{group.pk}/seasons/", form(name="")).content.decode()
    assert 'id="error-name"' in page and "Saison anlegen" in page


def test_a_viewer_reads_the_seasons_without_the_form_and_may_not_make_one(year):
    viewer = user("vera")
    member(year["group"], viewer, "viewer")
    phone = Client()
    phone.force_login(viewer)
    page = phone.get(f"/groups/{year['group'].pk}/seasons/").content.decode()
    assert "Jahreswertung 2026" in page and 'name="cup_points"' not in page
    assert phone.post(f"/groups/{year['group'].pk}/seasons/", form()).status_code == 403
    assert phone.get(f"/seasons/{year['season'].pk}/edit").status_code == 403
    assert Season.objects.count() == 1


def test_a_stranger_finds_no_season(year):
    phone = Client()
    phone.force_login(user("stranger"))
    assert phone.get(f"/seasons/{year['season'].pk}/").status_code == 404
    assert phone.get(f"/seasons/{year['season'].pk}/standings.csv").status_code == 404


# --- changing and deleting ------------------------------------------------------------------


def test_the_change_form_shows_the_seasons_choices(phone, year):
    page = phone.get(f"/seasons/{year['season'].pk}/edit").content.decode()
    assert 'value="Jahreswertung 2026"' in page
    assert 'value="25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"' in page
    assert re.search(r'value="evenings"[^>]*checked|checked[^>]*value="evenings"', page)


def test_an_editor_changes_a_season(year):
    editor = user("edi")
    member(year["group"], editor, "editor")
    phone = Client()
    phone.force_login(editor)
    season = year["season"]
    answer = phone.post(f"/seasons/{season.pk}/edit",
                        form(name="Cup", cup_points="10, 6, 3", best_of="1"))
    assert answer.status_code == 302 and answer["Location"] == f"/seasons/{season.pk}/"
    season.refresh_from_db()
    assert (season.name, season.cup_points, season.best_of) == ("Cup", ["10", "6", "3"], 1)


def test_a_refused_change_changes_nothing(phone, year):
    season = year["season"]
    answer = phone.post(f"/seasons/{season.pk}/edit",
                        form(name="Cup", start="2026-05-01", end="2026-04-01"))
    assert answer.status_code == 200 and 'id="error-end"' in answer.content.decode()
    season.refresh_from_db()
    assert (season.name, season.start) == ("Jahreswertung 2026", date(2026, 1, 1))


def test_deleting_needs_the_second_tap_and_keeps_the_events(phone, year):
    season = year["season"]
    first = phone.post(f"/seasons/{season.pk}/edit", {"action": "delete"})
    assert first.status_code == 302 and Season.objects.filter(pk=season.pk).exists()
    second = phone.post(f"/seasons/{season.pk}/edit", {"action": "delete", "confirmed": "yes"})
    assert second.status_code == 302
    assert second["Location"] == f"/groups/{year['group'].pk}/seasons/"
    assert not Season.objects.filter(pk=season.pk).exists()
    assert Session.objects.filter(pk__in=[s.pk for s in year["evenings"]]).count() == 2


# --- the season's page ----------------------------------------------------------------------


def _figures(page: str) -> dict[str, dict[str, str]]:
    """Each standings line's figures as the page shows them, by name."""
    out = {}
    for row in re.findall(r'<tr class="season-line[^"]*" data-name="([^"]*)">(.*?)</tr>',
                          page, re.S):
        name, cells = row
        found = dict(re.findall(r'data-figure="(\w+)">(?:<strong>)?([^<]*)<', cells))
        out[name] = found
    return out


def test_the_page_shows_the_standings_figures_as_the_standings_give_them(phone, year):
    season = year["season"]
    data = seasons.standings(season, "")
    page = phone.get(f"/seasons/{season.pk}/").content.decode()
    shown = _figures(page)
    assert len(shown) == len(data["standings"]) > 0
    for line in data["standings"]:
        assert shown[line["name"]] == {
            "place": f"{line['place']}.", "points": f"{Decimal(line['points']):.2f}",
            "events": str(line["events"]), "wins": str(line["wins"]),
            "average": f"{Decimal(line['average']):.2f}"}, line["name"]


def test_each_result_is_marked_counted_or_not(phone, year):
    season = year["season"]
    season.best_of = 1
    season.save()
    data = seasons.standings(season, "")
    page = phone.get(f"/seasons/{season.pk}/").content.decode()
    marks = re.findall(r'data-event="(\d+)" data-points="([^"]+)" data-counted="([01])"', page)
    expected = [(str(r["event"] + 1), f"{Decimal(r['points']):.2f}", "1" if r["counted"]
                 else "0") for line in data["standings"] for r in line["results"]]
    assert marks == expected
    assert "0" in {m[2] for m in marks}  # two evenings, the best one counts


def test_the_events_are_listed_with_dates_and_links(phone, year):
    page = phone.get(f"/seasons/{year['season'].pk}/").content.decode()
    for session in year["evenings"]:
        assert f'href="/sessions/{session.pk}/"' in page
    assert 'datetime="2026-03-14"' in page and 'datetime="2026-04-02"' in page


def test_a_finished_tournament_is_listed_with_a_link_to_its_page(phone, anna):
    group = group_with(anna)
    contest = tournament(group, anna, players=4, rounds=1)
    for table in drawn(contest, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[0])
    from scorepad.tournaments import services as tour

    tour.round_close(tournament=contest, number=1)
    tour.tournament_change(tournament=contest, status="finished")
    season = season_of(group, game=contest.game, events="tournaments",
                       start=contest.date, end=contest.date)
    page = phone.get(f"/seasons/{season.pk}/").content.decode()
    assert f'href="/tournaments/{contest.pk}/"' in page


def test_the_page_draws_a_line_per_player_of_the_standings(phone, year):
    data = seasons.standings(year["season"], "")
    page = phone.get(f"/seasons/{year['season'].pk}/").content.decode()
    legends = re.findall(r'<text class="legend"[^>]*>([^<]*)</text>', page)
    assert legends == [line["name"] for line in data["standings"][:8]]


def test_a_category_shows_its_players_alone(phone, year):
    rosters.player_categorize(player=year["group"].players.get(name="Bert"), category="Damen")
    page = phone.get(f"/seasons/{year['season'].pk}/?category=damen").content.decode()
    assert list(_figures(page)) == ["Bert"]
    assert 'href="?category=Damen"' in page and 'aria-current="true">Damen' in page


def test_the_page_asks_six_queries_however_many_evenings_count(
        phone, year, anna, django_assert_max_num_queries):
    """The season with its role, the evenings, their seats and finished games, the
    players, the group's categories (a tournament adds its own two)."""
    phone.get(f"/seasons/{year['season'].pk}/")  # the login read once
    with django_assert_max_num_queries(6):
        assert phone.get(f"/seasons/{year['season'].pk}/").status_code == 200
    for day in (date(2026, 5, 5), date(2026, 6, 9), date(2026, 7, 7)):
        evening(year["group"], anna, day)
    with django_assert_max_num_queries(6):
        assert phone.get(f"/seasons/{year['season'].pk}/").status_code == 200


def test_a_season_without_events_says_so_and_draws_nothing(phone, group):
    season = season_of(group, start=date(2030, 1, 1), end=date(2030, 12, 31))
    page = phone.get(f"/seasons/{season.pk}/").content.decode()
    assert "No event counts yet." in page and "Nothing to draw yet." in page
    assert "No event of this season has been played yet." in page
    lines = phone.get(f"/seasons/{season.pk}/standings.csv").content.decode("utf-8-sig")
    assert lines.splitlines() == ["Place,Name,Points,Events,Wins,Average,Qualified"]


@pytest.mark.parametrize(("category", "shown"), [("x" * 5000, 4), ("\x00", 4),
                                                ("%ZZ", 0), ("Damen\n", 0)])
def test_any_category_answers_a_page_everybody_for_none_that_can_be(phone, year, category,
                                                                    shown):
    answer = phone.get(f"/seasons/{year['season'].pk}/", {"category": category})
    assert answer.status_code == 200
    assert len(_figures(answer.content.decode())) == shown
    csv_answer = phone.get(f"/seasons/{year['season'].pk}/standings.csv",
                           {"category": category})
    assert csv_answer.status_code == 200


@pytest.mark.parametrize("path", ["/groups/{group}/seasons/", "/seasons/{season}/",
                                  "/seasons/{season}/edit", "/seasons/{season}/standings.csv"])
def test_head_answers_as_get_without_the_body(phone, year, path):
    url = path.format(group=year["group"].pk, season=year["season"].pk)
    get, head = phone.get(url), phone.head(url)
    assert head.status_code == get.status_code == 200 and head.content == b""


# --- the CSV --------------------------------------------------------------------------------

FORMULAS = ["=1+1", "@SUM(1)", "+1", "-1"]


def test_the_csv_escapes_names_a_spreadsheet_would_run_and_keeps_numbers(phone, anna):
    group = group_with(anna)
    evening(group, anna, DAY, winner=FORMULAS[0], names=FORMULAS)
    season = season_of(group)
    answer = phone.get(f"/seasons/{season.pk}/standings.csv")
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="jahreswertung-2026-2026.csv"'
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    header, lines = rows[0], rows[1:]
    assert header[:7] == ["Place", "Name", "Points", "Events", "Wins", "Average", "Qualified"]
    assert sorted(line[1] for line in lines) == sorted("'" + name for name in FORMULAS)
    data = seasons.standings(season, "")
    for line, expected in zip(lines, data["standings"], strict=True):
        assert line[0] == str(expected["place"]) and line[3] == str(expected["events"])
        assert Decimal(line[2]) == Decimal(expected["points"])  # a number, no apostrophe
        assert Decimal(line[5]) == Decimal(expected["average"])
        assert Decimal(line[7]) == Decimal(expected["results"][0]["points"])
        assert line[8] == "yes"


def test_the_csv_of_a_category_holds_its_players_alone(phone, year):
    rosters.player_categorize(player=year["group"].players.get(name="Bert"),
                              category="Damen & Herren")
    page = phone.get(f"/seasons/{year['season'].pk}/?category=damen+%26+herren")
    link = re.search(r'href="([^"]+)" download id="season-csv"', page.content.decode())
    answer = phone.get(link.group(1).replace("&amp;", "&"))  # the page's own link
    lines = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))[1:]
    assert [line[1] for line in lines] == ["Bert"]
