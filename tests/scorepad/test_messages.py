"""Every violation the referee can report reads as a whole sentence: for each place that
makes a violation a game can meet (the referee modules its package imports, and the
package), some template of its code in that game's words is filled by exactly the
parameters given there (a missing one used to print "?", a missing player a sentence
starting with a blank)."""

from __future__ import annotations

import pytest

from referee.violations import Violation
from scorepad import games
from scorepad.messages import _fields, violation_message
from tests.codes import app_sources, game_sources, sites


def _sites() -> list[tuple[str, str, bool, frozenset[str]]]:
    """(game, where, code, names a player, parameter names) of every place that makes a
    violation with a literal code, for each registered game (the app's own places: every
    game's)."""
    out = []
    for game in games.registered():
        for site in sites(*game_sources(game), *app_sources()):
            out.append((game.NAME, site.where, site.code, site.player, site.params))
    return out


SITES = _sites()


def test_the_scan_finds_the_violations():
    assert len(SITES) > 60
    assert {"players_count", "wrong_number_of_plays", "card_not_in_pack"} <= {
        code for _g, _w, code, _p, _k in SITES}
    assert ("mura", "figures_sum") in {(g, code) for g, _w, code, _p, _k in SITES}
    assert ("mulatschak", "figures_sum") not in {(g, code) for g, _w, code, _p, _k in SITES}


@pytest.mark.parametrize(("game", "where", "code", "player", "params"), SITES,
                         ids=[f"{g}-{w}-{c}" for g, w, c, _p, _k in SITES])
def test_every_violation_site_has_a_template_it_fills(game, where, code, player, params):
    words = games.get(game).WORDING.merged
    assert code in words.codes, f"{where}: no message for {code} in {game}'s words"
    given = set(params) | ({"player"} if player else set())
    templates = [*words.variants.get(code, []), words.codes[code]]
    assert any(_fields(t) <= given for t in templates), (
        f"{where}: {code} gives {sorted(given)}; templates need "
        f"{[sorted(_fields(t)) for t in templates]}")


@pytest.mark.parametrize(("game", "violation", "text"), [
    ("mura", Violation.of("players_count", expected=4, actual=3),
     "This game is for exactly 4 players, not 3."),
    ("muller_matz", Violation.of("players_count", actual=1, min=2, max=10),
     "This game is for 2 to 10 players, not 1."),
    ("mura", Violation.of("wrong_number_of_plays", trick=2, cards=3, expected=4),
     "Trick 2 needs 4 cards, one from each player; it has 3."),
    ("mura", Violation.of("wrong_number_of_plays", tricks=1, expected=8),
     "1 of 8 tricks entered."),
    ("mulatschak", Violation.of("wrong_number_of_plays", "Anna", play=3),
     "Anna played the wrong number of cards."),
])
def test_the_variant_that_fits_the_parameters_is_used(game, violation, text):
    assert violation_message(violation, games.get(game).WORDING) == text


def test_the_api_words_a_mura_table_of_three_and_a_short_trick(client):
    answer = client.post("/api/v1/referee/mura/deal", {
        "players": ["A", "B", "C"], "tricks": {"A": 8, "B": 0, "C": 0},
        "figures": {"A": 16, "B": 0, "C": 0}}, content_type="application/json")
    assert answer.status_code == 422, answer.content
    messages = {v["code"]: v["message"] for v in answer.json()["violations"]}
    assert messages["players_count"] == "This game is for exactly 4 players, not 3."
    answer = client.post("/api/v1/referee/mura/deal", {
        "players": ["A", "B", "C", "D"],
        "trick_cards": [{"leader": "A", "cards": {"A": "hearts-7", "B": "hearts-8",
                                                  "C": "hearts-9"}}]},
        content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 422, answer.content
    texts = [v["message"] for v in answer.json()["violations"]
             if v["code"] == "wrong_number_of_plays"]
    assert texts and all("?" not in t and not t.startswith(" ") for t in texts), texts
