"""The worked examples of tests/examples/referee-additions.json, at the referee level.

Exchange forms, knocks over collapses, sitting out, the first Mura leader, a Müller Matz
hand and a second-life pile (docs/rules.md, "Exchange", "Knocks and collapses",
"Sitting out", "First lead", "Drawing" to "Sleeping" and "The second-life pile"). The API
runs the same examples in tests/scorepad/test_referee_api.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.auction import run_auction
from referee.deal import Table, deal_from_dict, score_deal
from referee.muller_matz import check_hand, check_pile
from referee.mura import check_cards, check_counts, parse_trick_cards
from referee.rules import mulatschak_rules
from tests.conftest import ADDITIONS, load_examples

EXAMPLES = load_examples(ADDITIONS)


def _rules(spec: Any) -> Any:
    if isinstance(spec, str):
        return mulatschak_rules(spec)
    return mulatschak_rules(spec["preset"], spec.get("overrides"))


def _codes(violations: Any) -> list[str]:
    return [v.code for v in violations]


def _deal(request: dict[str, Any], response: dict[str, Any]) -> None:
    table = Table.of(
        _rules(request["rules"]), request["players"], request["dealer"],
        request.get("scores_before"), request.get("collapses_before", 0),
        request.get("previous_stayed_home", ()), request.get("knocks_before", 0),
    )
    result = score_deal(table, deal_from_dict(request["deal"]))
    if response["status"] == 422:
        assert _codes(result.violations) == response["violation_codes"]
        return
    assert result.legal, result.violations
    assert result.multiplier == response["multiplier"]
    assert dict(result.deltas) == response["deltas"]
    assert dict(result.scores_after) == response["scores_after"]
    assert result.declarer_made is response["declarer_made"]
    assert result.game_over is response["game_over"]
    assert list(result.winners) == response["winners"]
    if "sitting_out" in response:
        assert result.sitting_out == response["sitting_out"]
    if "exchange_totals" in response:
        assert result.exchange_totals is not None
        assert result.exchange_totals.as_dict() == response["exchange_totals"]


def _auction(request: dict[str, Any], response: dict[str, Any]) -> None:
    result = run_auction(
        _rules(request["rules"]), request["players"], request["dealer"],
        [(c["player"], c["call"]) for c in request["calls"]], request.get("scores_before"),
    )
    if response["status"] == 422:
        assert _codes(result.violations) == response["violation_codes"]
        return
    assert result.legal, result.violations
    assert (result.declarer, result.bid, result.all_passed) == (
        response["declarer"], response["bid"], response["all_passed"])
    assert result.sitting_out == response.get("sitting_out")


def _mura(request: dict[str, Any], response: dict[str, Any]) -> None:
    if "trick_cards" in request:
        result = check_cards(request["players"], parse_trick_cards(request["trick_cards"]),
                             dealer=request.get("dealer"))
    else:
        result = check_counts(request["players"], request["tricks"], request["figures"],
                              dealer=request.get("dealer"))
    if response["status"] == 422:
        assert _codes(result.violations) == response["violation_codes"]
    else:
        assert result.legal, result.violations


def _hand(request: dict[str, Any], response: dict[str, Any]) -> None:
    state = check_hand(request["hand"], request["trump"], request["stock"],
                       request.get("turned_up"))
    expected = {k: v for k, v in response.items() if k != "status"}
    assert state.as_dict() == expected


def _pile(request: dict[str, Any], response: dict[str, Any]) -> None:
    result = check_pile(request["trump"], request["players"], request["plays"],
                        request.get("hands"))
    if response["status"] == 422:
        assert _codes(result.violations) == response["violation_codes"]
        return
    assert result.legal, result.violations
    assert [c.code for c in result.cards] == response["pile"]
    assert (result.complete, result.winner, result.next) == (
        response["complete"], response["winner"], response["next"])


CHECKS = {
    "/api/v1/referee/mulatschak/deal": _deal,
    "/api/v1/referee/mulatschak/auction": _auction,
    "/api/v1/referee/mura/deal": _mura,
    "/api/v1/referee/muller-matz/hand": _hand,
    "/api/v1/referee/muller-matz/pile": _pile,
}


def test_the_additions_cover_the_new_endpoints_and_every_new_deal_code():
    assert {e["endpoint"].split()[1] for e in EXAMPLES} == set(CHECKS)
    codes = {c for e in EXAMPLES for c in e["response"].get("violation_codes", ())}
    assert {"player_sitting_out", "exchange_recorded_twice", "exchange_by_absent",
            "exchange_form_not_allowed", "seven_six_not_bells", "face_up_chain_invalid",
            "delayed_trump_without_bridge", "knock_not_allowed"} <= codes


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e["name"])
def test_every_added_example_holds_at_the_referee_level(example):
    CHECKS[example["endpoint"].split()[1]](example["request"], example["response"])


def test_the_mura_example_is_legal_with_the_dealer_whose_right_hand_player_led():
    # The example's note: "With dealer Resi the same tricks are legal."
    example = next(e for e in EXAMPLES if e["name"] == "mura-first-leader-wrong")
    request = example["request"]
    result = check_cards(request["players"], parse_trick_cards(request["trick_cards"]),
                         dealer="Resi")
    assert result.legal, result.violations
    assert check_cards(request["players"], parse_trick_cards(request["trick_cards"])).legal
