"""The evening's card (docs/using.md, "The evening's card"): a PNG 1080 px wide, light and
dark, in German, English and Hungarian, for every game; every name drawn whole (measured,
never cut), for the members and by watch link."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from PIL import Image

from scorepad import card, services, sharing
from scorepad.models import Session

from .factories import group_with, member, played, record, user

pytestmark = pytest.mark.django_db

LONG = "Maximilian Ferdinand Őrsűlyné-Überbacher"  # 40 characters, the most a name has
NAMES = ["Jürgen", "Őrs Űrsula", LONG, "Anna"]
LANGUAGES = ["de", "en", "hu"]
THEMES = ["light", "dark"]
#: Words of each language that the card of each game says.
WORDS = {"mulatschak": {"de": "Punkte", "en": "points", "hu": "pont"},
         "mura": {"de": "Null", "en": "zero", "hu": "nulla"},
         "muller_matz": {"de": "verloren", "en": "lost", "hu": "elvesztett"}}


def _evening(anna: Any, game: str) -> Session:
    group = group_with(anna, name="Stammtisch Őrség")
    if game == "mulatschak":
        session = services.session_start(group=group, user=anna, preset="salzburg",
                                         seats=NAMES, dealer="Anna", stake="0.10",
                                         currency="EUR", name="Kirtag bei Hőfer")
        record(session, anna, played(LONG, {"Jürgen": 1, "Őrs Űrsula": 1, LONG: 2,
                                            "Anna": 1}, trump="hearts"))
        record(session, anna, played("Jürgen", {"Jürgen": 5, "Őrs Űrsula": 0, LONG: 0,
                                                "Anna": 0}, bid=5))
        return session
    if game == "mura":
        session = services.session_start(group=group, user=anna, preset="mura", seats=NAMES,
                                          game="mura", stake="0.50", currency="EUR")
        record(session, anna, {"tricks": dict(zip(NAMES, [2, 3, 3, 0], strict=True)),
                               "figures": dict(zip(NAMES, [2, 9, 7, 0], strict=True))})
        return session
    session = services.session_start(group=group, user=anna, preset="muller_matz",
                                      seats=NAMES, game="muller_matz")
    record(session, anna, {"finish_order": ["Anna", LONG, "Őrs Űrsula", "Jürgen"]})
    record(session, anna, {"loser": LONG})
    return session


def _names_drawn(drawn: list[card.Drawn]) -> list[str]:
    """Each name as drawn: the lines of one name (a run of them), joined; a wrap breaks a
    name between words, where the blank goes, or inside a word, so blanks are left out."""
    runs: list[list[str]] = []
    previous = None
    for item in drawn:
        if item.role == "name":
            if previous != "name":
                runs.append([])
            runs[-1].append(item.text)
        previous = item.role
    return ["".join(run).replace(" ", "") for run in runs]


@pytest.mark.parametrize("game", ["mulatschak", "mura", "muller_matz"])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("theme", THEMES)
def test_the_card_is_drawn_whole_for_every_game_language_and_theme(anna, game, language,
                                                                   theme):
    session = _evening(anna, game)
    with translation.override(language):
        words = card.content(session)
        data, drawn = card.render(words, theme)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.width == card.WIDTH
    assert 600 <= image.height <= 3000
    background = image.convert("RGB").getpixel((5, 5))
    assert (sum(background) > 600) is (theme == "light")
    # every text inside the picture, none beyond its margins
    for item in drawn:
        x0, y0, x1, y1 = item.box
        assert x0 > 0 and x1 <= card.WIDTH - card.MARGIN + 2, item
        assert y0 > 0 and y1 < image.height, item
    # every name whole, in its full Unicode: the lines drawn give it back exactly
    assert sorted(_names_drawn(drawn)) == sorted(n.replace(" ", "") for n in NAMES)
    assert [item.text for item in drawn if item.role == "name"].count("Jürgen") == 1
    assert WORDS[game][language] in card.text(words)


def test_a_long_name_is_drawn_smaller_or_over_lines_but_never_cut():
    font, lines = card.fitted(LONG * 2, bold=True, size=56, width=500)
    assert "".join(lines).replace(" ", "") == (LONG * 2).replace(" ", "")
    assert all(font.getlength(line) <= 500 for line in lines)
    font, lines = card.fitted("Anna", bold=True, size=56, width=500)
    assert lines == ["Anna"] and font.size == 56


def test_the_card_tells_the_evening_s_muli_multiplier_and_transfers(anna):
    session = _evening(anna, "mulatschak")
    text = card.text(card.content(session))
    assert "Kirtag bei Hőfer" in text and "Stammtisch Őrség" in text
    assert "Muli made: Jürgen (deal 2)" in text
    assert f"Biggest multiplier: ×2 (deal 1, {LONG})" in text
    assert "Who pays whom\nNobody owes anybody anything." in text  # no game over yet
    mura = card.text(card.content(_evening(anna, "mura")))
    assert f"Who pays whom\nJürgen → Őrs Űrsula  €1.06\nJürgen → {LONG}  €1.06" in mura


def test_the_api_draws_it_for_members_in_their_language_and_theme(anna):
    session = _evening(anna, "mura")
    client = Client()
    client.force_login(anna)
    url = f"/api/v1/sessions/{session.pk}/card.png"
    answer = client.get(url + "?theme=dark&lang=hu")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(answer.content))
    assert image.width == 1080 and sum(image.convert("RGB").getpixel((5, 5))) < 200
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content
    assert german != english
    assert client.get(url, HTTP_ACCEPT="image/png").status_code == 200


def test_strangers_get_no_card_but_a_watch_link_shows_it(anna):
    session = _evening(anna, "muller_matz")
    stranger = Client()
    stranger.force_login(user("zenzi"))
    assert stranger.get(f"/api/v1/sessions/{session.pk}/card.png").status_code == 404
    token = sharing.watch_link_create(session=session)
    answer = Client().get(f"/api/v1/watch/{token}/card.png")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    sharing.watch_link_revoke(session=session)
    assert Client().get(f"/api/v1/watch/{token}/card.png").status_code == 404


def test_a_new_deal_draws_a_new_card(anna):
    session = _evening(anna, "muller_matz")
    client = Client()
    client.force_login(anna)
    url = f"/api/v1/sessions/{session.pk}/card.png"
    before = client.get(url).content
    record(session, anna, {"loser": "Anna"})
    assert client.get(url).content != before


def test_the_share_page_offers_the_picture_and_the_text(anna, phone):
    session = _evening(anna, "mulatschak")
    bert = user("bert")
    member(session.group, bert, "viewer")
    viewer = Client()
    viewer.force_login(bert)
    page = viewer.get(reverse("scorepad:session_card", args=[session.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "data-share-card=" in page and "Den Abend teilen" in page
    assert f'="/sessions/{session.pk}/card.png?lang=de"' in page
    assert "Muli geschafft: Jürgen" in page
    session_page = phone.get(reverse("scorepad:session", args=[session.pk])).content.decode()
    assert reverse("scorepad:session_card", args=[session.pk]) in session_page


#: A card's line that says nothing: a count of none ("0 games won", "(0 zeros)").
SAYS_NOTHING = r"(^|\()0\s"


@pytest.mark.parametrize("game", ["mulatschak", "mura", "muller_matz"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_card_leaves_out_the_lines_that_count_none(anna, game, language):
    import re

    session = _evening(anna, game)
    with translation.override(language):
        words = card.content(session)
        told = card.text(words)
    assert not [line for line in told.splitlines() if re.search(SAYS_NOTHING, line)], told


@pytest.mark.parametrize(("language", "one"), [("en", "1 point"), ("de", "1 Punkt"),
                                               ("hu", "1 pont")])
def test_the_card_counts_one_point_in_the_singular(anna, language, one):
    group = group_with(anna)
    session = services.session_start(group=group, user=anna, preset="salzburg",
                                      overrides={"start_score": 5, "no_bid_at_or_below": None},
                                      seats=NAMES[:3] + ["Anna"], dealer="Anna")
    record(session, anna, played("Jürgen", {"Jürgen": 4, "Őrs Űrsula": 1, LONG: 0,
                                            "Anna": 0}))  # Jürgen: 5 − 4
    with translation.override(language):
        words = card.content(session)
    figures = [figure for _name, figure, _detail in words.standings]
    assert one in figures and f"{one}s" not in figures, figures


@pytest.mark.parametrize(("language", "amount"), [("de", "1,06\xa0€"), ("hu", "1,06\xa0€"),
                                                  ("en", "€1.06")])
def test_the_cards_transfers_write_money_in_the_cards_language(anna, language, amount):
    session = _evening(anna, "mura")
    with translation.override(language):
        transfers = card.content(session).transfers
    assert transfers[0] == f"Jürgen → Őrs Űrsula  {amount}"
    assert not any("EUR" in line for line in transfers)
