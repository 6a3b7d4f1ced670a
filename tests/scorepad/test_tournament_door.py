"""The director at the door (issue 34's findings, tried as a new user would): a mistyped
player is deleted, withdrawn players are marked, a finished table's phone says so, the
rules are offered by name, every choice explains itself, the tournament page shows its
settings and asks before what cannot be undone, a name registered twice is refused at its
field, the score slips print the rows a round can need, and the screen shows the players
without places until a round is closed, its top places marked, without the page's
controls."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from referee.rules import PRESETS
from scorepad import games
from scorepad.models import Entrant, Tournament
from scorepad.tournaments import services as tour

from .tournament_play import NAMES, drawn, finish_game, seats, tournament

pytestmark = pytest.mark.django_db

GAME = [g for g in games.for_tournaments() if games.get(g).TOURNAMENT.ends_with_game][0]


def _text(html: str) -> str:
    """The page's words without tags, blanks folded."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# --- registering at the door ----------------------------------------------------------------


def test_a_player_who_has_not_played_yet_can_be_deleted(phone, group, anna):
    t = tournament(group, anna, players=5, rounds=2)
    page = f"/tournaments/{t.pk}/"
    phone.post(page, {"action": "remove", "name": "Erna"})
    assert list(t.entrants.values_list("player__name", flat=True)) == NAMES[:4]
    assert group.players.filter(name="Erna").exists()  # the roster keeps the name
    assert 'value="remove"' in phone.get(page).content.decode()


def test_a_player_who_was_drawn_cannot_be_deleted_only_withdrawn(phone, group, anna):
    t = tournament(group, anna, players=4, rounds=2)
    drawn(t, anna)
    answer = phone.post(f"/tournaments/{t.pk}/", {"action": "remove", "name": "Anna"},
                        follow=True)
    assert "withdraw them instead" in answer.content.decode()
    assert t.entrants.count() == 4


def test_a_name_registered_twice_is_refused_at_its_field_with_the_name(phone, group, anna):
    t = tournament(group, anna, players=2)
    # without a script: the page again, the refusal under the field that keeps the name
    answer = phone.post(f"/tournaments/{t.pk}/", {"action": "register", "name": "anna"})
    html = answer.content.decode()
    assert answer.status_code == 200
    field = re.search(r'<input id="register-name"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and 'aria-describedby="register-error"' in field
    assert 'value="anna"' in field
    error = re.search(r'id="register-error"[^>]*>(.*?)</', html, re.S).group(1)
    assert "anna is already registered" in error
    # the page's script: the players' part, and the refusal at the field (out of band)
    answer = phone.post(f"/tournaments/{t.pk}/", {"action": "register", "name": "anna"},
                        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="players")
    html = answer.content.decode()
    feedback = re.search(r'<div id="register-feedback" hx-swap-oob="true">(.*?)</div>', html,
                         re.S).group(1)
    assert 'data-refused="anna"' in feedback and "anna is already registered" in feedback
    assert t.entrants.count() == 2


def test_registering_answers_the_players_part_and_leaves_the_field_where_it_is(
        phone, group, anna):
    """The field is not in the answer: it keeps the focus, and what is typed meanwhile."""
    t = tournament(group, anna, players=0)
    answer = phone.post(f"/tournaments/{t.pk}/", {"action": "register", "name": "Zenzi"},
                        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="players")
    html = answer.content.decode()
    assert answer.status_code == 200 and "<html" not in html
    assert 'id="register-name"' not in html and '<div id="players">' in html
    assert "Zenzi" in html and t.entrants.count() == 1
    assert re.search(r'<div id="register-feedback" hx-swap-oob="true"></div>', html)
    page = phone.get(f"/tournaments/{t.pk}/").content.decode()
    assert re.search(r'<input id="register-name"[^>]*autofocus', page)
    assert "tournament.js" in page


def test_withdrawn_players_are_marked_in_the_ranking_and_on_the_screen(phone, group, anna):
    t = tournament(group, anna, players=4, rounds=2)
    for table in drawn(t, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[0])
    tour.round_close(tournament=t, number=1)
    tour.entrant_withdraw(tournament=t, name="Bert")
    for html in (phone.get(f"/tournaments/{t.pk}/").content.decode(),
                 Client().get(f"/screen/{t.screen_token}/",
                              HTTP_ACCEPT_LANGUAGE="en").content.decode()):
        row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*Bert(?:(?!</tr>).)*</tr>", html, re.S)
        assert row and "withdrawn" in row.group(0)


# --- making a tournament --------------------------------------------------------------------


def test_the_rules_are_offered_by_name_with_their_house_rules(phone, group):
    html = phone.get(f"/groups/{group.pk}/tournaments/").content.decode()
    assert re.search(r'<input type="radio" name="preset" value="salzburg"', html)
    assert f">{PRESETS['salzburg'].title}<" in html and 'name="rule_start_score"' in html
    made = phone.post(f"/groups/{group.pk}/tournaments/", {
        "name": "Preis-Abend", "game": GAME, "preset": "geiser", "rule_start_score": "21",
        "rounds": "2", "round_ends": "game", "table_size": "4", "scoring": "placement",
        "draw": "random"})
    assert made.status_code == 302, re.findall(r'class="field-error"[^>]*>([^<]*)',
                                               made.content.decode())
    t = Tournament.objects.get(name="Preis-Abend")
    assert (t.preset, t.rules["start_score"]) == ("geiser", 21)


def test_every_choice_of_a_new_tournament_says_what_it_means_with_an_example(phone, group):
    html = phone.get(f"/groups/{group.pk}/tournaments/").content.decode()
    form = html[html.index('<form method="post" class="stack tournament-form'):]
    for field in ("name", "rounds", "round_ends", "deals_per_round", "table_size", "scoring",
                  "rank_points", "draw", "tiebreak_1", "final_tables", "confirm_results",
                  "date", "entry_fee"):
        help_id = f"help-{field}"
        assert f'id="{help_id}"' in form, field
        said = _text(re.search(rf'id="{help_id}"[^>]*>(.*?)</p>', form, re.S).group(1))
        assert "e.g." in said or "example" in said.lower(), (field, said)


def test_a_new_tournament_takes_every_format_from_the_form(phone, group):
    made = phone.post(f"/groups/{group.pk}/tournaments/", {
        "name": "Preis-Abend", "game": GAME, "preset": "geiser", "rounds": "3",
        "round_ends": "game", "table_size": "4", "scoring": "combined",
        "rank_points": "60, 40, 20, 0", "draw": "swiss", "tiebreak_1": "best_round",
        "tiebreak_2": "lot", "tiebreak_3": "", "final_tables": "1", "confirm_results": "on",
        "date": "2026-12-05", "entry_fee": "5", "currency": "EUR"})
    assert made.status_code == 302, _text(made.content.decode())[:600]
    t = Tournament.objects.get(name="Preis-Abend")
    assert (t.scoring, t.rank_points, t.tiebreaks, t.final_tables, t.confirm_results,
            t.date.isoformat(), str(t.entry_fee), t.currency) == (
        "combined", ["60", "40", "20", "0"], ["best_round", "lot"], 1, True, "2026-12-05",
        "5.0000", "EUR")


def test_a_wrong_choice_comes_back_at_its_field(phone, group):
    answer = phone.post(f"/groups/{group.pk}/tournaments/", {
        "name": "Preis-Abend", "game": GAME, "preset": "geiser", "rounds": "3",
        "round_ends": "game", "table_size": "4", "scoring": "combined", "rank_points": "",
        "draw": "random", "final_tables": "0", "date": "2026-12-05"})
    html = answer.content.decode()
    assert answer.status_code == 200
    assert re.search(r'id="error-rank_points"[^>]*>[^<]*required with combined scoring', html)
    assert not Tournament.objects.exists()


# --- the tournament page --------------------------------------------------------------------


def test_the_tournament_page_shows_its_own_settings(phone, group, anna):
    t = tournament(group, anna, players=0, rounds=3, round_ends="deals", deals_per_round=6,
                   draw="swiss", final_tables=1)
    text = _text(phone.get(f"/tournaments/{t.pk}/").content.decode())
    for said in ("Geiser", "3 rounds", "after 6 deals", "4 players a table",
                 "by the place at the table", "by standing (swiss)", "a final of 1 table"):
        assert said in text, said


def test_drawing_round_one_and_ending_ask_first(phone, group, anna):
    t = tournament(group, anna, players=4, rounds=1)
    page = f"/tournaments/{t.pk}/"
    html = phone.get(page).content.decode()
    assert re.search(r'<details class="confirm[^"]*">\s*<summary[^>]*>Draw round 1', html)
    phone.post(page, {"action": "draw"})
    assert not t.round_set.exists()  # not without the second tap
    phone.post(page, {"action": "draw", "confirmed": "yes"})
    assert t.round_set.count() == 1
    tour.round_close(tournament=t, number=1, force=True)
    html = phone.get(page).content.decode()
    assert re.search(r'<details class="confirm[^"]*">\s*<summary[^>]*>End the tournament',
                     html)
    phone.post(page, {"action": "end"})
    t.refresh_from_db()
    assert t.status == "playing"
    phone.post(page, {"action": "end", "confirmed": "yes"})
    t.refresh_from_db()
    assert t.status == "finished"


# --- the table's phone ----------------------------------------------------------------------


def test_a_finished_tables_phone_says_so_instead_of_offering_a_deal_form(group, anna):
    t = tournament(group, anna, players=4, rounds=2)
    table = drawn(t, anna).tables.get()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.get(f"/t/{table.code}/")
    assert 'id="deal-form"' in client.get(f"/sessions/{table.session_id}/").content.decode()
    finish_game(table.session, anna, seats(table.session)[0])
    html = client.get(f"/sessions/{table.session_id}/").content.decode()
    assert 'id="deal-form"' not in html
    assert "This table has finished its round" in _text(html)


# --- score slips ----------------------------------------------------------------------------


def test_score_slips_have_the_rows_the_round_can_need(phone, group, anna):
    t = tournament(group, anna, players=8, rounds=2, round_ends="deals", deals_per_round=3)
    drawn(t, anna)
    html = phone.get(f"/tournaments/{t.pk}/rounds/1/slips").content.decode()
    slips = html.split('<section class="slip"')[1:]
    assert len(slips) == 2
    for slip in slips:
        body = slip[slip.index("<tbody>"):slip.index("</tbody>")]
        numbered = re.findall(r'<td class="num">(\d+)</td>', body)
        assert numbered == ["1", "2", "3"]


# --- the screen -----------------------------------------------------------------------------


def test_the_screen_lists_the_registered_players_without_places_before_a_round_closes(
        group, anna):
    t = tournament(group, anna, players=4, rounds=2)
    html = Client().get(f"/screen/{t.screen_token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    ranking = html[html.index('id="screen-ranking"'):html.index('id="screen-live"')]
    assert all(name in ranking for name in NAMES[:4])
    assert "1." not in _text(ranking) and "0.00" not in ranking


def test_the_screen_marks_the_top_places_and_has_no_language_buttons_or_menu(group, anna):
    t = tournament(group, anna, players=8, rounds=2)
    for table in drawn(t, anna).tables.select_related("session"):
        finish_game(table.session, anna, seats(table.session)[0])
    tour.round_close(tournament=t, number=1)
    html = Client().get(f"/screen/{t.screen_token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="lang"' not in html and 'class="menu"' not in html
    tops = re.findall(r'<tr class="[^"]*\btop-(\d)\b', html)
    assert tops == ["1", "1"] + ["3"] * 6  # the two sweepers share place 1, the rest 3


def test_a_category_shows_on_the_screen_and_on_the_printed_ranking(phone, group, anna):
    t = tournament(group, anna, players=4, rounds=1)
    tour.entrant_change(tournament=t, name="Cilli", category="Damen")
    table = drawn(t, anna).tables.get()
    finish_game(table.session, anna, seats(table.session)[0])
    tour.round_close(tournament=t, number=1)
    screen = Client().get(f"/screen/{t.screen_token}/?category=Damen",
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()
    board = screen[screen.index('id="screen-ranking"'):screen.index('id="screen-live"')]
    assert "Cilli" in board and "Anna" not in board and "Damen" in board
    director = phone.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="http://testserver/screen/{t.screen_token}/?category=Damen"' in director
    printed = phone.get(f"/tournaments/{t.pk}/ranking/print?category=Damen").content.decode()
    lines = re.findall(r'<span class="final-name">([^<]+)</span>', printed)
    assert lines == ["Cilli"] and "Damen" in _text(printed)


def test_paid_and_category_are_one_tap_each_on_the_players_list(phone, group, anna):
    t = tournament(group, anna, players=2, entry_fee="5.00", currency="EUR")
    tour.entrant_change(tournament=t, name="Anna", category="Damen")
    page = f"/tournaments/{t.pk}/"
    phone.post(page, {"action": "paid", "name": "Bert", "paid": "yes"})
    phone.post(page, {"action": "category", "name": "Bert", "category": "Damen"})
    bert = Entrant.objects.get(tournament=t, player__name="Bert")
    assert bert.paid and bert.player.category == "Damen"
    phone.post(page, {"action": "category", "name": "Bert", "category": ""})
    bert.player.refresh_from_db()
    assert bert.player.category == ""


def test_a_finished_tables_phone_confirms_its_result_with_one_tap(phone, group, anna):
    t = tournament(group, anna, players=4, rounds=2, confirm_results=True)
    table = drawn(t, anna).tables.get()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.get(f"/t/{table.code}/")
    page = f"/sessions/{table.session_id}/"
    assert "confirm-names" not in client.get(page).content.decode()  # not finished yet
    finish_game(table.session, anna, seats(table.session)[0])
    html = client.get(page).content.decode()
    names = re.findall(r'<button name="player" value="([^"]+)"', html)
    assert names == seats(table.session)
    answer = client.post(f"/sessions/{table.session_id}/confirm", {"player": names[2]})
    assert answer.status_code == 302 and answer["Location"] == page
    table.refresh_from_db()
    assert table.confirmed_by == names[2]
    assert f"The result is confirmed by {names[2]}" in _text(client.get(page).content.decode())
    director = _text(phone.get(f"/tournaments/{t.pk}/").content.decode())
    assert f"confirmed by {names[2]}" in director
    # a name from elsewhere is refused in words, nothing kept
    refused = client.post(f"/sessions/{table.session_id}/confirm", {"player": "Zenzi"},
                          follow=True)
    assert "Zenzi is not seated at this table" in _text(refused.content.decode())
    table.refresh_from_db()
    assert table.confirmed_by == names[2]


def test_a_finished_table_of_a_tournament_without_confirmation_offers_none(group, anna):
    t = tournament(group, anna, players=4, rounds=2)
    table = drawn(t, anna).tables.get()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.get(f"/t/{table.code}/")
    finish_game(table.session, anna, seats(table.session)[0])
    html = client.get(f"/sessions/{table.session_id}/").content.decode()
    assert "data-table-finished" in html and "confirm-names" not in html
