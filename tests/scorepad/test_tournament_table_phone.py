"""A tournament table's phone in the browser without an account (scorepad/tablephone.py):
the seating plan's QR code opens its own table's session page and nothing else, its code
ends with the round, a wrong code is a clear 404, and codes cannot be guessed."""

from __future__ import annotations

import json
import re
import string

import pytest
from django.test import Client

from scorepad import accounts, games, tablephone
from scorepad.access import TableUser
from scorepad.models import Deal, IdempotencyKey, TournamentTable
from scorepad.tournaments import services as tour
from scorepad.views.common import qr_svg

from .factories import group_with, user
from .tournament_play import drawn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    director = user("anna")
    group = group_with(director, "Gasthaus Ried")
    t = tournament(group, director, players=8, rounds=2)
    the_round = drawn(t, director)
    tables = list(TournamentTable.objects.filter(round=the_round).order_by("number"))
    return {"director": director, "group": group, "tournament": t, "round": the_round,
            "tables": tables}


def _phone(table: TournamentTable) -> Client:
    """A phone without an account that opened the table's QR code."""
    client = Client()
    answer = client.get(f"/t/{table.code}/")
    assert answer.status_code == 302
    assert answer["Location"] == f"/sessions/{table.session_id}/"
    return client


def _collapsed(client: Client, table: TournamentTable, number: int, **headers):
    return client.post(f"/sessions/{table.session_id}/deals/new",
                       {"kind": "collapsed", "number": str(number),
                        "idempotency_key": f"key-{number}"}, **headers)


def test_the_seating_plans_qr_code_is_the_tables_address(evening):
    director = Client()
    director.force_login(evening["director"])
    t, the_round = evening["tournament"], evening["round"]
    html = director.get(f"/tournaments/{t.pk}/rounds/{the_round.number}/plan").content.decode()
    for table in evening["tables"]:
        url = f"http://testserver/t/{table.code}/"
        assert f'href="{url}"' in html
        assert qr_svg(url) in html  # the QR code says the address, not the bare code
        assert qr_svg(table.code) not in html


def test_a_table_phone_sees_its_table_with_seats_and_records_without_an_account(evening):
    table = evening["tables"][0]
    phone = _phone(table)
    page = phone.get(f"/sessions/{table.session_id}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    names = list(table.session.seats.order_by("position").values_list("player__name",
                                                                      flat=True))
    assert "Table 1 · Round 1" in html
    for seat, name in enumerate(names, 1):
        assert f"Seat {seat}: {name}" in html
    assert f'action="/sessions/{table.session_id}/deals/new"' in html
    # nothing of the group: no navigation, no history, no watch link, no closing
    for other in (f"/groups/{evening['group'].pk}/", "/sessions/\"", "/history",
                  "watch-link", "/status", "/me/stats/", "/accounts/logout/"):
        assert other not in html, other
    assert _collapsed(phone, table, 1).status_code == 302
    assert Deal.objects.filter(session=table.session).count() == 1
    assert phone.get(f"/sessions/{table.session_id}/board").status_code == 200
    # Undo: the deal just recorded is deleted by the same phone
    assert phone.post(f"/sessions/{table.session_id}/deals/1/delete").status_code == 302
    assert Deal.objects.filter(session=table.session).count() == 0


#: Addresses a table's phone may be shown besides its own session's pages of play: the
#: site's start, the language switch, the manifest, static files and leaving the table.
SITE = re.compile(r"^(/|/i18n/setlang/|/manifest\.webmanifest|/static/.*|/t/leave)$")


@pytest.mark.parametrize("game", [
    g for g in games.for_tournaments() if games.get(g).TOURNAMENT.ends_with_game][:1] + [
    g for g in games.for_tournaments() if not games.get(g).TOURNAMENT.ends_with_game][:1])
def test_a_table_phone_sees_the_tournaments_name_and_no_link_into_the_group(game):
    """The scoreboard's title and the page's title name the tournament; the group's name
    is nowhere, and every address on the page is the table's own or the site's."""
    director = user("anna")
    group = group_with(director, "Gasthaus Ried")
    kw = {} if games.get(game).TOURNAMENT.ends_with_game else {
        "round_ends": "deals", "deals_per_round": 4, "preset": game}
    t = tournament(group, director, players=8, rounds=2, game=game, **kw)
    table = drawn(t, director).tables.get(number=1)
    phone = _phone(table)
    own = re.compile(rf"^/sessions/{table.session_id}/"
                     r"(|\?mode=\w+|board|check|fresh\?number=\d+|deals/new|deals/\d+/(edit|delete))$")
    for address in (f"/sessions/{table.session_id}/", f"/sessions/{table.session_id}/board"):
        html = phone.get(address, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Gasthaus Ried" not in html, address
        assert re.search(r'class="group-name">Preisschnapsen</span>', html), address
        links = re.findall(r'(?:href|action|hx-get|hx-post|src)="([^"]*)"', html)
        assert links, address
        for link in links:
            assert own.match(link) or SITE.match(link), link
    page = phone.get(f"/sessions/{table.session_id}/").content.decode()
    assert re.search(r"<title>\s*Preisschnapsen · Schreiber\s*</title>", page)
    # the group's members still see their group's name over the same table
    director_phone = Client()
    director_phone.force_login(director)
    html = director_phone.get(f"/sessions/{table.session_id}/").content.decode()
    assert 'class="group-name">Gasthaus Ried</span>' in html


def test_a_repeated_form_post_records_once_under_the_table(evening):
    table = evening["tables"][0]
    phone = _phone(table)
    assert _collapsed(phone, table, 1).status_code == 302
    assert _collapsed(phone, table, 1).status_code == 302  # the same key again
    assert Deal.objects.filter(session=table.session).count() == 1
    kept = IdempotencyKey.objects.get()
    assert kept.user_id == evening["director"].pk and kept.key.startswith(f"table{table.pk}:")


def test_a_table_code_opens_only_its_own_table(evening):
    first, second = evening["tables"][:2]
    phone = _phone(first)
    assert phone.get(f"/sessions/{second.session_id}/").status_code == 302  # to the login
    assert _collapsed(phone, second, 1).status_code == 302
    assert Deal.objects.filter(session=second.session).count() == 0
    assert phone.get(f"/sessions/{second.session_id}/board").status_code == 302
    # the second's code on the same phone opens the second, and only it
    assert phone.get(f"/t/{second.code}/").status_code == 302
    assert phone.get(f"/sessions/{second.session_id}/").status_code == 200
    assert phone.get(f"/sessions/{first.session_id}/").status_code == 302


@pytest.mark.parametrize("url", ["/", "/groups/", "/sessions/", "/me/stats/", "/accounts/",
                                 "/groups/{group}/", "/groups/{group}/sessions/",
                                 "/groups/{group}/tournaments/", "/tournaments/{t}/",
                                 "/sessions/{s}/history", "/sessions/{s}/settlement",
                                 "/sessions/{s}/sheet", "/sessions/{s}/referee/",
                                 "/sessions/{s}/about", "/api/v1/groups/",
                                 "/api/v1/sessions/{s}/", "/api/v1/tournaments/{t}/"])
def test_other_addresses_answer_a_table_phone_as_anybody_not_logged_in(evening, url):
    table = evening["tables"][0]
    url = url.format(group=evening["group"].pk, t=evening["tournament"].pk,
                     s=table.session_id)
    phone = _phone(table)
    assert phone.get(url).status_code == Client().get(url).status_code


def test_the_phone_keeps_its_deals_under_its_own_table(evening):
    first, second = evening["tables"][:2]
    owners = {accounts.phone_owner(user=tablephone.user_of(t)) for t in (first, second)}
    owners.add(accounts.phone_owner(user=evening["director"]))
    assert len(owners) == 3 and "" not in owners
    html = _phone(first).get(f"/sessions/{first.session_id}/").content.decode()
    assert f'data-account="{accounts.phone_owner(user=tablephone.user_of(first))}"' in html
    # a deal kept for the other table's phone is not sent under this one
    answer = _collapsed(_phone(first), first, 1, HTTP_X_SCHREIBER_OWNER="someone else")
    assert Deal.objects.filter(session=first.session).count() == 0, answer.status_code


def test_the_code_ends_when_the_round_closes(evening):
    table = evening["tables"][0]
    phone = _phone(table)
    assert _collapsed(phone, table, 1).status_code == 302
    tour.round_close(tournament=evening["tournament"], number=1, force=True)
    for language, words in (("en", "Round 1 is closed"), ("de", "Runde 1 ist beendet"),
                            ("hu", "1. forduló lezárult")):
        page = phone.get(f"/sessions/{table.session_id}/", HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 410
        assert words in page.content.decode()
    assert _collapsed(phone, table, 2).status_code == 410
    # the outbox's send (htmx headers) is refused in words, not by an HTTP status
    sent = _collapsed(phone, table, 2, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="table",
                      HTTP_ACCEPT_LANGUAGE="de")
    refused = json.loads(sent["HX-Trigger"])["schreiber:refused"]
    assert refused["kind"] == "illegal" and "Runde 1 ist beendet" in refused["reasons"][0]
    assert Deal.objects.filter(session=table.session).count() == 1
    # the open page's polled scoreboard says so, and polls no more
    board = phone.get(f"/sessions/{table.session_id}/board", HTTP_HX_REQUEST="true",
                      HTTP_HX_TARGET="scoreboard", HTTP_ACCEPT_LANGUAGE="en")
    assert board.status_code == 200 and "Round 1 is closed" in board.content.decode()
    assert "hx-get" not in board.content.decode()
    again = Client().get(f"/t/{table.code}/", HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 410 and "Round 1 is closed" in again.content.decode()
    assert tour.table_by_code(table.code) is None


@pytest.mark.parametrize("code", ["nope", "x" * 43, "a" * 200, "../../etc", "%00"])
def test_a_wrong_code_is_a_clear_404(evening, code):
    answer = Client().get(f"/t/{code}/", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 404
    typed = Client().post("/t/", {"code": code}, HTTP_ACCEPT_LANGUAGE="en")
    assert typed.status_code == 404
    assert "There is no table with this code" in typed.content.decode()


def test_a_code_can_be_typed_or_pasted(evening):
    table = evening["tables"][1]
    form = Client().get("/t/", HTTP_ACCEPT_LANGUAGE="de")
    assert form.status_code == 200 and 'name="code"' in form.content.decode()
    for typed in (table.code, f"  {table.code} ", f"https://example.org/t/{table.code}/"):
        answer = Client().post("/t/", {"code": typed})
        assert answer.status_code == 302 and answer["Location"] == f"/t/{table.code}/"


def test_a_forged_cookie_opens_nothing(evening):
    table = evening["tables"][0]
    phone = Client()
    phone.cookies[tablephone.COOKIE] = table.code  # unsigned
    assert phone.get(f"/sessions/{table.session_id}/").status_code == 302


def test_table_codes_cannot_be_guessed(evening):
    """256 bits: no limit on typing codes is needed (scorepad/tablephone.py)."""
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for table in evening["tables"]:
        assert len(table.code) >= 43 and set(table.code) <= alphabet
    assert len({t.code for t in evening["tables"]}) == len(evening["tables"])


def test_a_table_user_is_nobody_in_the_group(evening):
    table = evening["tables"][0]
    who = tablephone.user_of(table)
    assert isinstance(who, TableUser)
    from scorepad.access import role_in
    assert role_in(who, evening["group"]) is None
    assert re.fullmatch(r"[0-9a-f]{24}", accounts.phone_owner(user=who))
