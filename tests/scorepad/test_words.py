"""Each game brings its own words (docs/games.md): a sentence for every code its rules
report, and the meaning of every parameter of its rules. A game that lacks one fails here,
named with what it lacks (there is no fallback: no "Rule broken: <code>", no empty help).
The words every game shares (``messages.SHARED``) are those more than one game needs."""

from __future__ import annotations

import pytest

from scorepad import games
from scorepad.messages import SHARED, Wording
from tests.codes import app_sources, game_sources, reported_codes
from tests.gamesetting import with_games
from tests.words import codes_of, missing_help, missing_words

TOY = "tests.toygame"


def test_every_code_of_every_game_has_its_words():
    assert missing_words() == []


def test_every_code_of_the_toy_game_has_its_words():
    with with_games(TOY):
        assert {"nobody_lost", "winner_listed_twice"} <= codes_of(games.get("high_card"))
        assert missing_words() == []


def test_every_parameter_of_every_game_has_its_help():
    with with_games(TOY):
        assert missing_help() == []
    assert len(games.get("mulatschak").RULE_HELP) > 40


def test_a_code_without_words_is_named(monkeypatch):
    with with_games(TOY):
        toy = games.get("high_card")
        monkeypatch.setattr(toy, "WORDING", Wording(codes={
            "winner_listed_twice": toy.WORDING.codes["winner_listed_twice"]}))
        (missing,) = missing_words()
        assert missing.startswith("high_card: nobody_lost (tests/toygame/__init__.py:"), missing


def test_a_parameter_without_help_is_named(monkeypatch):
    mura = games.get("mura")
    monkeypatch.setattr(mura, "RULE_HELP", {**mura.RULE_HELP, "clockwise": " ", "spin": "x"})
    del mura.RULE_HELP["pack"]
    assert missing_help() == ["mura: pack", "mura: spin is no parameter",
                              "mura: clockwise is empty"]


@pytest.mark.parametrize("code", sorted(SHARED.codes))
def test_a_shared_code_is_one_more_than_one_game_reports(code):
    """A code only one game reports is that game's to word (its ``words.py``)."""
    reporters = [game.NAME for game in games.registered()
                 if code in reported_codes(*game_sources(game))]
    assert len(reporters) > 1 or code in reported_codes(*app_sources()), (code, reporters)


def test_the_code_scanner_sees_each_games_codes():
    mulatschak, mura, matz = (games.get(n) for n in ("mulatschak", "mura", "muller_matz"))
    assert {"bid_out_of_range", "auction_mismatch", "must_trump"} <= codes_of(mulatschak)
    assert {"figures_sum", "wrong_leader"} <= codes_of(mura) - codes_of(mulatschak)
    assert {"does_not_serve", "pick_up_empty_pile"} <= codes_of(matz) - codes_of(mura)
    assert "table_finished" in codes_of(matz)  # the app's own
