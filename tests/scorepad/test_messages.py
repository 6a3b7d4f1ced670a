"""Every violation the referee can report reads as a whole sentence: for each place in
referee/ that makes a violation, some template of its code is filled by exactly the
parameters given there (a missing one used to print "?", a missing player a sentence
starting with a blank)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.violations import Violation
from scorepad.messages import VARIANTS, VIOLATIONS, _fields, violation_message

REFEREE = Path(__file__).resolve().parents[2] / "referee"


def _sites() -> list[tuple[str, str, bool, frozenset[str]]]:
    """(where, code, names a player, parameter names) of every Violation.of(...) and
    add(...) call with a literal code in referee/."""
    found = []
    for path in sorted(REFEREE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            maker = (isinstance(func, ast.Attribute) and func.attr == "of"
                     and isinstance(func.value, ast.Name) and func.value.id == "Violation")
            if not (maker or (isinstance(func, ast.Name) and func.id == "add")):
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            player = len(node.args) > 1 and not (
                isinstance(node.args[1], ast.Constant) and node.args[1].value is None)
            params = frozenset(k.arg for k in node.keywords if k.arg)
            found.append((f"{path.name}:{node.lineno}", first.value, player, params))
    return found


SITES = _sites()


def test_the_scan_finds_the_violations():
    assert len(SITES) > 60
    assert {"players_count", "wrong_number_of_plays", "card_not_in_pack"} <= {
        code for _w, code, _p, _k in SITES}


@pytest.mark.parametrize(("where", "code", "player", "params"), SITES,
                         ids=[f"{w}-{c}" for w, c, _p, _k in SITES])
def test_every_violation_site_has_a_template_it_fills(where, code, player, params):
    assert code in VIOLATIONS, f"{where}: no message for {code}"
    given = set(params) | ({"player"} if player else set())
    templates = [*VARIANTS.get(code, []), VIOLATIONS[code]]
    assert any(_fields(t) <= given for t in templates), (
        f"{where}: {code} gives {sorted(given)}; templates need "
        f"{[sorted(_fields(t)) for t in templates]}")


@pytest.mark.parametrize(("violation", "text"), [
    (Violation.of("players_count", expected=4, actual=3),
     "This game is for exactly 4 players, not 3."),
    (Violation.of("players_count", actual=1, min=2, max=10),
     "This game is for 2 to 10 players, not 1."),
    (Violation.of("wrong_number_of_plays", trick=2, cards=3, expected=4),
     "Trick 2 needs 4 cards, one from each player; it has 3."),
    (Violation.of("wrong_number_of_plays", tricks=1, expected=8), "1 of 8 tricks entered."),
    (Violation.of("wrong_number_of_plays", "Anna", play=3),
     "Anna played the wrong number of cards."),
])
def test_the_variant_that_fits_the_parameters_is_used(violation, text):
    assert violation_message(violation) == text


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
