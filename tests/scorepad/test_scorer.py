"""The phone's scorer (static/scorer.js and each game's static/scorer.js) against the
server: random sessions of every game, every preset and house rule (collapses, knocks
carried over, sitting out, caps, floors, Muli modes, Mura's zeros, Müller Matz), played
through the server's code (scorer_cases.py) and through the scorer under Node, must give
identical answers deal by deal: the violations of an illegal deal, or the result, the state
and the board of a legal one. ``ci`` plays at least 10,000 deals (tests/strength.py).

And the scorer's rules data is the referee's, its words the catalogues': generated
(manage.py scorer_data), never out of date.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import CommandError

from referee.muller_matz import MAX_PLAYERS
from referee.violations import Violation
from scorepad import games
from scorepad.fields import MAX_PLAYERS as SEATS_MOST
from scorepad.games import scorerdata
from scorepad.loaded import Names

from ..strength import PROFILE, env_examples, examples
from .scorer_cases import Played, forms, sessions

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("scorer_node.js")
#: The deals of the differential test at full strength (``ci``): at least this many.
DEALS = 10_000
#: Sessions per run of Node.
BATCH = 200


def scripts() -> list[str]:
    """The scorer's files in the order a page loads them: the core, then each game's data,
    scorer and page part (found where the pages find them: the static files' finders)."""
    names = ["scorer.js"]
    for game in games.registered():
        names += [f"games/{game.NAME}/{name}" for name in ("rules-data.js", "scorer.js",
                                                            "phone.js")]
    found = [finders.find(name) for name in names]
    assert all(found), dict(zip(names, found, strict=True))
    return [str(path) for path in found]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        message = "no node on PATH: the phone's scorer cannot run (apt-get install -y nodejs)"
        if os.environ.get("SCHREIBER_REQUIRE_BROWSER") == "1" or PROFILE == "ci":
            pytest.fail(message)
        pytest.skip(message)
    return found


def run_scorer(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answer = subprocess.run(
        [node(), str(RUNNER)], input=json.dumps({"scripts": scripts(), "sessions": cases}),
        capture_output=True, text=True, check=False, timeout=600)
    assert answer.returncode == 0, answer.stderr[-3000:]
    return list(json.loads(answer.stdout))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "…"


def _first_difference(expected: Any, got: Any, path: str = "") -> str | None:
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in list(expected) + [k for k in got if k not in expected]:
            if key not in got or key not in expected:
                return (f"{path}.{key}: expected {_short(expected.get(key, '<none>'))}, "
                        f"got {_short(got.get(key, '<none>'))}")
            found = _first_difference(expected[key], got[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for k, (a, b) in enumerate(zip(expected, got, strict=True)):
            found = _first_difference(a, b, f"{path}[{k}]")
            if found:
                return found
        return None
    if expected != got or type(expected) is not type(got):
        return f"{path}: expected {_short(expected)}, got {_short(got)}"
    return None


def differences(played: list[Played], answers: list[dict[str, Any]]) -> list[str]:
    """Each session whose answers differ, with its first difference and the deal."""
    out = []
    for s, got in zip(played, answers, strict=True):
        if "crash" in got:
            out.append(f"{s.game.NAME} {s.rules} {s.players}: the scorer crashed: {got['crash']}")
            continue
        found = _first_difference(s.expected(), got)
        if found:
            where = ""
            if found.startswith(".steps["):
                k = int(found[len(".steps["):found.index("]")])
                where = (f"\n  deal {k + 1}: {json.dumps(s.deals[k], ensure_ascii=False)}"
                         f"\n  state before: {json.dumps(s.steps_state(k), ensure_ascii=False)}")
            rules = f"{s.rules['preset']} with {_short(s.overrides or {})}"
            out.append(f"{s.game.NAME} {rules} seats {s.players}: {found}{where}")
    return out


def test_the_phone_scores_every_deal_as_the_server_does(
        record_property: pytest.RecordProperty) -> None:
    wanted = env_examples("SCHREIBER_SCORER_DEALS", DEALS)
    played = sessions(seed=int(os.environ.get("SCHREIBER_SCORER_SEED", "23")), deals=wanted)
    answers: list[dict[str, Any]] = []
    for k in range(0, len(played), BATCH):
        answers += run_scorer([s.case() for s in played[k:k + BATCH]])
    deals = sum(len(s.deals) for s in played)
    refused = sum(1 for s in played for step in s.steps if not step["ok"])
    by_game = {g.NAME: sum(len(s.deals) for s in played if s.game is g) for g in games.registered()}
    found = differences(played, answers)
    summary = (f"the phone's scorer against the server: {deals} deals in {len(played)} "
               f"sessions ({', '.join(f'{n} {g}' for g, n in by_game.items())}; {refused} "
               f"refused), {len(found)} sessions differ")
    record_property("scorer_differential", summary)
    print(summary)
    assert found == [], "\n".join(found[:5])
    assert deals >= wanted


#: Saved forms of the form test at full strength.
FORMS = 6_000


def test_the_phone_reads_a_saved_form_as_the_server_does() -> None:
    """A deal queued on the phone is its saved form (outbox.js): the phone reads it into
    the deal the server would record from it (each game's phone.js against its form_deal)."""
    from django.http import QueryDict

    cases = forms(seed=23, count=examples(FORMS))
    answer = subprocess.run(
        [node(), str(RUNNER)], input=json.dumps({"scripts": scripts(), "forms": cases}),
        capture_output=True, text=True, check=False, timeout=600)
    assert answer.returncode == 0, answer.stderr[-3000:]
    found = []
    for case, got in zip(cases, json.loads(answer.stdout), strict=True):
        expected = games.get(case["game"]).form_deal(
            QueryDict(case["body"]), Names({p: p for p in case["seats"]}))
        if got != {"deal": json.loads(json.dumps(expected))}:
            found.append(f"{case}: expected {expected}, got {got}")
    assert found == [], "\n".join(found[:5])


#: Violations with parameters that are codes themselves or choose their words, by the game
#: whose words they are in. (A code without words no longer reaches the words:
#: tests/scorepad/test_words.py requires words for every code a game's rules report.)
WORDED = [
    ("mulatschak", Violation.of("exchange_form_not_allowed", "Anna", form="bridge")),
    ("mulatschak", Violation.of("exchange_form_not_allowed", "Anna", form="on_sight_chain")),
    ("mulatschak", Violation.of("exchange_form_not_allowed", None, form="delayed_trump")),
    ("mulatschak", Violation.of("seven_six_not_bells", "Bert", trump="leaves")),
    ("mulatschak", Violation.of("face_up_chain_invalid", "Cilli", form="bridge")),
    ("mulatschak", Violation.of("player_sitting_out", "Eva", field="tricks")),
    ("mulatschak", Violation.of("player_sitting_out", "Eva", field="nothing_known")),
    ("mulatschak", Violation.of("bid_forbidden_low_score", "Anna", score=1, threshold=5)),
    ("mulatschak", Violation.of("stay_home_forbidden_low_score", "Anna", score=-4,
                                threshold=3)),
    ("muller_matz", Violation.of("players_count", None, min=2, max=6, actual=7)),
    ("mura", Violation.of("tricks_out_of_range", "Anna", value=9, min=0, max=8)),
    ("mulatschak", Violation.of("knock_not_allowed", None, knocks_before=2)),
    ("muller_matz", Violation.of("does_not_serve", "Anna", card="hearts-2", top="hearts-9",
                                 reason="not_higher")),
]


def test_the_phone_words_every_violation_as_the_server_does() -> None:
    """A deal the phone refuses offline is refused in the server's words: the scorer's
    violations (of the random sessions, and a few that choose their words by a value) in
    German, English and Hungarian, in the words files the scorer loads."""
    from django.utils import translation

    from scorepad.messages import violation_message

    found = [(s.game.NAME, Violation.of(v["code"], v.get("player"), **v.get("params", {})))
             for s in sessions(seed=5, deals=examples(2000)) for step in s.steps
             if not step["ok"] and "violations" in step for v in step["violations"]]
    assert len({v.code for _game, v in found}) >= 15, sorted({v.code for _g, v in found})
    cases, expected, words = [], [], {}
    for language in ("de", "en", "hu"):
        with translation.override(language):
            for game in games.registered():  # each game's words, as its pages load them
                words[f"{language} {game.NAME}"] = [
                    str(scorerdata.path(game, scorerdata.words_file(language))), game.NAME]
            for name, v in found + WORDED:
                cases.append({"language": language, "words": f"{language} {name}",
                              "violation": json.loads(json.dumps(v.as_dict()))})
                expected.append(violation_message(v, games.get(name).WORDING))
    answer = subprocess.run(
        [node(), str(RUNNER)], capture_output=True, text=True, check=False, timeout=600,
        input=json.dumps({"scripts": scripts(), "words": words, "violations": cases}))
    assert answer.returncode == 0, answer.stderr[-3000:]
    got = json.loads(answer.stdout)
    differ = [f"{case}: server {want!r}, phone {have!r}"
              for case, want, have in zip(cases, expected, got, strict=True) if want != have]
    assert differ == [], "\n".join(differ[:5])


def test_the_random_sessions_reach_every_rule_they_are_meant_to() -> None:
    """The generator's sessions are worth comparing: they reach the score rules, the game
    ends, the caps and limits, and nearly every violation code of every game."""
    played = sessions(seed=23, deals=3000)
    codes = {v["code"] for s in played for step in s.steps for v in step.get("violations", [])}
    for code in ("bid_forbidden_low_score", "stay_home_forbidden_low_score",
                 "exchange_forbidden_low_score", "stay_home_forbidden_hearts",
                 "stay_home_forbidden_muli", "tricks_sum", "tricks_missing", "score_out_of_range",
                 "player_sitting_out", "knock_not_allowed", "exchange_too_many",
                 "exchange_form_not_allowed", "face_up_chain_invalid", "muli_breaker_required",
                 "stay_home_twice", "figures_sum", "wrong_leader", "must_follow_suit",
                 "card_played_twice", "card_not_in_pack",
                 "player_listed_twice", "players_count"):
        assert code in codes, code
    results = [step["result"] for s in played for step in s.steps if step["ok"]]
    assert any(r.get("game_over") for r in results)
    assert any(r.get("knocks_before") for r in results)
    assert any(r.get("sitting_out") for r in results)
    assert any(r.get("multiplier", 0) >= 1 << 20 for r in results)
    errors = [step for s in played for step in s.steps if "error" in step]
    assert errors

    def recorded(game: str, **params: Any) -> list[Played]:
        """Sessions of ``game`` with those frozen parameters that recorded a deal."""
        return [s for s in played if game == s.game.NAME and any(x["ok"] for x in s.steps)
                and all(s.rules["params"][k] == v for k, v in params.items())]

    # every Mura parameter a session may start with, and Müller Matz's largest tables
    assert recorded("mura", players=2) and recorded("mura", players=8)
    assert {s.rules["params"]["figures_needed"] for s in recorded("mura")} >= {1, 3, 5, 8}
    assert {s.rules["params"]["max_figures_per_trick"] for s in recorded("mura")} >= {4, 6, 8}
    assert any(len(s.players) == SEATS_MOST for s in recorded("muller_matz"))
    assert any(len(s.players) > 10 for s in recorded("muller_matz", players_max=MAX_PLAYERS))


def test_the_scorers_rules_data_is_generated_from_the_referee() -> None:
    assert scorerdata.stale() == [], "run: DJANGO_DEBUG=1 .venv/bin/python manage.py scorer_data"
    call_command("scorer_data", "--check")


def test_a_stale_words_file_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """A violation's words changed in a catalogue (compiled), scorer_data not run again:
    the game's words files are out of date, in every language."""
    game = games.registered()[0]
    real = scorerdata.violation_words

    def changed(wording: Any) -> dict[str, Any]:
        words = real(wording)
        if wording is game.WORDING:
            words["codes"] = {**words["codes"], "new_code": "new words"}
        return words

    monkeypatch.setattr(scorerdata, "violation_words", changed)
    assert scorerdata.stale() == [scorerdata.path(game, scorerdata.words_file(code))
                                  for code in scorerdata.languages()]
    with pytest.raises(CommandError, match=r"out of date \(run manage.py scorer_data\)"):
        call_command("scorer_data", "--check")


def test_a_stale_rules_data_file_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    game = games.registered()[0]
    real = game.scorer_data
    monkeypatch.setattr(game, "scorer_data", lambda: {**real(), "new": 1})
    assert scorerdata.stale() == [scorerdata.path(game)]
    with pytest.raises(CommandError, match="out of date"):
        call_command("scorer_data", "--check")


def test_every_game_has_its_scorer_where_the_pages_find_it() -> None:
    for name in scripts():
        assert Path(name).is_file()
    for game in games.registered():
        data = scorerdata.render(game)
        assert f'[{json.dumps(game.NAME)}]' in data
        for code in scorerdata.languages():
            found = finders.find(scorerdata.words_name(game, code))
            assert found and Path(found) == scorerdata.path(game, scorerdata.words_file(code))
