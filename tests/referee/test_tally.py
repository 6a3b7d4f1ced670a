"""Session tallies: Mura deals in a row, Müller Matz games, Mulatschak game money."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.money import transfer_plan
from referee.tally import (
    IllegalRecord,
    balances_of,
    game_payments,
    matz_apply,
    matz_balances,
    matz_start,
    mura_apply,
    mura_start,
)

from ..strength import examples

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]


def counts(tricks, figures):
    return {"tricks": dict(zip(SEATS, tricks, strict=True)),
            "figures": dict(zip(SEATS, figures, strict=True))}


def test_mura_deals_add_up_mura_and_zeros_and_the_deal_passes_to_the_right():
    state = mura_start(SEATS, "Dominik")
    _, state = mura_apply(SEATS, state, counts([2, 3, 3, 0], [2, 9, 7, 0]))
    _, state = mura_apply(SEATS, state, counts([1, 3, 4, 0], [1, 8, 9, 0]))
    assert dict(state.mura) == {"Anna": 3, "Bert": 0, "Cilli": 0, "Dominik": 0}
    assert dict(state.zeros) == {"Anna": 0, "Bert": 0, "Cilli": 0, "Dominik": 2}
    assert state.dealer == "Bert"  # Dominik, then Anna (the next seat), then Bert
    assert state.deals == 2


def test_an_illegal_mura_deal_is_refused_with_its_number():
    state = mura_start(SEATS, "Anna")
    with pytest.raises(IllegalRecord) as e:
        mura_apply(SEATS, state, counts([2, 3, 3, 1], [2, 9, 7, 0]))
    assert e.value.number == 1
    assert "tricks_sum" in [v.code for v in e.value.violations]


def test_muller_matz_counts_losses_from_the_loser_or_the_whole_order():
    state = matz_start(SEATS)
    _, state = matz_apply(SEATS, state, {"loser": "Cilli"})
    _, state = matz_apply(SEATS, state, {"finish_order": ["Anna", "Bert", "Dominik", "Cilli"]})
    assert dict(state.losses) == {"Anna": 0, "Bert": 0, "Cilli": 2, "Dominik": 0}
    assert state.games == 2


def test_muller_matz_losers_pay_every_other_player_the_stake():
    state = matz_start(SEATS)
    _, state = matz_apply(SEATS, state, {"loser": "Cilli"})
    balances = matz_balances(state, Decimal("0.50"), "EUR")
    assert balances == {"Anna": Decimal("0.50"), "Bert": Decimal("0.50"),
                        "Cilli": Decimal("-1.50"), "Dominik": Decimal("0.50")}


def test_a_muller_matz_result_naming_a_stranger_is_refused():
    with pytest.raises(IllegalRecord):
        matz_apply(SEATS, matz_start(SEATS), {"loser": "Zora"})


def test_mulatschak_losers_pay_the_winner_the_difference():
    payments = game_payments({"Anna": 0, "Bert": 4, "Cilli": 7, "Dominik": 14}, ["Anna"],
                             Decimal("0.10"), "EUR")
    assert payments == [("Bert", "Anna", Decimal("0.40")), ("Cilli", "Anna", Decimal("0.70")),
                        ("Dominik", "Anna", Decimal("1.40"))]


def test_tied_winners_share_each_payment():
    payments = game_payments({"Anna": 0, "Bert": 0, "Cilli": 3}, ["Anna", "Bert"],
                             Decimal("0.05"), "EUR")
    # 3 points × 0.05 = 0.15, half each: 0.075 → 0.08 (half-up) to each winner
    assert payments == [("Cilli", "Anna", Decimal("0.08")), ("Cilli", "Bert", Decimal("0.08"))]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(SEATS), min_size=1, max_size=30),
       st.decimals(min_value=Decimal("0.01"), max_value=Decimal("50"), places=2))
def test_muller_matz_balances_always_add_up_to_zero_and_the_plan_pays_them(losers, stake):
    state = matz_start(SEATS)
    for loser in losers:
        _, state = matz_apply(SEATS, state, {"loser": loser})
    balances = matz_balances(state, stake, "EUR")
    assert sum(balances.values()) == 0
    paid = dict.fromkeys(SEATS, Decimal(0))
    for t in transfer_plan(balances):
        paid[t.payer] -= t.amount
        paid[t.payee] += t.amount
    assert paid == balances


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(-20, 60), min_size=2, max_size=6),
       st.decimals(min_value=Decimal("0.01"), max_value=Decimal("5"), places=2))
def test_mulatschak_game_money_adds_up_to_zero(scores, stake):
    players = [f"P{i}" for i in range(len(scores))]
    final = dict(zip(players, scores, strict=True))
    best = min(scores)
    winners = [p for p in players if final[p] == best]
    balances = balances_of(game_payments(final, winners, stake, "EUR"), players, "EUR")
    assert sum(balances.values()) == 0
    assert all(balances[w] >= 0 for w in winners)
    assert all(balances[p] <= 0 for p in players if p not in winners)
