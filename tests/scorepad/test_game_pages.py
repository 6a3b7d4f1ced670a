"""The Mura and Müller Matz pages: scoreboard, deal entry, settlement, the beat helper."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import sharing
from scorepad.models import Deal

from .factories import game_start

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]




def mura_form(tricks, figures, **more):
    data = {f"t_{i}": str(n) for i, n in enumerate(tricks)}
    data |= {f"f_{i}": str(n) for i, n in enumerate(figures)}
    return data | more


def test_a_mura_session_page_shows_the_tally_and_the_form(phone, anna):
    session = game_start(anna, "mura", stake="0.20", currency="EUR")
    html = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert "Mura" in html and 'name="t_0"' in html and 'name="f_3"' in html
    assert "/settlement" in html


def test_the_mura_live_check_names_the_problem_next_to_the_player(phone, anna):
    session = game_start(anna, "mura")
    html = phone.post(f"/sessions/{session.pk}/check",
                      mura_form([2, 3, 3, 0], [2, 9, 7, 2]),
                      HTTP_HX_REQUEST="true", HTTP_HX_TARGET="deal-form").content.decode()
    assert "Dominik took no trick and cannot have figures." in html
    assert "<html" not in html


def test_a_mura_deal_is_saved_and_tallied(phone, anna):
    session = game_start(anna, "mura", stake="0.20", currency="EUR", dealer="Dominik")
    phone.post(f"/sessions/{session.pk}/deals/new",
               mura_form([2, 3, 3, 0], [2, 9, 7, 0], number="1"))
    assert Deal.objects.count() == 1
    html = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert "mura 2" in html
    money = phone.get(f"/sessions/{session.pk}/settlement").content.decode()
    assert "Anna</strong> → " in money and "€" in money


def test_the_mura_trick_stepper_stops_at_eight(phone, anna):
    session = game_start(anna, "mura")
    html = phone.post(f"/sessions/{session.pk}/check",
                      mura_form([2, 3, 3, 0], [2, 9, 7, 0], step="t3:+1")).content.decode()
    assert 'name="t_3" min="0" max="8" inputmode="numeric" value="0"' in html


def test_a_muller_matz_loser_is_one_tap(phone, anna):
    session = game_start(anna, "muller_matz", stake="1", currency="EUR")
    phone.post(f"/sessions/{session.pk}/deals/new", {"loser": "Cilli", "number": "1"})
    html = phone.get(f"/sessions/{session.pk}/").content.decode()
    assert "Cilli is the Müller Matz" in html
    session.refresh_from_db()
    assert session.state["losses"][str(session.seats.get(position=2).player_id)] == 1


def test_correcting_a_muller_matz_game(phone, anna):
    session = game_start(anna, "muller_matz")
    phone.post(f"/sessions/{session.pk}/deals/new", {"loser": "Cilli"})
    assert phone.get(f"/sessions/{session.pk}/deals/1/edit").status_code == 200
    phone.post(f"/sessions/{session.pk}/deals/1/edit", {"loser": "Bert"})
    assert Deal.objects.get().result["loser"] == str(session.seats.get(position=1).player_id)


def test_the_beat_helper_answers_with_the_reason(phone, anna):
    session = game_start(anna, "muller_matz")
    html = phone.get(f"/sessions/{session.pk}/beat",
                     {"trump": "diamonds", "life": "1", "attack": "clubs-10",
                      "defense": "diamonds-2"}, follow=True).content.decode()
    assert "Yes: any trump beats a card that is not a trump." in html


def test_a_mura_session_can_be_watched(anna):
    session = game_start(anna, "mura")
    token = sharing.watch_link_create(session=session)
    assert Client().get(f"/watch/{token}/").status_code == 200
    assert Client().get(f"/watch/{token}/board").status_code == 200


def test_the_history_of_a_mura_session_lists_counts(phone, anna):
    session = game_start(anna, "mura")
    phone.post(f"/sessions/{session.pk}/deals/new", mura_form([2, 3, 3, 0], [2, 9, 7, 0]))
    html = phone.get(f"/sessions/{session.pk}/history").content.decode()
    assert "Anna 2/2" in html


def test_a_mura_session_with_a_stake_starts_from_the_web_form(phone):
    response = phone.post("/sessions/new/", {
        "game": "mura", "preset": "salzburg", "new_group": "Kocsma", "seat_0": "Anna",
        "seat_1": "Bert", "seat_2": "Cilli", "seat_3": "Dominik", "dealer": "3",
        "stake": "0.50", "currency": "EUR"})
    assert response.status_code == 302, response.content.decode()[:2000]
    from scorepad.models import Session

    session = Session.objects.get()
    assert (session.game, session.preset, str(session.stake), session.currency) == (
        "mura", "mura", "0.5000", "EUR")


def test_a_bad_stake_on_the_web_form_is_shown_next_to_it(phone):
    response = phone.post("/sessions/new/", {
        "game": "muller_matz", "preset": "salzburg", "new_group": "G", "seat_0": "Anna",
        "seat_1": "Bert", "stake": "0.505", "currency": "EUR"})
    assert response.status_code == 200
    assert "decimal places" in response.content.decode()
