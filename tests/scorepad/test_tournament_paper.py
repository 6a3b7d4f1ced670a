"""A tournament on paper (docs/tournaments.md, "On paper"): the ranking as CSV and JSON
files equal to the API's, the final ranking to print, the score slips of a round, and a
table's result entered from its slip (the ranking follows; a wrong figure names its field
in the user's language and keeps nothing)."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from django.test import Client

from scorepad import accounts, games
from scorepad.models import TournamentTable
from scorepad.tournaments import services as tour
from scorepad.tournaments.tables import decode

from .factories import group_with, member, user
from .tournament_play import drawn, finish_game, seats, tournament

pytestmark = pytest.mark.django_db

GAME = [g for g in games.for_tournaments() if games.get(g).TOURNAMENT.ends_with_game][0]
DEALS_ONLY = [g for g in games.for_tournaments()
              if not games.get(g).TOURNAMENT.ends_with_game][0]


@pytest.fixture
def evening(anna):
    """Eight players, two rounds closed (every table finished by its second seat), the
    tournament finished: named with an umlaut to see it slugged."""
    t = tournament(group_with(anna), anna, players=8, rounds=2, name="Preis-Mulatschak Zöbern")
    for number, seed in ((1, 1), (2, 5)):
        for table in drawn(t, anna, seed=seed).tables.select_related("session"):
            finish_game(table.session, anna, seats(table.session)[1])
        tour.round_close(tournament=t, number=number)
    tour.tournament_change(tournament=t, status="finished")
    t.refresh_from_db()
    return t


def _api_ranking(t, anna):
    answer = Client().get(f"/api/v1/tournaments/{t.pk}/ranking",
                          HTTP_AUTHORIZATION=f"Token {accounts.token_of(user=anna)}")
    assert answer.status_code == 200
    return answer.json()


def _day(t):
    from django.utils import timezone

    return timezone.localdate(t.created_at).isoformat()


def test_the_json_download_is_the_apis_ranking_as_an_attachment(phone, evening, anna):
    answer = phone.get(f"/tournaments/{evening.pk}/ranking.json")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == (
        f'attachment; filename="preis-mulatschak-zobern-{_day(evening)}.json"')
    assert json.loads(answer.content) == _api_ranking(evening, anna)


@pytest.mark.parametrize(("language", "place", "points"), [("de", "Platz", "Punkte"),
                                                           ("en", "Place", "Points"),
                                                           ("hu", "Hely", "Pont")])
def test_the_csv_download_says_its_header_in_the_users_language_and_equals_the_api(
        phone, evening, anna, language, place, points):
    answer = phone.get(f"/tournaments/{evening.pk}/ranking.csv",
                       HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    assert answer["Content-Disposition"] == (
        f'attachment; filename="preis-mulatschak-zobern-{_day(evening)}.csv"')
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    header, lines = rows[0], rows[1:]
    assert header[0] == place and header[3] == points and len(header) == 6 + 2 * 4
    api = _api_ranking(evening, anna)["ranking"]
    assert len(lines) == len(api) == 8
    for line, want in zip(lines, api, strict=True):
        assert line[:6] == [str(want["place"]), want["name"], str(want["number"]),
                            want["points"], want["score"], str(want["wins"])]
        for r in want["rounds"]:
            at = 6 + 4 * (r["round"] - 1)
            assert line[at:at + 4] == [str(r["table"]), str(r["place"]), r["points"],
                                       r["score"]]
    assert any("." in line[3] and len(line[3].split(".")[1]) == 2 for line in lines)


def test_a_stranger_downloads_nothing_and_an_unknown_format_is_not_found(phone, evening):
    stranger = Client()
    stranger.force_login(user("zora"))
    assert stranger.get(f"/tournaments/{evening.pk}/ranking.csv").status_code == 404
    assert phone.get(f"/tournaments/{evening.pk}/ranking.xml").status_code == 404


def test_the_director_page_links_the_files_the_print_page_and_the_slips(phone, evening):
    html = phone.get(f"/tournaments/{evening.pk}/").content.decode()
    for link in (f"/tournaments/{evening.pk}/ranking.csv",
                 f"/tournaments/{evening.pk}/ranking.json",
                 f"/tournaments/{evening.pk}/ranking/print",
                 f"/tournaments/{evening.pk}/rounds/2/slips"):
        assert f'href="{link}"' in html


@pytest.mark.parametrize(("language", "title"), [("de", "Endstand"), ("en", "Final ranking"),
                                                 ("hu", "Végeredmény")])
def test_the_final_ranking_prints_every_player_in_rank_order(phone, evening, anna, language,
                                                              title):
    answer = phone.get(f"/tournaments/{evening.pk}/ranking/print",
                       HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert title in html and evening.name in html and games.get(GAME).TITLE in html
    assert f'href="/tournaments/{evening.pk}/ranking.csv"' in html
    api = _api_ranking(evening, anna)["ranking"]
    positions = [html.index(f'<span class="final-name">{line["name"]}</span>')
                 for line in api]
    assert positions == sorted(positions)
    assert html.count('class="num by-round"') == 2 + 2 * len(api)  # a column per round


def test_the_score_slips_have_a_slip_per_table_with_names_and_start_numbers(phone, anna):
    t = tournament(group_with(anna), anna, players=8, rounds=2)
    drawn(t, anna)
    html = phone.get(f"/tournaments/{t.pk}/rounds/1/slips").content.decode()
    assert html.count('<section class="slip">') == 2
    for name, number in t.entrants.values_list("player__name", "number"):
        assert f"{name} <small>#{number}</small>" in html
    assert html.count("<tr><td class=\"num\">16</td>") == 2
    viewer = user("vera")
    member(t.group, viewer, "viewer")
    client = Client()
    client.force_login(viewer)
    assert client.get(f"/tournaments/{t.pk}/rounds/1/slips").status_code == 403


def _unplayed(anna, **kw):
    """Round 1 forced closed while table 2 kept its score on paper (no deal recorded)."""
    t = tournament(group_with(anna), anna, players=8, rounds=2, **kw)
    first = drawn(t, anna)
    one = first.tables.get(number=1).session
    if games.get(t.game).TOURNAMENT.ends_with_game:
        finish_game(one, anna, seats(one)[0])
    tour.round_close(tournament=t, number=1, force=True)
    return t, first.tables.get(number=2)


def test_a_slip_entered_moves_the_ranking_and_says_who_entered_it(phone, anna):
    t, table = _unplayed(anna)
    before = tour.ranking_json(t)
    version = type(t).objects.get(pk=t.pk).version
    ids = [str(p) for p in table.session.seats.order_by("position")
           .values_list("player_id", flat=True)]
    start = int(table.session.rules["start_score"])  # Geiser: 15
    finals = dict(zip(ids, ["0", "12", "−10", str(start)], strict=True))  # a typed minus
    answer = phone.post(f"/tournaments/{t.pk}/rounds/1/tables/2/slip",
                        {f"scores_after.{p}": v for p, v in finals.items()})
    assert answer.status_code == 302
    kept = TournamentTable.objects.get(pk=table.pk).result
    assert kept["finished"] and kept["slip"]["by_name"] == "anna"
    assert type(t).objects.get(pk=t.pk).version > version
    after = tour.ranking_json(t)
    assert after != before
    names = dict(table.session.seats.values_list("player_id", "player__name"))
    top = after["ranking"][0]  # start + 10: the table's best, and the evening's
    assert (top["name"], top["points"], top["score"]) == (
        names[int(ids[2])], "3.00", f"{start + 10}.00")
    first = next(line for line in after["ranking"] if line["name"] == names[int(ids[0])])
    assert first["rounds"][0] == {"round": 1, "table": 2, "place": 2, "points": "2.00",
                                  "score": f"{start}.00"}
    page = phone.get(f"/tournaments/{t.pk}/rounds/1/tables/2/slip").content.decode()
    assert "anna" in page and 'value="12"' in page


@pytest.mark.parametrize(("language", "says"), [
    ("de", "muss eine ganze Zahl sein"), ("en", "must be a whole number"),
    ("hu", "egész szám")])
def test_a_wrong_figure_names_the_player_and_field_and_keeps_nothing(phone, anna, language,
                                                                     says):
    t, table = _unplayed(anna)
    before = (TournamentTable.objects.get(pk=table.pk).result, tour.ranking_json(t),
              type(t).objects.get(pk=t.pk).version)
    seated = list(table.session.seats.order_by("position")
                  .values_list("player_id", "player__name"))
    body = {f"scores_after.{p}": "5" for p, _n in seated}
    body[f"scores_after.{seated[1][0]}"] = "zwölf"
    answer = phone.post(f"/tournaments/{t.pk}/rounds/1/tables/2/slip", body,
                        HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    html = answer.content.decode()
    label = {"de": "Punkte am Ende", "en": "Score at the end", "hu": "Pont a végén"}[language]
    assert f"{seated[1][1]}, {label}: " in html and says in html
    assert 'aria-invalid="true"' in html and 'value="zwölf"' in html
    after = (TournamentTable.objects.get(pk=table.pk).result, tour.ranking_json(t),
             type(t).objects.get(pk=t.pk).version)
    assert after == before


def test_a_missing_figure_keeps_nothing_either(phone, anna):
    t, table = _unplayed(anna)
    seated = list(table.session.seats.values_list("player_id", flat=True))
    body = {f"scores_after.{p}": "5" for p in seated[:-1]}
    answer = phone.post(f"/tournaments/{t.pk}/rounds/1/tables/2/slip", body)
    assert answer.status_code == 200 and 'role="alert"' in answer.content.decode()
    assert not TournamentTable.objects.get(pk=table.pk).result.get("slip")


def test_a_mura_slip_takes_mura_and_zeros(phone, anna):
    t, table = _unplayed(anna, game=DEALS_ONLY, round_ends="deals", deals_per_round=4,
                         preset="mura")
    ids = [str(p) for p in table.session.seats.order_by("position")
           .values_list("player_id", flat=True)]
    body = {}
    for p, (mura, zeros) in zip(ids, [(0, 0), (1, 3), (2, 0), (0, 9)], strict=True):
        body[f"mura_after.{p}"], body[f"zeros_after.{p}"] = str(mura), str(zeros)
    assert phone.post(f"/tournaments/{t.pk}/rounds/1/tables/2/slip", body).status_code == 302
    kept = decode(TournamentTable.objects.get(pk=table.pk).result["scores"])
    per = int(table.session.rules.get("zeros_per_mura", 9))
    assert kept == {ids[0]: 0, ids[1]: -(1 + Fraction(3, per)), ids[2]: -2,
                    ids[3]: -Fraction(9, per)}


def test_a_slip_entered_while_the_round_is_open_lets_it_close(phone, anna):
    t = tournament(group_with(anna), anna, players=8, rounds=2)
    first = drawn(t, anna)
    one = first.tables.get(number=1).session
    finish_game(one, anna, seats(one)[0])
    ids = list(first.tables.get(number=2).session.seats.values_list("player_id", flat=True))
    phone.post(f"/tournaments/{t.pk}/rounds/1/tables/2/slip",
               {f"scores_after.{p}": str(i) for i, p in enumerate(ids)})
    closed = tour.round_close(tournament=t, number=1)  # no table is unfinished
    assert closed.status == "closed" and not closed.forced
    assert TournamentTable.objects.get(round=first, number=2).result["slip"]


def test_a_mura_figure_below_zero_is_refused_with_its_bounds(phone, anna):
    t, table = _unplayed(anna, game=DEALS_ONLY, round_ends="deals", deals_per_round=4,
                         preset="mura")
    ids = [str(p) for p in table.session.seats.values_list("player_id", flat=True)]
    body = {f"{c}.{p}": "1" for p in ids for c in ("mura_after", "zeros_after")}
    body[f"zeros_after.{ids[2]}"] = "-1"
    answer = phone.post(f"/tournaments/{t.pk}/rounds/1/tables/2/slip", body,
                        HTTP_ACCEPT_LANGUAGE="de")
    html = answer.content.decode()
    assert answer.status_code == 200 and "Nuller: muss eine ganze Zahl von 0 bis" in html
    assert not TournamentTable.objects.get(pk=table.pk).result.get("slip")


def test_a_mura_slip_says_which_figures_its_last_row_takes(phone, anna):
    t = tournament(group_with(anna), anna, players=8, rounds=2, game=DEALS_ONLY,
                   round_ends="deals", deals_per_round=4, preset="mura")
    drawn(t, anna)
    html = phone.get(f"/tournaments/{t.pk}/rounds/1/slips",
                     HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert html.count("Ende: von jedem Spieler Mura, Nuller.") == 2


#: Names a spreadsheet would run as a formula (issue 31: they came out as they are).
FORMULAS = ['=HYPERLINK("http://x","y")', "+1", "-1", "@SUM(1)"]


def test_the_csv_ranking_escapes_names_a_spreadsheet_would_run_and_keeps_numbers(phone, anna):
    from decimal import Decimal

    t = tournament(group_with(anna), anna, players=4, rounds=1)
    for name in FORMULAS:
        tour.entrant_register(tournament=t, name=name)
    for table in drawn(t, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[0])
    tour.round_close(tournament=t, number=1)
    answer = phone.get(f"/tournaments/{t.pk}/ranking.csv")
    lines = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))[1:]
    assert sorted(line[1] for line in lines if line[1].startswith("'")) == sorted(
        "'" + name for name in FORMULAS)
    for line in lines:
        place, number, points, score, wins, table, round_place, round_points, round_score = (
            line[0], line[2], line[3], line[4], line[5], *line[6:10])
        for figure in (place, number, wins, table, round_place):
            assert figure.isdigit(), line
        for figure in (points, score, round_points, round_score):
            Decimal(figure)  # a number as written, never an apostrophe before it
    assert any(line[4].startswith("-") for line in lines)  # a negative score, unescaped
