"""The director's pages (making a tournament, registering at the door with one field,
drawing, following the tables, closing, ending), the printable seating plan, and the
public screen, in German, English and Hungarian."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import games
from scorepad.models import Tournament

from .factories import group_with, member, user
from .tournament_play import finish_game, seats

pytestmark = pytest.mark.django_db

GAME = [g for g in games.for_tournaments() if games.get(g).TOURNAMENT.ends_with_game][0]


@pytest.fixture
def group(anna):
    return group_with(anna)


def _made(phone, group):
    answer = phone.post(f"/groups/{group.pk}/tournaments/", {
        "name": "Preis-Abend", "game": GAME, "preset": "geiser", "rounds": "2",
        "round_ends": "game", "table_size": "4", "scoring": "placement", "draw": "random"})
    assert answer.status_code == 302
    return Tournament.objects.get(name="Preis-Abend")


def test_a_director_makes_a_tournament_and_registers_players_with_one_field(phone, group):
    t = _made(phone, group)
    page = f"/tournaments/{t.pk}/"
    for name in ("Anna", "Bert", "Cilli", "Dominik", "Erna"):
        assert phone.post(page, {"action": "register", "name": name})["Location"].endswith(
            "#register")
    html = phone.get(page).content.decode()
    assert 'autofocus' in html and 'name="name"' in html
    assert all(n in html for n in ("Anna", "Bert", "Cilli", "Dominik", "Erna"))
    again = phone.post(page, {"action": "register", "name": "anna"}, follow=True)
    assert "already registered" in again.content.decode()
    phone.post(page, {"action": "withdraw", "name": "Erna"})
    phone.post(page, {"action": "draw", "confirmed": "yes"})
    html = phone.get(page).content.decode()
    assert "Table 1" in html and "Close the round" in html
    table = t.round_set.get().tables.get()
    plan = phone.get(f"/tournaments/{t.pk}/rounds/1/plan").content.decode()
    assert "<svg" in plan and table.code in plan and "seat 1" in plan
    refused = phone.post(page, {"action": "close", "round": "1"}, follow=True)
    assert "still playing" in refused.content.decode()
    phone.post(page, {"action": "force", "round": "1"})
    assert t.round_set.get().status == "closed"
    phone.post(page, {"action": "end", "confirmed": "yes"})
    t.refresh_from_db()
    assert t.status == "finished"


def test_the_tables_part_follows_the_round_live(phone, group, anna):
    t = _made(phone, group)
    for name in ("Anna", "Bert", "Cilli", "Dominik"):
        phone.post(f"/tournaments/{t.pk}/", {"action": "register", "name": name})
    phone.post(f"/tournaments/{t.pk}/", {"action": "draw", "confirmed": "yes"})
    session = t.round_set.get().tables.get().session
    finish_game(session, anna, seats(session)[2])
    part = phone.get(f"/tournaments/{t.pk}/tables").content.decode()
    assert "finished" in part and "20.00" in part


def test_each_live_table_links_the_director_to_its_slip_entry(phone, group):
    """A table that writes on paper: the director's live list leads to entering its slip,
    on the page and in the polled part; a viewer gets no such link."""
    t = _made(phone, group)
    for name in ("Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz", "Gerti", "Hans"):
        phone.post(f"/tournaments/{t.pk}/", {"action": "register", "name": name})
    phone.post(f"/tournaments/{t.pk}/", {"action": "draw", "confirmed": "yes"})
    for address in (f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/tables"):
        html = phone.get(address, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        for number in (1, 2):
            link = f'href="/tournaments/{t.pk}/rounds/1/tables/{number}/slip" data-slip-entry'
            assert link in html, address
        assert html.count("Enter from the slip") == 2
    slip = phone.get(f"/tournaments/{t.pk}/rounds/1/tables/2/slip")
    assert slip.status_code == 200
    de = phone.get(f"/tournaments/{t.pk}/tables", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Vom Schreibzettel eintragen" in de
    viewer = user("vera")
    member(group, viewer, "viewer")
    client = Client()
    client.force_login(viewer)
    assert "data-slip-entry" not in client.get(f"/tournaments/{t.pk}/").content.decode()


def test_a_viewer_sees_the_page_but_no_codes_and_cannot_direct(phone, group):
    t = _made(phone, group)
    for name in ("Anna", "Bert", "Cilli", "Dominik"):
        phone.post(f"/tournaments/{t.pk}/", {"action": "register", "name": name})
    phone.post(f"/tournaments/{t.pk}/", {"action": "draw", "confirmed": "yes"})
    viewer = user("vera")
    member(group, viewer, "viewer")
    client = Client()
    client.force_login(viewer)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    code = t.round_set.get().tables.get().code
    assert code[:10] not in html and "Close the round" not in html
    assert client.post(f"/tournaments/{t.pk}/",
                       {"action": "draw", "confirmed": "yes"}).status_code == 403
    assert client.get(f"/tournaments/{t.pk}/rounds/1/plan").status_code == 403


@pytest.mark.parametrize(("language", "word"), [("de", "Spieler"), ("hu", "Játékosok"),
                                                ("en", "Players")])
def test_the_screen_speaks_each_language(phone, group, language, word):
    """Before a round is closed the screen lists its players (in its language)."""
    t = _made(phone, group)
    html = Client().get(f"/screen/{t.screen_token}/",
                        HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert word in html and 'name="viewport"' in html


@pytest.mark.parametrize(("language", "words"), [
    ("en", "without names"), ("de", "ohne Namen"), ("hu", "nevek nélkül")])
def test_the_director_reads_beside_the_hiding_what_it_hides(phone, group, language, words):
    t = _made(phone, group)
    html = phone.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    form = html[html.index('name="hide"'):]
    assert words in form[:form.index("</p>")]  # the line right after the form
