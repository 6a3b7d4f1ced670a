"""The Hungarian UI and API (issue 6): Mura as Hungarian players say it, cards by their
Hungarian names, referee messages in Hungarian, and the language switch offering it."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from scorepad import services
from scorepad.cardnames import card_name, pack_choices

from .factories import group_with, played, record

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


def test_a_hungarian_pack_has_hungarian_card_names():
    with translation.override("hu"):
        assert card_name("hearts-ober", "hungarian32") == "Piros Felső"
        assert card_name("bells-unter", "hungarian32") == "Tök Alsó"
        assert card_name("acorns-king", "hungarian32") == "Makk Király"
        assert card_name("leaves-ace", "hungarian32") == "Zöld Ász"
        assert [name for _, name, _ in pack_choices("hungarian32")] == [
            "Piros", "Tök", "Zöld", "Makk"]


def test_the_german_and_french_packs_get_hungarian_names_too():
    with translation.override("hu"):
        assert card_name("hearts-ober", "german36") == "Piros Felső"
        assert card_name("spades-queen", "french52") == "Pikk Dáma"
        assert card_name("hearts-jack", "french52") == "Kőr Bubi"
        assert card_name("diamonds-ace", "french52") == "Káró Ász"
        assert card_name("clubs-king", "french52") == "Treff Király"


def test_a_mura_session_page_speaks_hungarian(phone, anna):
    session = services.session_start(group=group_with(anna, name="Mura"), user=anna,
                                     preset="mura", overrides=None, seats=SEATS, game="mura")
    html = phone.get(f"/sessions/{session.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert '<html lang="hu">' in html
    assert "Ütések" in html and "Figurák" in html and "Nullák" in html
    assert "Anna ütései" in html  # the stepper's label for the player's tricks
    assert "Tricks" not in html and "Figures" not in html


def test_a_mura_deal_on_the_board_says_mura_in_hungarian(phone, anna):
    session = services.session_start(group=group_with(anna, name="Mura"), user=anna,
                                     preset="mura", overrides=None, seats=SEATS, game="mura")
    data = {f"t_{i}": str(n) for i, n in enumerate([2, 3, 3, 0])}
    data |= {f"f_{i}": str(n) for i, n in enumerate([2, 9, 7, 0])} | {"number": "1"}
    phone.post(f"/sessions/{session.pk}/deals/new", data, HTTP_ACCEPT_LANGUAGE="hu")
    html = phone.get(f"/sessions/{session.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "mura 2" in html and "Utolsó osztások" in html


def test_a_mulatschak_trump_is_shown_by_its_name_not_its_code(phone, anna, table):
    record(table, anna, played("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1},
                               trump="bells"))
    hungarian = phone.get(f"/sessions/{table.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    german = phone.get(f"/sessions/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Anna 2 Tök" in " ".join(re.sub(r"<[^>]+>", "", hungarian).split())
    assert "Anna 2 Schelle" in " ".join(re.sub(r"<[^>]+>", "", german).split())


def test_the_beat_helper_names_french_cards_in_hungarian(phone, anna):
    session = services.session_start(group=group_with(anna, name="Matz"), user=anna,
                                     preset="muller_matz", overrides=None, seats=SEATS,
                                     game="muller_matz")
    html = phone.get(f"/sessions/{session.pk}/beat",
                     {"trump": "diamonds", "life": "1", "attack": "clubs-10",
                      "defense": "diamonds-2"}, HTTP_ACCEPT_LANGUAGE="hu",
                     follow=True).content.decode()
    assert "♠ Pikk" in html and 'aria-label="Pikk Dáma"' in html
    assert 'aria-label="Kőr Bubi"' in html
    assert "Igen: bármely adu üti azt a lapot, amely nem adu." in html


def test_a_referee_violation_comes_in_hungarian(api):
    body = {"players": SEATS, "tricks": dict(zip(SEATS, [2, 3, 3, 0], strict=True)),
            "figures": dict(zip(SEATS, [2, 9, 7, 2], strict=True))}
    response = api.post("/api/v1/referee/mura/deal", body, language="hu")
    assert response.status_code == 422
    messages = [v["message"] for v in response.json()["violations"]]
    assert "Dominik nem vitt ütést, így figurája sem lehet." in messages


def test_a_mulatschak_violation_names_the_hungarian_trump(api):
    body = {"rules": "salzburg", "players": SEATS, "dealer": "Dominik",
            "deal": {"kind": "played", "declarer": "Bert", "bid": 3, "trump": "hearts",
                     "stayed_home": ["Cilli"], "tricks": {"Anna": 1, "Bert": 3, "Dominik": 1}}}
    response = api.post("/api/v1/referee/mulatschak/deal", body, language="hu")
    assert response.status_code == 422
    messages = [v["message"] for v in response.json()["violations"]]
    assert "Piros az adu — senki sem maradhat ki, így Cilli is játszik." in messages


def test_the_language_switch_offers_and_sets_hungarian(phone):
    html = phone.get("/").content.decode()
    assert 'name="language" value="hu" title="Magyar"' in html
    response = phone.post("/i18n/setlang/", {"language": "hu", "next": "/sessions/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "hu"
    html = phone.get("/sessions/").content.decode()
    assert '<html lang="hu">' in html and "Játszmák" in html and "Kijelentkezés" in html
