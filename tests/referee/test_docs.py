"""docs/rules.md agrees with the referee: its code and parameter tables, its examples and
its anchors.

The marked tables of docs/rules.md are compared with what the referee defines: the codes it
reports (read from its source, where they are not kept as data) and its parameters with each
preset's value. Where the specification has codes or parameters that the referee does not
implement yet, the tests compare with the specification's full list, so they fail until the
referee has them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import referee
from referee.auction import run_auction
from referee.deal import CODE_ORDER, Deal, Table, score_deal
from referee.money import settle
from referee.muller_matz import MULLER_MATZ_RULES, REASONS_EN, check_beat, check_result
from referee.mura import MURA_RULES, check_counts
from referee.rules import PARAMETER_NAMES, PRESETS, mulatschak_rules
from referee.tally import MatzState, game_payments, matz_balances
from referee.trick import Play, check_trick
from tests.codes import reported_codes
from tests.docs import RULES_DOC, first_column_codes, marked, table_rows

REFEREE = Path(referee.__file__).resolve().parent
PROJECT = REFEREE.parent

# --- the specification's lists ------------------------------------------------------

#: Codes the specification adds outside the Mulatschak deal.
SPEC_NEW_AUCTION_CODES = {"player_sitting_out"}
SPEC_NEW_MURA_CODES = {"dealer_not_seated"}
SPEC_PILE_CODES = {
    "not_your_turn",
    "does_not_serve",
    "pick_up_empty_pile",
    "play_after_complete",
    "card_not_in_hand",
    "unknown_player",
}
SPEC_NEW_MULLER_MATZ_PARAMETERS = {"hand_size": 3}

#: The code the deal endpoint adds when a deal's calls name another declarer or bid.
API_AUCTION_CODES = {"auction_mismatch"}


# --- reading the referee's codes from its source ------------------------------------


#: The referee's modules for the other games and their rules (Mulatschak, Mura).
OTHER_GAMES = {"auction", "deal", "hand", "mura", "rules", "session", "trick"}


def muller_matz_modules() -> list[Path]:
    """Müller Matz's modules: muller_matz.py and whatever new module (its second-life pile)
    reports codes without belonging to another game."""
    return sorted(p for p in REFEREE.glob("*.py") if p.stem not in OTHER_GAMES)


def test_the_source_reader_finds_the_codes_of_a_known_module():
    # The reader must see codes reported in every way the referee reports them.
    codes = reported_codes(REFEREE / "trick.py")
    assert {"must_follow_suit", "must_trump", "must_head_trick"} <= codes  # returned
    assert {"card_played_twice", "trump_invalid"} <= codes  # Violation.of
    assert "tricks_sum" in reported_codes(REFEREE / "deal.py")  # add(...)


# --- the Mulatschak deal codes -------------------------------------------------------


def test_the_deal_codes_are_the_referees_in_its_order():
    # tests/referee/test_deal.py pins CODE_ORDER to the specification's table.
    assert first_column_codes("mulatschak-deal-codes") == list(CODE_ORDER)


def test_every_code_the_deal_checker_reports_is_documented():
    # The full comparison, CODE_ORDER against the table, is tests/referee/test_deal.py's.
    documented = set(first_column_codes("mulatschak-deal-codes"))
    assert reported_codes(REFEREE / "deal.py") <= documented


# --- the Mulatschak parameters -------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("(*house*)", "").strip()


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else (f"+{n}" if n > 0 else "0")


def _render(name: str, value: Any) -> str:
    """A parameter's value as the parameter table writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return f"`{value}`"
    if name in ("muli_win", "muli_fail"):
        return f"declarer {_signed(value['declarer'])}, others {_signed(value['others'])}"
    raise AssertionError(f"no rendering for {name}={value!r}")


def test_the_parameter_table_has_every_parameter_of_the_specification_once():
    documented = first_column_codes("mulatschak-parameters")
    assert len(documented) == len(set(documented))
    assert set(documented) == set(PARAMETER_NAMES)


def test_every_parameter_of_the_referee_is_documented():
    assert set(PARAMETER_NAMES) <= set(first_column_codes("mulatschak-parameters"))


@pytest.mark.parametrize("column", [0, 1, 2], ids=["salzburg", "geiser", "murln"])
def test_each_preset_column_gives_the_referees_value(column):
    preset = PRESETS[("salzburg", "geiser", "murln")[column]].as_params()
    for name, cells in table_rows("mulatschak-parameters").items():
        assert len(cells) == 4, name
        written = _cell(cells[column])
        value = preset[name]
        if name == "max_exchange" and isinstance(value, Mapping):
            shown = re.search(r"`(\{.*\})`", written)
            assert shown and json.loads(shown.group(1)) == value, (name, written)
        else:
            assert written == _render(name, value), (name, written)
        assert cells[3], f"{name} has no meaning"


# --- auction and trick codes ---------------------------------------------------------


def test_every_auction_code_of_the_referee_is_documented():
    documented = set(first_column_codes("mulatschak-auction-codes"))
    assert reported_codes(REFEREE / "auction.py") | API_AUCTION_CODES <= documented


def test_the_auction_codes_are_those_the_referee_reports():
    # Fails until the auction reports player_sitting_out (a dealer who sits out and calls).
    documented = set(first_column_codes("mulatschak-auction-codes"))
    assert documented == reported_codes(REFEREE / "auction.py") | API_AUCTION_CODES
    assert documented >= SPEC_NEW_AUCTION_CODES


def test_the_deal_endpoint_reports_the_auction_mismatch_it_documents():
    views = PROJECT / "scorepad" / "games" / "mulatschak" / "api.py"
    assert reported_codes(views) >= API_AUCTION_CODES


def test_the_trick_codes_are_those_the_referee_reports():
    assert set(first_column_codes("mulatschak-trick-codes")) == reported_codes(REFEREE / "trick.py")


# --- Mura ----------------------------------------------------------------------------


def test_every_mura_code_of_the_referee_is_documented():
    assert reported_codes(REFEREE / "mura.py") <= set(first_column_codes("mura-codes"))


def test_the_mura_codes_are_those_the_referee_reports():
    # Fails until Mura deals check a named dealer (dealer_not_seated).
    documented = set(first_column_codes("mura-codes"))
    assert documented == reported_codes(REFEREE / "mura.py")
    assert documented >= SPEC_NEW_MURA_CODES


def test_the_mura_parameters_and_defaults_are_the_referees():
    rows = table_rows("mura-parameters")
    defaults = MURA_RULES.as_params()
    assert set(rows) == set(defaults)
    for name, value in defaults.items():
        assert rows[name][0] == _render(name, value), name
        assert rows[name][1], f"{name} has no meaning"


# --- Müller Matz ---------------------------------------------------------------------


def test_every_muller_matz_code_and_beat_reason_of_the_referee_is_documented():
    documented = set(first_column_codes("muller-matz-codes"))
    assert reported_codes(*muller_matz_modules()) | set(REASONS_EN) <= documented


def test_the_muller_matz_codes_are_those_the_referee_reports():
    # Fails until the referee checks second-life piles (their codes).
    documented = set(first_column_codes("muller-matz-codes"))
    assert documented == reported_codes(*muller_matz_modules()) | set(REASONS_EN)
    assert documented >= SPEC_PILE_CODES


def test_every_muller_matz_parameter_of_the_referee_is_documented_with_its_default():
    rows = table_rows("muller-matz-parameters")
    for name, value in MULLER_MATZ_RULES.as_params().items():
        assert name in rows, name
        assert rows[name][0] == _render(name, value), name
    for name, value in SPEC_NEW_MULLER_MATZ_PARAMETERS.items():
        assert rows[name][0] == _render(name, value), name


def test_the_muller_matz_parameters_are_those_of_the_referee():
    # Fails until the referee has hand_size.
    assert set(table_rows("muller-matz-parameters")) == set(MULLER_MATZ_RULES.as_params())


# --- every code row explains itself --------------------------------------------------

CODE_TABLES = [
    "mulatschak-deal-codes",
    "mulatschak-auction-codes",
    "mulatschak-trick-codes",
    "mura-codes",
    "muller-matz-codes",
]


@pytest.mark.parametrize("name", CODE_TABLES)
def test_every_code_row_has_a_rule_and_an_example(name):
    rows = table_rows(name)
    assert rows
    for code, cells in rows.items():
        assert len(cells) == 2 and all(cells), f"{name}: {code} needs a rule and an example"


# --- the examples of the document are what the referee says --------------------------

FOUR = ("Anna", "Bert", "Cilli", "Dominik")
SIX = (*FOUR, "Erna", "Franz")


def table(
    preset: str = "salzburg",
    overrides: Mapping[str, object] | None = None,
    *,
    players: Sequence[str] = FOUR,
    dealer: str = "Dominik",
    scores: Mapping[str, int] | None = None,
    collapses: int = 0,
    previous_home: Sequence[str] = (),
) -> Table:
    return Table.of(mulatschak_rules(preset, overrides), players, dealer, scores, collapses,
                    previous_home)


def played(**changes: Any) -> Deal:
    kwargs: dict[str, Any] = {
        "declarer": "Anna",
        "bid": 2,
        "trump": "acorns",
        "tricks": {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1},
    }
    kwargs.update(changes)
    return Deal.played(**kwargs)


MULI = {"declarer": "Anna", "bid": 5, "tricks": {"Anna": 5, "Bert": 0, "Cilli": 0, "Dominik": 0}}

#: The example of each row of the deal-code table that the referee reports today, and the
#: codes it reports (its own first).
DEAL_EXAMPLES: dict[str, tuple[Table, Deal, list[str]]] = {
    "players_count": (table("geiser", players=SIX, dealer="Franz"), Deal.collapsed(), []),
    "unknown_player": (table(), played(tricks={"Anna": 2, "Bert": 1, "Cilli": 1,
                                               "Dominik": 1, "Erna": 1}), []),
    "dealer_not_seated": (table(dealer="Erna"), played(), []),
    "bid_out_of_range": (table(overrides={"min_bid": 2, "min_bid_hearts": 1}),
                         played(bid=1), []),
    "bid_forbidden_low_score": (table(scores={"Anna": 5}), played(), []),
    "trump_invalid": (table(), played(trump="clubs"), []),
    "declarer_stayed_home": (table(), played(trump="bells", stayed_home=["Anna"],
                                             tricks={"Bert": 2, "Cilli": 2, "Dominik": 1}), []),
    "stay_home_forbidden_hearts": (table(), played(trump="hearts", stayed_home=["Bert"], tricks={
        "Anna": 3, "Cilli": 1, "Dominik": 1}), []),
    "stay_home_forbidden_muli": (table(), played(**{**MULI, "stayed_home": ["Bert"], "tricks": {
        "Anna": 5, "Cilli": 0, "Dominik": 0}}), []),
    "stay_home_forbidden_low_score": (table(scores={"Bert": 3}), played(
        bid=3, trump="leaves", stayed_home=["Bert"], tricks={"Anna": 3, "Cilli": 1,
                                                             "Dominik": 1}), []),
    "no_opponent": (table(), played(stayed_home=["Bert", "Cilli", "Dominik"],
                                    tricks={"Anna": 5}), []),
    "tricks_missing": (table(), played(tricks={"Anna": 2, "Bert": 2, "Cilli": 1}), []),
    "tricks_for_absent": (table(), played(stayed_home=["Bert"], tricks={
        "Anna": 3, "Bert": 1, "Cilli": 1, "Dominik": 1}), []),
    "tricks_out_of_range": (table(), played(tricks={"Anna": 2, "Bert": 6, "Cilli": 0,
                                                    "Dominik": 0}), ["tricks_sum"]),
    "tricks_sum": (table(), played(tricks={"Anna": 2, "Bert": 2, "Cilli": 2, "Dominik": 2}), []),
    "exchange_forbidden_muli": (table(), played(**MULI, exchanged={"Bert": 1}), []),
    "exchange_forbidden_low_score": (table(scores={"Bert": 3}),
                                     played(exchanged={"Bert": 1}), []),
    "exchange_too_many": (table("geiser"), played(exchanged={"Anna": 1, "Bert": 2}), []),
    "exchange_exceeds_talon": (
        table(players=SIX, dealer="Franz"),
        played(tricks={"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1, "Erna": 0, "Franz": 0},
               exchanged={"Anna": 5, "Bert": 2}),
        [],
    ),
    "knock_not_allowed": (table("geiser"), played(knocked=True), []),
    "stay_home_twice": (table(overrides={"no_stay_home_twice": True}, previous_home=["Bert"]),
                        played(stayed_home=["Bert"], tricks={"Anna": 3, "Cilli": 1,
                                                             "Dominik": 1}), []),
    "muli_breaker_required": (table(overrides={"muli_fail_mode": "breaker"}), played(
        bid=5, tricks={"Anna": 4, "Bert": 1, "Cilli": 0, "Dominik": 0}), []),
    "score_out_of_range": (table(scores={"Bert": 2**53 - 1}), played(
        stayed_home=["Bert"], tricks={"Anna": 3, "Cilli": 1, "Dominik": 1}), []),
}


#: Codes whose examples need the record fields of issue 16 (exchange forms, sitting out,
#: knocks before): add them to DEAL_EXAMPLES once the referee takes those fields.
DEAL_CODES_WITHOUT_A_RUN_EXAMPLE = {
    "player_sitting_out",
    "exchange_recorded_twice",
    "exchange_by_absent",
    "exchange_form_not_allowed",
    "seven_six_not_bells",
    "face_up_chain_invalid",
    "delayed_trump_without_bridge",
}


def test_every_deal_code_of_the_referee_has_its_documented_example_here():
    assert set(DEAL_EXAMPLES) <= set(CODE_ORDER)
    assert set(CODE_ORDER) - set(DEAL_EXAMPLES) <= DEAL_CODES_WITHOUT_A_RUN_EXAMPLE
    assert set(DEAL_EXAMPLES) | DEAL_CODES_WITHOUT_A_RUN_EXAMPLE == set(CODE_ORDER)


@pytest.mark.parametrize("code", sorted(DEAL_EXAMPLES))
def test_the_documented_deal_example_reports_its_code(code):
    t, deal, also = DEAL_EXAMPLES[code]
    assert [v.code for v in score_deal(t, deal).violations] == [code, *also]


def calls(*pairs: tuple[str, object]) -> list[tuple[str, object]]:
    return list(pairs)


Calls = list[tuple[str, object]]

#: (calls, overrides, scores, dealer) of the auction-code table's examples.
AUCTION_EXAMPLES: dict[str, tuple[Calls, dict[str, Any], dict[str, int], str]] = {
    "players_count": (calls(("Anna", 2)), {}, {}, "Anna"),
    "unknown_player": (calls(("Erna", 2)), {}, {}, "Dominik"),
    "dealer_not_seated": (calls(("Anna", 2)), {}, {}, "Erna"),
    "not_your_turn": (calls(("Anna", 2), ("Cilli", 3)), {}, {}, "Dominik"),
    "bid_out_of_range": (calls(("Anna", 6)), {}, {}, "Dominik"),
    "bid_not_higher": (calls(("Anna", 3), ("Bert", 2)), {}, {}, "Dominik"),
    "bid_forbidden_low_score": (calls(("Anna", 2), ("Bert", 2)), {}, {"Bert": 4}, "Dominik"),
    "hold_not_dealer": (calls(("Anna", 2), ("Bert", "hold")), {}, {}, "Dominik"),
    "hold_not_allowed": (calls(("Anna", 2), ("Bert", "pass"), ("Cilli", "pass"),
                               ("Dominik", "hold")), {"dealer_may_hold": False}, {}, "Dominik"),
    "hold_without_bid": (calls(("Anna", "pass"), ("Bert", "pass"), ("Cilli", "pass"),
                               ("Dominik", "hold")), {}, {}, "Dominik"),
    "auction_over": (calls(("Anna", 2), ("Bert", "pass"), ("Cilli", "pass"),
                           ("Dominik", "pass"), ("Bert", 3)), {}, {}, "Dominik"),
    "auction_incomplete": (calls(("Anna", 2), ("Bert", "pass")), {}, {}, "Dominik"),
}
#: The table of an example, where it is not Anna, Bert, Cilli and Dominik.
AUCTION_PLAYERS: dict[str, tuple[str, ...]] = {"players_count": ("Anna",)}


@pytest.mark.parametrize("code", sorted(AUCTION_EXAMPLES))
def test_the_documented_auction_example_reports_its_code(code):
    the_calls, overrides, scores, dealer = AUCTION_EXAMPLES[code]
    players = AUCTION_PLAYERS.get(code, FOUR)
    result = run_auction(mulatschak_rules("salzburg", overrides), players, dealer, the_calls,
                         scores)
    assert [v.code for v in result.violations] == [code]


def test_the_auction_examples_cover_every_auction_code_of_the_referee():
    # player_sitting_out needs a table with sit_out_at (issue 16); add its example then.
    reported = reported_codes(REFEREE / "auction.py")
    assert set(AUCTION_EXAMPLES) <= reported
    assert reported - set(AUCTION_EXAMPLES) <= SPEC_NEW_AUCTION_CODES


def test_the_documented_duel_ends_with_the_dealer_declaring_four():
    result = run_auction(mulatschak_rules("salzburg"), FOUR, "Dominik", calls(
        ("Anna", 2), ("Bert", 3), ("Cilli", "pass"), ("Dominik", "hold"), ("Bert", 4),
        ("Dominik", "hold"), ("Bert", "pass")))
    assert (result.legal, result.declarer, result.bid) == (True, "Dominik", 4)


def test_the_documented_muli_out_of_turn_makes_cilli_declarer():
    result = run_auction(mulatschak_rules("salzburg"), FOUR, "Dominik",
                         calls(("Anna", 2), ("Cilli", "muli")))
    assert (result.legal, result.declarer, result.bid) == (True, "Cilli", 5)


def test_the_documented_mismatch_example_makes_dominik_declarer_at_three():
    result = run_auction(mulatschak_rules("salzburg"), FOUR, "Dominik", calls(
        ("Anna", 2), ("Bert", 3), ("Cilli", "pass"), ("Dominik", "hold"), ("Bert", "pass")))
    assert (result.declarer, result.bid) == ("Dominik", 3)


def plays(*items: tuple[Any, ...]) -> list[Play]:
    return [Play(i[0], i[1], tuple(i[2]) if len(i) > 2 else None) for i in items]


#: (preset, trump, plays) of the trick-code table's examples.
TRICK_EXAMPLES: dict[str, tuple[str, str, list[Play]]] = {
    "trump_invalid": ("salzburg", "spades", plays(("Anna", "hearts-7"))),
    "card_not_in_pack": ("murln", "acorns", plays(("Anna", "acorns-6"))),
    "wrong_number_of_plays": ("salzburg", "acorns", plays(
        ("Anna", "acorns-7"), ("Bert", "acorns-8"), ("Anna", "acorns-9"))),
    "card_played_twice": ("salzburg", "acorns", plays(("Anna", "leaves-10"),
                                                       ("Bert", "leaves-10"))),
    "card_not_in_hand": ("salzburg", "acorns", plays(("Anna", "leaves-10"), (
        "Bert", "hearts-king", ["acorns-9", "acorns-7", "leaves-8", "bells-king", "hearts-10"]))),
    "must_follow_suit": ("salzburg", "leaves", plays(
        ("Anna", "bells-ace"), ("Dominik", "leaves-10", ["bells-10", "leaves-10", "acorns-7"]))),
    "must_trump": ("salzburg", "leaves", plays(
        ("Anna", "bells-ace"), ("Cilli", "acorns-king", ["leaves-8", "acorns-king"]))),
    "must_head_trick": ("salzburg", "hearts", plays(
        ("Anna", "hearts-king"), ("Bert", "hearts-7", ["bells-6", "hearts-7", "acorns-8"]))),
}


@pytest.mark.parametrize("code", sorted(TRICK_EXAMPLES))
def test_the_documented_trick_example_reports_its_code(code):
    preset, trump, the_plays = TRICK_EXAMPLES[code]
    result = check_trick(mulatschak_rules(preset), trump, the_plays)
    assert [v.code for v in result.violations] == [code]


def test_the_trick_examples_cover_every_trick_code():
    assert set(TRICK_EXAMPLES) == set(first_column_codes("mulatschak-trick-codes"))


def test_the_documented_seed_tricks_are_won_by_cilli_and_the_weli_must_follow_hearts():
    leaves = check_trick(mulatschak_rules("salzburg"), "leaves", plays(
        ("Anna", "bells-ace"), ("Bert", "acorns-9", ["acorns-9", "hearts-8"]),
        ("Cilli", "leaves-8", ["leaves-8", "acorns-king"]),
        ("Dominik", "bells-10", ["leaves-10", "bells-10"])))
    assert (leaves.legal, leaves.winner) == (True, "Cilli")
    hearts = [("Anna", "hearts-ober"), ("Bert", "bells-9", ["bells-9"]), ("Cilli", "hearts-ace")]
    weli = check_trick(mulatschak_rules("salzburg"), "hearts",
                       plays(*hearts, ("Dominik", "bells-6", ["leaves-7", "bells-6"])))
    assert (weli.legal, weli.winner) == (True, "Cilli")
    leaf = check_trick(mulatschak_rules("salzburg"), "hearts",
                       plays(*hearts, ("Dominik", "leaves-7", ["leaves-7", "bells-6"])))
    assert [v.code for v in leaf.violations] == ["must_follow_suit"]


TRICKS_OK = {"Anna": 2, "Bert": 2, "Cilli": 2, "Dominik": 2}
FIGURES_OK = {"Anna": 4, "Bert": 4, "Cilli": 4, "Dominik": 4}

#: (players, tricks, figures, codes) of the counts examples of the Mura-code table.
MURA_EXAMPLES: dict[str, tuple[tuple[str, ...], dict[str, int], dict[str, int], list[str]]] = {
    "players_count": ((*FOUR, "Erna"), {**TRICKS_OK, "Erna": 0}, {**FIGURES_OK, "Erna": 0},
                      ["players_count"]),
    "unknown_player": (FOUR, TRICKS_OK, {**FIGURES_OK, "Erna": 0}, ["unknown_player"]),
    "tricks_missing": (FOUR, {"Anna": 2, "Bert": 2, "Cilli": 4}, FIGURES_OK, ["tricks_missing"]),
    "figures_missing": (FOUR, TRICKS_OK, {"Anna": 6, "Bert": 6, "Cilli": 4},
                        ["figures_missing"]),
    "tricks_out_of_range": (FOUR, {"Anna": 0, "Bert": 9, "Cilli": 0, "Dominik": 0},
                            {"Anna": 0, "Bert": 16, "Cilli": 0, "Dominik": 0},
                            ["tricks_out_of_range", "tricks_sum"]),
    "figures_out_of_range": (FOUR, TRICKS_OK, {"Anna": 0, "Bert": 25, "Cilli": 0, "Dominik": 0},
                             ["figures_out_of_range", "figures_sum"]),
    "tricks_sum": (FOUR, {"Anna": 3, "Bert": 2, "Cilli": 2, "Dominik": 2}, FIGURES_OK,
                   ["tricks_sum"]),
    "figures_sum": (FOUR, TRICKS_OK, {"Anna": 5, "Bert": 5, "Cilli": 4, "Dominik": 3},
                    ["figures_sum"]),
    "figures_without_tricks": (FOUR, {"Anna": 3, "Bert": 3, "Cilli": 0, "Dominik": 2},
                               {"Anna": 8, "Bert": 6, "Cilli": 1, "Dominik": 1},
                               ["figures_without_tricks"]),
    "figures_too_many": (FOUR, {"Anna": 3, "Bert": 1, "Cilli": 2, "Dominik": 2},
                         {"Anna": 4, "Bert": 7, "Cilli": 3, "Dominik": 2}, ["figures_too_many"]),
    "figures_too_few": (FOUR, {"Anna": 5, "Bert": 1, "Cilli": 1, "Dominik": 1},
                        {"Anna": 3, "Bert": 5, "Cilli": 5, "Dominik": 5}, ["figures_too_few"]),
}


@pytest.mark.parametrize("code", sorted(MURA_EXAMPLES))
def test_the_documented_mura_counts_example_reports_its_code(code):
    players, tricks, figures, expected = MURA_EXAMPLES[code]
    found = [v.code for v in check_counts(players, tricks, figures).violations]
    assert found[0] == code
    assert found == expected


def test_the_documented_mura_settlement_is_the_referees():
    result = settle(Decimal("0.50"), "EUR", {"Anna": (3, 2), "Bert": (1, 0), "Cilli": (0, 5),
                                             "Dominik": (2, 0)})
    assert {p.payer + ">" + p.payee: str(p.amount) for p in result.pairs} == {
        "Anna>Bert": "1.11", "Anna>Cilli": "1.33", "Anna>Dominik": "0.61",
        "Bert>Cilli": "0.22", "Dominik>Bert": "0.50", "Dominik>Cilli": "0.72",
    }
    assert {k: str(v) for k, v in result.balances.items()} == {
        "Anna": "-3.05", "Bert": "1.39", "Cilli": "2.27", "Dominik": "-0.61"}
    assert [(t.payer, t.payee, str(t.amount)) for t in result.transfers] == [
        ("Anna", "Cilli", "2.27"), ("Anna", "Bert", "0.78"), ("Dominik", "Bert", "0.61")]


#: (finish_order, loser, players) of the Müller Matz result examples.
MATZ_EXAMPLES: dict[str, tuple[list[str] | None, str | None, tuple[str, ...]]] = {
    "players_count": (None, "Anna", ("Anna",)),
    "unknown_player": ([*FOUR, "Erna"], None, FOUR),
    "player_listed_twice": (["Bert", "Anna", "Bert", "Cilli", "Dominik"], None, FOUR),
    "player_missing": (["Anna", "Bert", "Cilli"], None, FOUR),
    "loser_not_last": (list(FOUR), "Cilli", FOUR),
}


@pytest.mark.parametrize("code", sorted(MATZ_EXAMPLES))
def test_the_documented_muller_matz_result_example_reports_its_code(code):
    order, loser, players = MATZ_EXAMPLES[code]
    assert [v.code for v in check_result(players, order, loser).violations] == [code]


BEAT_EXAMPLES = {
    "higher_same_suit": ("spades-9", "spades-queen", True),
    "higher_trump": ("hearts-7", "hearts-jack", True),
    "trump_beats_non_trump": ("spades-ace", "hearts-2", True),
    "not_higher": ("spades-9", "spades-4", False),
    "trump_only_beaten_by_higher_trump": ("hearts-7", "spades-ace", False),
    "different_suit_not_trump": ("spades-9", "clubs-king", False),
    "same_card": ("spades-9", "spades-9", False),
}


@pytest.mark.parametrize("reason", sorted(BEAT_EXAMPLES))
def test_the_documented_beat_example_gives_its_reason_in_both_lives(reason):
    attack, defense, legal = BEAT_EXAMPLES[reason]
    for life in (1, 2):
        result = check_beat(attack, defense, "hearts", life)
        assert (result.legal, result.reason) == (legal, reason)


def test_the_beat_examples_cover_every_reason():
    assert set(BEAT_EXAMPLES) == set(REASONS_EN)


# --- the numbers in the text ---------------------------------------------------------


def deltas(t: Table, deal: Deal) -> tuple[int, dict[str, int]]:
    result = score_deal(t, deal)
    assert result.legal, result.violations
    return result.multiplier, dict(result.deltas)


def test_the_documented_scoring_examples():
    assert deltas(table(), Deal.played(
        declarer="Bert", bid=3, trump="leaves", stayed_home=["Cilli"],
        tricks={"Anna": 1, "Bert": 3, "Dominik": 1})) == (
        1, {"Anna": -1, "Bert": -3, "Cilli": 1, "Dominik": -1})
    assert deltas(table(), Deal.played(
        declarer="Bert", bid=3, trump="hearts",
        tricks={"Anna": 0, "Bert": 2, "Cilli": 2, "Dominik": 1})) == (
        2, {"Anna": 10, "Bert": 20, "Cilli": -4, "Dominik": -2})


def test_the_documented_multipliers():
    hearts = played(trump="hearts")
    assert deltas(table(collapses=1), hearts)[0] == 4
    knocked = played(trump="hearts", knocked=True)
    assert deltas(table(collapses=2), knocked)[0] == 16
    assert deltas(table(overrides={"multiplier_cap": 8}, collapses=2), knocked)[0] == 8


def test_the_documented_muli_examples():
    muli = {"declarer": "Bert", "bid": 5}
    assert deltas(table(), Deal.played(**muli, trump="hearts", tricks={
        "Anna": 0, "Bert": 5, "Cilli": 0, "Dominik": 0})) == (
        2, {"Anna": 20, "Bert": -20, "Cilli": 20, "Dominik": 20})
    assert deltas(table("murln"), Deal.played(**muli, trump="leaves", tricks={
        "Anna": 1, "Bert": 4, "Cilli": 0, "Dominik": 0}))[1] == {
        "Anna": -10, "Bert": 20, "Cilli": -10, "Dominik": -10}
    broken = {"Anna": 1, "Bert": 3, "Cilli": 1, "Dominik": 0}
    assert deltas(table(overrides={"muli_fail_mode": "breaker"}), Deal.played(
        **muli, trump="leaves", tricks=broken, muli_breaker="Anna"))[1] == {
        "Anna": -10, "Bert": 10, "Cilli": 0, "Dominik": 0}
    assert deltas(table(overrides={"muli_fail_mode": "trick_takers"}), Deal.played(
        **muli, trump="leaves", tricks=broken))[1] == {
        "Anna": -10, "Bert": 10, "Cilli": -10, "Dominik": 0}


def test_the_documented_game_money_and_muller_matz_money():
    assert game_payments({"Anna": -2, "Bert": 7, "Cilli": 12}, ["Anna"], Decimal("0.10"),
                         "EUR") == [("Bert", "Anna", Decimal("0.90")),
                                    ("Cilli", "Anna", Decimal("1.40"))]
    state = MatzState({"Anna": 0, "Bert": 3, "Cilli": 2, "Dominik": 0}, 5)
    assert {k: str(v) for k, v in matz_balances(state, Decimal("0.20"), "EUR").items()} == {
        "Anna": "1.00", "Bert": "-1.40", "Cilli": "-0.60", "Dominik": "1.00"}


def test_the_documented_talons():
    assert mulatschak_rules("salzburg").talon_size(4) == 16
    assert mulatschak_rules("salzburg").talon_size(6) == 6
    assert mulatschak_rules("murln").talon_size(4) == 13


# --- anchors -------------------------------------------------------------------------


def headings() -> list[str]:
    """The section headings (## and deeper), outside fenced code."""
    out: list[str] = []
    fenced = False
    for line in RULES_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"^#{2,6} ", line):
            out.append(line.lstrip("#").strip())
    return out


def anchor(heading: str) -> str:
    """The anchor GitHub (and other renderers, for plain ASCII headings) makes of a heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")


def listed_anchors() -> list[str]:
    return re.findall(r"\]\(#([^)]+)\)", marked("anchors"))


def test_the_anchor_list_at_the_top_lists_something():
    assert "following-suit" in listed_anchors()
    assert len(listed_anchors()) >= 40


def test_every_anchor_listed_at_the_top_is_a_heading():
    made = {anchor(h) for h in headings()}
    missing = [a for a in listed_anchors() if a not in made]
    assert not missing


def test_every_section_heading_is_listed_at_the_top():
    listed = set(listed_anchors())
    unlisted = [h for h in headings() if h != "Sections" and anchor(h) not in listed]
    assert not unlisted


def test_no_two_headings_make_the_same_anchor():
    made = [anchor(h) for h in headings()]
    assert len(made) == len(set(made))


def test_headings_are_plain_ascii_so_that_every_renderer_makes_the_same_anchor():
    assert [h for h in headings() if not re.fullmatch(r"[A-Za-z0-9 -]+", h)] == []


def test_every_link_inside_the_document_leads_to_a_heading():
    made = {anchor(h) for h in headings()}
    links = re.findall(r"\]\(#([^)]+)\)", RULES_DOC.read_text(encoding="utf-8"))
    assert links
    assert sorted({link for link in links if link not in made}) == []


# --- nobody is sent to files a clone does not have -----------------------------------


@pytest.mark.parametrize("path", ["README.md", "bench/README.md", *sorted(
    f"docs/{p.name}" for p in (PROJECT / "docs").glob("*.md"))])
def test_the_documents_send_nobody_to_the_specification_files_a_clone_lacks(path):
    text = (PROJECT / path).read_text(encoding="utf-8")
    assert re.findall(r"RULES\.md|API\.md|\.\./shared|/work/shared", text) == []
