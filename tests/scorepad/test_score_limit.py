"""Scores have a limit (docs/rules.md, "Scores have a limit"): however many collapses an
evening brings, every figure the pages and the API show stays a number that a phone can
read, and a deal that would take a score past ±(2^53 − 1) is refused, wherever it comes
from."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.rules import MAX_SCORE
from scorepad import services
from scorepad.models import Player, Session
from scorepad.transfer import exporting, fileformat, importing

from .factories import group_with, phone_of, session_at

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
COLLAPSED = {"kind": "collapsed", "knocked": False}
#: Bert declares 2 in acorns and falls with 1 trick; Anna 2, Cilli 1, Dominik 1.
FELL = {"kind": "played", "knocked": False, "declarer": "Bert", "bid": 2, "trump": "acorns",
        "stayed_home": [], "tricks": {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}}
#: Rules where scores only grow: nobody loses points for tricks, a trickless player gains
#: the most a table may set.
GROWING = {"trick_value": 0, "no_trick_penalty": 1000, "declarer_fail_penalty": 1000,
           "no_bid_at_or_below": None, "must_play_at_or_below": None,
           "no_exchange_at_or_below": None}
#: Anna declares 1 and takes all five: Bert, Cilli and Dominik +1000 × m.
ANNA_TAKES_ALL = {"kind": "played", "knocked": False, "declarer": "Anna", "bid": 1,
                  "trump": "acorns", "stayed_home": [],
                  "tricks": {"Anna": 5, "Bert": 0, "Cilli": 0, "Dominik": 0}}
STEP = 1000 * 2**40  # what one such deal at the implicit cap gives each of the three


def a_file(anna: Any, deals: list[dict[str, Any]], overrides: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    """A session file of these deals (as a client could write it), from an empty session."""
    empty = session_at(group_with(anna, name="Vorlage"), anna, overrides=overrides)
    data = json.loads(json.dumps(exporting.session_export(empty)))
    stamp = data["session"]["created_at"]
    data["session"]["deals"] = [
        {"number": i, "version": 1, "kind": d["kind"], "data": d, "created_at": stamp}
        for i, d in enumerate(deals, start=1)]
    data["session"]["history"] = []
    empty.delete()
    return data


def blocks(n: int, collapses: int = 40) -> list[dict[str, Any]]:
    """``n`` times: ``collapses`` collapses, then Anna takes all five at the largest
    multiplier (Dominik deals and redeals each collapse, so the dealer moves on after)."""
    return [d for _ in range(n) for d in [*[COLLAPSED] * collapses, ANNA_TAKES_ALL]]



def numbers_in(value: Any) -> list[int | float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in numbers_in(v)]
    if isinstance(value, list):
        return [n for v in value for n in numbers_in(v)]
    return []


def assert_every_figure_answers(anna: Any, session: Session) -> None:
    """The pages and the API answer, and every number in the API is one JavaScript reads."""
    client = phone_of(anna)
    player = Player.objects.get(group=session.group, name="Bert")
    for url in (f"/api/v1/players/{player.pk}/stats", "/api/v1/me/stats",
                f"/api/v1/sessions/{session.pk}/scoreboard",
                f"/api/v1/sessions/{session.pk}/deals/",
                f"/api/v1/sessions/{session.pk}/export"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert all(abs(n) <= MAX_SCORE for n in numbers_in(response.json())), url
    for url in (f"/groups/{session.group_id}/stats/", f"/players/{player.pk}/",
                f"/sessions/{session.pk}/sheet", f"/sessions/{session.pk}/",
                f"/sessions/{session.pk}/history", "/me/stats/"):
        assert client.get(url).status_code == 200, url
    assert client.get(f"/api/v1/sessions/{session.pk}/export?format=csv").status_code == 200


def test_an_import_of_1100_collapses_and_a_played_deal_keeps_every_figure_readable(anna):
    group = group_with(anna)
    session = importing.session_import(group=group,
                                           data=a_file(anna, [*[COLLAPSED] * 1100, FELL]))
    board = services.scoreboard(session)
    # Bert fell: +10 × 2^40; Anna −2, Cilli −1, Dominik −1 times the same
    assert board["scores"] == {"Anna": 21 - 2 * 2**40, "Bert": 21 + 10 * 2**40,
                               "Cilli": 21 - 2**40, "Dominik": 21 - 2**40}
    assert_every_figure_answers(anna, session)


def test_scores_near_the_limit_keep_every_figure_readable(anna):
    group = group_with(anna)
    session = importing.session_import(group=group,
                                           data=a_file(anna, blocks(8), GROWING))
    scores = services.scoreboard(session)["scores"]
    assert scores["Bert"] == 21 + 8 * STEP
    assert MAX_SCORE - STEP < scores["Bert"] <= MAX_SCORE
    assert_every_figure_answers(anna, session)


def test_an_import_that_takes_a_score_past_the_limit_is_refused_naming_the_deal(anna):
    group = group_with(anna)
    with pytest.raises(fileformat.ImportRejected) as e:
        importing.session_import(group=group, data=a_file(anna, blocks(9), GROWING))
    assert e.value.category == "rules"  # 422
    assert {p.code for p in e.value.problems} == {"score_out_of_range"}
    assert {p.path for p in e.value.problems} == {"session/deals/368/data"}
    assert not group.sessions.exists()


def test_a_deal_posted_past_the_limit_is_a_422_and_changes_nothing(anna):
    group = group_with(anna)
    session = importing.session_import(group=group, data=a_file(
        anna, [*blocks(8), *[COLLAPSED] * 40], GROWING))
    client = phone_of(anna)
    before = client.get(f"/api/v1/sessions/{session.pk}/scoreboard").json()
    response = client.post(f"/api/v1/sessions/{session.pk}/deals/", ANNA_TAKES_ALL,
                           content_type="application/json")
    assert response.status_code == 422, response.json()
    violations = response.json()["violations"]
    assert [(v["code"], v["player"]) for v in violations] == [
        ("score_out_of_range", "Bert"), ("score_out_of_range", "Cilli"),
        ("score_out_of_range", "Dominik")]
    assert "9007199254740991" in violations[0]["message"]
    after = client.get(f"/api/v1/sessions/{session.pk}/scoreboard").json()
    assert after["scores"] == before["scores"]


def test_a_correction_past_the_limit_is_a_422_and_changes_nothing(anna):
    group = group_with(anna)
    passed = {"kind": "passed", "knocked": False}
    session = importing.session_import(group=group, data=a_file(
        anna, [*blocks(8), *[COLLAPSED] * 40, passed], GROWING))
    client = phone_of(anna)
    number = 8 * 41 + 41
    response = client.put(f"/api/v1/sessions/{session.pk}/deals/{number}/", ANNA_TAKES_ALL,
                          content_type="application/json")
    assert response.status_code == 422, response.json()
    assert response.json()["violations"][0]["code"] == "score_out_of_range"
    assert session.deals.get(number=number).kind == "passed"


def test_the_referee_api_refuses_a_deal_past_the_limit(api):
    body = {"rules": "salzburg", "players": SEATS, "dealer": "Dominik",
            "scores_before": {"Anna": 21, "Bert": MAX_SCORE, "Cilli": 21, "Dominik": 21},
            "deal": {"kind": "played", "declarer": "Anna", "bid": 2, "trump": "acorns",
                     "stayed_home": ["Bert"], "tricks": {"Anna": 3, "Cilli": 1, "Dominik": 1}}}
    response = api.post("/api/v1/referee/mulatschak/deal", body, language="de")
    assert response.status_code == 422
    (violation,) = response.json()["violations"]
    assert violation["code"] == "score_out_of_range" and violation["player"] == "Bert"
    assert violation["params"] == {"limit": MAX_SCORE}
    assert "Bert" in violation["message"] and "Punktestand" in violation["message"]


def test_the_referee_api_takes_scores_before_up_to_the_limit_and_no_further(api):
    body = {"rules": "salzburg", "players": SEATS, "dealer": "Dominik",
            "scores_before": dict.fromkeys(SEATS, MAX_SCORE - 100),
            "deal": {"kind": "collapsed"}}
    assert api.post("/api/v1/referee/mulatschak/deal", body).status_code == 200
    body["scores_before"]["Anna"] = MAX_SCORE + 1
    assert api.post("/api/v1/referee/mulatschak/deal", body).status_code == 400


def test_figures_survive_scores_stored_before_there_was_a_limit(anna):
    """A row written before the limit may hold a score of hundreds of digits: the
    statistics, charts and sheet still answer instead of overflowing a float."""
    group = group_with(anna)
    session = importing.session_import(group=group,
                                           data=a_file(anna, [*[COLLAPSED] * 1100, FELL]))
    player = Player.objects.get(group=group, name="Bert")
    bert = str(player.pk)  # rows name players by id
    row = session.deals.get(number=1101)
    huge = 10 * 2**1100
    assert bert in row.result["deltas"]
    row.result = {**row.result, "deltas": {**row.result["deltas"], bert: huge},
                  "scores_after": {**row.result["scores_after"], bert: 21 + huge}}
    row.save(update_fields=["result"])
    client = phone_of(anna)
    stats = client.get(f"/api/v1/players/{player.pk}/stats")
    assert stats.status_code == 200
    for url in (f"/groups/{group.pk}/stats/", f"/players/{player.pk}/",
                f"/sessions/{session.pk}/sheet", "/me/stats/"):
        assert client.get(url).status_code == 200, url


def test_a_thousand_collapses_are_written_as_a_power_not_a_thousand_factors(anna):
    group = group_with(anna)
    session = importing.session_import(group=group,
                                           data=a_file(anna, [*[COLLAPSED] * 1100, FELL]))
    sheet = phone_of(anna).get(f"/sessions/{session.pk}/sheet").content.decode()
    assert "collapse¹¹⁰⁰ = ×1099511627776" in sheet
    assert sheet.count("collapse × collapse") == 0
