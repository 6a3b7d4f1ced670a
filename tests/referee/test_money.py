"""Money: stakes, the Mura settlement and transfer plans."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.money import (
    CURRENCY_EXPONENTS,
    Penalty,
    Settlement,
    Transfer,
    minor_unit,
    parse_stake,
    settle,
    transfer_plan,
)
from referee.violations import RuleError
from tests.conftest import EXAMPLES

from ..strength import examples


def example(name: str) -> dict[str, Any]:
    entries: list[dict[str, Any]] = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    return next(entry for entry in entries if entry["name"] == name)


def settle_request(request: dict[str, Any]) -> Settlement:
    """What the settle endpoint does with a request body."""
    stake = parse_stake(request["stake"], request["currency"])
    return settle(stake, request["currency"], request["penalties"])


# ---------------------------------------------------------------------------------------
# Currencies and stakes


@pytest.mark.parametrize(
    ("currency", "places"),
    [
        ("EUR", 2),
        ("USD", 2),
        ("GBP", 2),
        ("CHF", 2),
        ("HUF", 2),
        ("CZK", 2),
        ("PLN", 2),
        ("SEK", 2),
        ("NOK", 2),
        ("DKK", 2),
        ("JPY", 0),
        ("KRW", 0),
        ("ISK", 0),
        ("BHD", 3),
        ("KWD", 3),
        ("JOD", 3),
        ("TND", 3),
        ("OMR", 3),
    ],
)
def test_a_currency_has_its_iso_4217_minor_unit(currency: str, places: int) -> None:
    assert minor_unit(currency) == places
    assert CURRENCY_EXPONENTS[currency] == places


def test_a_currency_code_may_be_lowercase() -> None:
    assert minor_unit("eur") == 2


@pytest.mark.parametrize("currency", ["XYZ", "EURO", "", 978, None])
def test_an_unknown_currency_is_a_rule_error(currency: object) -> None:
    with pytest.raises(RuleError) as caught:
        minor_unit(currency)  # type: ignore[arg-type]
    assert caught.value.field == "currency"


@pytest.mark.parametrize(
    ("text", "currency", "stake"),
    [
        ("0.50", "EUR", Decimal("0.50")),
        ("0.5", "EUR", Decimal("0.50")),
        ("2", "EUR", Decimal("2.00")),
        ("100", "JPY", Decimal("100")),
        ("0.125", "KWD", Decimal("0.125")),
        (" 1.20 ", "CHF", Decimal("1.20")),
        ("999999999999.99", "EUR", Decimal("999999999999.99")),
    ],
)
def test_a_stake_is_quantized_to_the_minor_unit(text: str, currency: str, stake: Decimal) -> None:
    parsed = parse_stake(text, currency)
    assert parsed == stake
    assert parsed.as_tuple().exponent == stake.as_tuple().exponent


@pytest.mark.parametrize(
    ("text", "currency", "code"),
    [
        ("0.505", "EUR", "too_precise"),
        ("1.5", "JPY", "too_precise"),
        ("100.0", "JPY", "too_precise"),
        ("0", "EUR", "too_small"),
        ("0.00", "EUR", "too_small"),
        ("-1", "EUR", "not_decimal"),
        ("+1", "EUR", "not_decimal"),
        ("1e2", "EUR", "not_decimal"),
        ("NaN", "EUR", "not_decimal"),
        ("Infinity", "EUR", "not_decimal"),
        (".5", "EUR", "not_decimal"),
        ("5.", "EUR", "not_decimal"),
        ("1,50", "EUR", "not_decimal"),
        ("", "EUR", "not_decimal"),
        ("١", "EUR", "not_decimal"),
        ("1000000000000", "EUR", "too_large"),
    ],
)
def test_a_bad_stake_is_a_rule_error(text: str, currency: str, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_stake(text, currency)
    assert (caught.value.field, caught.value.code) == ("stake", code)


@pytest.mark.parametrize("value", [0.5, 1, Decimal("0.50"), None, True])
def test_a_stake_that_is_no_string_is_a_rule_error(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        parse_stake(value, "EUR")  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.code) == ("stake", "not_string")


def test_a_stake_in_an_unknown_currency_names_the_currency() -> None:
    with pytest.raises(RuleError) as caught:
        parse_stake("0.50", "XYZ")
    assert caught.value.field == "currency"


# ---------------------------------------------------------------------------------------
# Settlement


def test_the_mura_settle_example_is_reproduced_exactly() -> None:
    entry = example("mura-settle")
    settlement = settle_request(entry["request"])
    result = settlement.as_dict()
    expected = entry["response"]
    assert result["balances"] == expected["balances"]
    assert result["pairs"] == expected["pairs"]
    assert list(settlement.balances) == list(expected["balances"])


def test_the_mura_settle_example_by_hand() -> None:
    result = settle(
        Decimal("0.20"),
        "EUR",
        {
            "Hans": Penalty(4, 0),
            "Grete": Penalty(1, 2),
            "Sepp": Penalty(0, 0),
            "Resi": Penalty(2, 9),
        },
    )
    assert dict(result.balances) == {
        "Hans": Decimal("-1.56"),
        "Grete": Decimal("0.68"),
        "Sepp": Decimal("1.64"),
        "Resi": Decimal("-0.76"),
    }
    assert result.pairs == (
        Transfer("Hans", "Grete", Decimal("0.56")),
        Transfer("Hans", "Sepp", Decimal("0.80")),
        Transfer("Hans", "Resi", Decimal("0.20")),
        Transfer("Grete", "Sepp", Decimal("0.24")),
        Transfer("Resi", "Grete", Decimal("0.36")),
        Transfer("Resi", "Sepp", Decimal("0.60")),
    )
    # Hans owes most and pays Sepp, who is owed most; then Resi pays Grete and Sepp.
    assert result.transfers == (
        Transfer("Hans", "Sepp", Decimal("1.56")),
        Transfer("Resi", "Grete", Decimal("0.68")),
        Transfer("Resi", "Sepp", Decimal("0.08")),
    )


def test_nine_zeros_are_one_mura() -> None:
    result = settle(Decimal("1.00"), "EUR", {"A": Penalty(0, 9), "B": Penalty(1, 0)})
    assert result.pairs == ()
    assert dict(result.balances) == {"A": Decimal("0.00"), "B": Decimal("0.00")}
    assert result.transfers == ()


def test_zeros_per_mura_is_a_parameter() -> None:
    result = settle(Decimal("1.00"), "EUR", {"A": (0, 3), "B": (0, 0)}, zeros_per_mura=3)
    assert result.pairs == (Transfer("A", "B", Decimal("1.00")),)


def test_a_pair_amount_is_rounded_half_up_on_the_exact_value() -> None:
    # With two zeros a mura, A's penalty is 1/2: (1/2) × 0.09 = 0.045 exactly, half a cent.
    # Half-up gives 0.05 (half-even would give 0.04).
    result = settle(Decimal("0.09"), "EUR", {"A": (0, 1), "B": (0, 0)}, zeros_per_mura=2)
    assert result.pairs == (Transfer("A", "B", Decimal("0.05")),)


def test_a_pair_amount_rounds_down_below_the_half() -> None:
    # (1/9) × 0.20 = 0.0222… → 0.02
    result = settle(Decimal("0.20"), "EUR", {"A": (0, 1), "B": (0, 0)})
    assert result.pairs == (Transfer("A", "B", Decimal("0.02")),)


def test_rounding_is_per_pair_not_on_the_balance() -> None:
    # Each pair owes (1/9) × 0.20 = 0.0222… → 0.02; three pairs: 0.06, not round(0.0666) 0.07.
    result = settle(Decimal("0.20"), "EUR", {"A": (0, 1), "B": (0, 0), "C": (0, 0), "D": (0, 0)})
    assert result.balances["A"] == Decimal("-0.06")


def test_a_pair_that_rounds_to_nothing_has_no_entry() -> None:
    result = settle(Decimal("0.01"), "EUR", {"A": (0, 1), "B": (0, 0)})
    assert result.pairs == ()
    assert result.balances == {"A": Decimal("0.00"), "B": Decimal("0.00")}


def test_equal_penalties_have_no_pair_entry() -> None:
    result = settle(Decimal("0.50"), "EUR", {"A": (2, 1), "B": (2, 1), "C": (3, 1)})
    assert [(p.payer, p.payee) for p in result.pairs] == [("C", "A"), ("C", "B")]


def test_a_balance_of_zero_has_the_currency_places() -> None:
    result = settle(Decimal("0.50"), "EUR", {"A": (1, 0), "B": (1, 0)})
    assert str(result.balances["A"]) == "0.00"


def test_a_currency_without_minor_units_rounds_to_whole_units() -> None:
    # (1/9) × 50 yen = 5.55… → 6
    result = settle(Decimal("50"), "JPY", {"A": (0, 1), "B": (0, 0)})
    assert result.pairs == (Transfer("A", "B", Decimal("6")),)
    assert str(result.balances["B"]) == "6"


def test_a_three_place_currency_rounds_to_the_fils() -> None:
    # (1/9) × 0.100 KWD = 0.0111… → 0.011
    result = settle(Decimal("0.100"), "KWD", {"A": (0, 1), "B": (0, 0)})
    assert str(result.pairs[0].amount) == "0.011"


def test_a_single_player_settles_nothing() -> None:
    result = settle(Decimal("0.50"), "EUR", {"A": (5, 3)})
    assert (dict(result.balances), result.pairs, result.transfers) == (
        {"A": Decimal("0.00")},
        (),
        (),
    )


def test_penalties_may_be_json_objects_tuples_or_penalties() -> None:
    as_json = settle(Decimal("0.20"), "EUR", {"A": {"mura": 1, "zeros": 2}, "B": (0, 0)})
    as_value = settle(Decimal("0.20"), "EUR", {"A": Penalty(1, 2), "B": Penalty(0, 0)})
    assert as_json == as_value


def test_a_penalty_is_mura_plus_a_ninth_per_zero() -> None:
    assert Penalty(1, 2).points() == Fraction(11, 9)
    assert Penalty(1, 2).points(zeros_per_mura=2) == 2


def test_a_settlement_reads_like_the_api() -> None:
    result = settle(Decimal("0.50"), "eur", {"A": (1, 0), "B": (0, 0)})
    assert result.as_dict() == {
        "currency": "EUR",
        "stake": "0.50",
        "balances": {"A": "-0.50", "B": "0.50"},
        "pairs": [{"from": "A", "to": "B", "amount": "0.50"}],
        "transfers": [{"from": "A", "to": "B", "amount": "0.50"}],
    }


@pytest.mark.parametrize(
    ("penalty", "field", "code"),
    [
        ({"mura": -1, "zeros": 0}, "penalties.Hans.mura", "too_small"),
        ({"mura": 0, "zeros": -2}, "penalties.Hans.zeros", "too_small"),
        ({"mura": True, "zeros": 0}, "penalties.Hans.mura", "not_int"),
        ({"mura": "1", "zeros": 0}, "penalties.Hans.mura", "not_int"),
        ({"mura": 1.0, "zeros": 0}, "penalties.Hans.mura", "not_int"),
        ({"mura": 10**10, "zeros": 0}, "penalties.Hans.mura", "too_large"),
        ({"zeros": 0}, "penalties.Hans.mura", "missing"),
        ({"mura": 0, "zeros": 0, "mulis": 1}, "penalties.Hans.mulis", "unknown_field"),
        (Penalty(-1, 0), "penalties.Hans.mura", "too_small"),
        ((1, 2, 3), "penalties.Hans", "bad_penalty"),
        (7, "penalties.Hans", "bad_penalty"),
    ],
)
def test_a_bad_penalty_is_a_rule_error_naming_it(penalty: object, field: str, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        settle(Decimal("0.50"), "EUR", {"Hans": penalty, "Grete": (0, 0)})  # type: ignore[dict-item]
    assert (caught.value.field, caught.value.code) == (field, code)


@pytest.mark.parametrize(
    ("stake", "code"),
    [
        ("0.50", "not_decimal"),
        (0.5, "not_decimal"),
        (Decimal("NaN"), "not_decimal"),
        (Decimal("Infinity"), "not_decimal"),
        (Decimal("0"), "too_small"),
        (Decimal("-1.00"), "too_small"),
        (Decimal("0.505"), "too_precise"),
        (Decimal("1E+12"), "too_large"),
    ],
)
def test_a_bad_stake_for_settling_is_a_rule_error(stake: object, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        settle(stake, "EUR", {"A": (1, 0)})  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.code) == ("stake", code)


def test_an_unknown_currency_cannot_be_settled() -> None:
    with pytest.raises(RuleError) as caught:
        settle(Decimal("1"), "XYZ", {"A": (1, 0)})
    assert caught.value.field == "currency"


@pytest.mark.parametrize("value", [0, -1, True, 9.0])
def test_zeros_per_mura_must_be_a_positive_whole_number(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        settle(Decimal("1.00"), "EUR", {"A": (1, 0)}, zeros_per_mura=value)  # type: ignore[arg-type]
    assert caught.value.field == "zeros_per_mura"


# ---------------------------------------------------------------------------------------
# Transfer plans


def test_the_largest_debtor_pays_the_largest_creditor_first() -> None:
    plan = transfer_plan(
        {"A": Decimal("-3"), "B": Decimal("-1"), "C": Decimal("2"), "D": Decimal("2")}
    )
    assert plan == (
        Transfer("A", "C", Decimal("2")),
        Transfer("A", "D", Decimal("1")),
        Transfer("B", "D", Decimal("1")),
    )


def test_ties_go_to_the_earlier_seat() -> None:
    plan = transfer_plan(
        {"A": Decimal("1.00"), "B": Decimal("-1.00"), "C": Decimal("-1.00"), "D": Decimal("1.00")}
    )
    assert plan == (
        Transfer("B", "A", Decimal("1.00")),
        Transfer("C", "D", Decimal("1.00")),
    )


def test_even_balances_need_no_transfer() -> None:
    assert transfer_plan({"A": Decimal("0.00"), "B": Decimal("0")}) == ()
    assert transfer_plan({}) == ()


def test_amounts_take_the_places_of_the_most_precise_balance() -> None:
    plan = transfer_plan({"A": Decimal("-1.5"), "B": Decimal("1.50")})
    assert str(plan[0].amount) == "1.50"


def test_balances_that_do_not_add_up_to_zero_are_a_rule_error() -> None:
    with pytest.raises(RuleError) as caught:
        transfer_plan({"A": Decimal("-1.00"), "B": Decimal("0.99")})
    assert (caught.value.field, caught.value.code) == ("balances", "not_zero_sum")


@pytest.mark.parametrize("bad", [1.0, "1.00", Decimal("NaN"), Decimal("1e-30"), Decimal("1e50")])
def test_a_balance_that_is_no_usable_decimal_is_a_rule_error(bad: object) -> None:
    with pytest.raises(RuleError) as caught:
        transfer_plan({"A": bad, "B": Decimal("0")})  # type: ignore[dict-item]
    assert caught.value.field == "balances.A"


# ---------------------------------------------------------------------------------------
# Properties

NAMES = ("Hans", "Grete", "Sepp", "Resi", "Anna", "Bert", "Cilli", "Dominik")
CURRENCIES = ("EUR", "JPY", "KWD", "HUF")

penalty_tables = st.lists(st.sampled_from(NAMES), min_size=1, max_size=8, unique=True).flatmap(
    lambda names: st.fixed_dictionaries(
        {name: st.tuples(st.integers(0, 60), st.integers(0, 60)) for name in names}
    )
)
stakes = st.tuples(st.sampled_from(CURRENCIES), st.integers(1, 10**6)).map(
    lambda pair: (pair[0], Decimal(pair[1]).scaleb(-CURRENCY_EXPONENTS[pair[0]]))
)
PROPERTY = settings(max_examples=examples(200), deadline=None, database=None)


def apply(transfers: tuple[Transfer, ...], names: list[str]) -> dict[str, Decimal]:
    balances = dict.fromkeys(names, Decimal(0))
    for transfer in transfers:
        assert transfer.amount > 0 and transfer.payer != transfer.payee
        balances[transfer.payer] -= transfer.amount
        balances[transfer.payee] += transfer.amount
    return balances


@PROPERTY
@given(penalty_tables, stakes)
def test_balances_always_add_up_to_exactly_zero(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal]
) -> None:
    currency, amount = stake
    result = settle(amount, currency, table)
    assert sum(result.balances.values()) == 0
    assert list(result.balances) == list(table)
    places = CURRENCY_EXPONENTS[currency]
    assert all(b.as_tuple().exponent == -places for b in result.balances.values())


@PROPERTY
@given(penalty_tables, stakes)
def test_the_transfers_realize_the_balances_exactly_in_at_most_n_minus_one_payments(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal]
) -> None:
    result = settle(stake[1], stake[0], table)
    assert apply(result.transfers, list(table)) == dict(result.balances)
    assert len(result.transfers) <= len(table) - 1


@PROPERTY
@given(penalty_tables, stakes)
def test_a_balance_is_the_sum_of_the_players_pair_amounts(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal]
) -> None:
    result = settle(stake[1], stake[0], table)
    assert apply(result.pairs, list(table)) == dict(result.balances)


@PROPERTY
@given(penalty_tables, stakes)
def test_every_pair_amount_is_the_exact_difference_rounded_half_up(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal]
) -> None:
    currency, amount = stake
    result = settle(amount, currency, table)
    points = {name: Fraction(m) + Fraction(z, 9) for name, (m, z) in table.items()}
    owed = {(p.payer, p.payee): p.amount for p in result.pairs}
    names = list(table)
    quantum = Decimal(1).scaleb(-CURRENCY_EXPONENTS[currency])
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            exact = abs(points[first] - points[second]) * Fraction(amount)
            with localcontext() as ctx:
                ctx.prec = 80
                expected = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
                    quantum, rounding=ROUND_HALF_UP
                )
            payer, payee = (first, second) if points[first] > points[second] else (second, first)
            assert owed.get((payer, payee), quantum * 0) == expected
            assert (payee, payer) not in owed


@PROPERTY
@given(penalty_tables, stakes, st.data())
def test_a_higher_penalty_never_raises_a_players_balance(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal], data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(table)))
    more_mura = data.draw(st.integers(0, 5))
    more_zeros = data.draw(st.integers(0, 20))
    mura, zeros = table[name]
    worse = {**table, name: (mura + more_mura, zeros + more_zeros)}
    before = settle(stake[1], stake[0], table).balances[name]
    after = settle(stake[1], stake[0], worse).balances[name]
    assert after <= before


@PROPERTY
@given(penalty_tables, stakes)
def test_settling_twice_gives_the_same_transfers(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal]
) -> None:
    assert settle(stake[1], stake[0], table) == settle(stake[1], stake[0], dict(table))


@PROPERTY
@given(penalty_tables, stakes)
def test_renaming_players_does_not_change_any_amount(
    table: dict[str, tuple[int, int]], stake: tuple[str, Decimal]
) -> None:
    renamed = {f"player {i}": penalty for i, penalty in enumerate(table.values())}
    before = settle(stake[1], stake[0], table)
    after = settle(stake[1], stake[0], renamed)
    assert list(before.balances.values()) == list(after.balances.values())
    assert [p.amount for p in before.pairs] == [p.amount for p in after.pairs]
    assert [t.amount for t in before.transfers] == [t.amount for t in after.transfers]
    index = {name: f"player {i}" for i, name in enumerate(table)}
    assert [(index[t.payer], index[t.payee]) for t in before.transfers] == [
        (t.payer, t.payee) for t in after.transfers
    ]


@PROPERTY
@given(
    st.lists(st.integers(-(10**6), 10**6), min_size=0, max_size=9),
    st.integers(0, 3),
)
def test_any_zero_sum_balances_get_a_plan_of_at_most_n_minus_one_transfers(
    units: list[int], places: int
) -> None:
    amounts = [*units, -sum(units)]
    balances = {f"p{i}": Decimal(u).scaleb(-places) for i, u in enumerate(amounts)}
    plan = transfer_plan(balances)
    assert apply(plan, list(balances)) == balances
    assert len(plan) <= len(balances) - 1
    assert plan == transfer_plan(dict(balances))
