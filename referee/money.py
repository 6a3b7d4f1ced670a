"""Money: stakes, exact settlement between players, and transfer plans.

Money is :class:`~decimal.Decimal`, quantized to the currency's minor unit (ISO 4217),
never float. Intermediate values are exact: penalties and pair amounts are computed with
:class:`~fractions.Fraction` and integer minor units, so no decimal context (precision,
rounding mode) ever affects a result.

Mura settlement (docs/rules.md, "Mura settlement"): a player's penalty is
``P = mura + zeros / zeros_per_mura``.
Each pair of players (i before j in the order given) settles the difference: the player
with the larger ``P`` pays ``|P_i - P_j| × stake``, rounded half-up to the minor unit for
that pair. A pair whose amount rounds to nothing (or whose ``P`` are equal) has no entry.
A player's balance is what they receive minus what they pay over all pairs, so the
balances add up to exactly zero.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

from referee.violations import RuleError

#: ISO 4217 minor units (decimal places) of common currencies.
# fmt: off
CURRENCY_EXPONENTS: Mapping[str, int] = MappingProxyType(
    {
        **dict.fromkeys(
            (
                "AED", "ALL", "AMD", "ARS", "AUD", "AZN", "BAM", "BGN", "BOB", "BRL", "BYN",
                "CAD", "CHF", "CNY", "COP", "CRC", "CZK", "DKK", "DOP", "DZD", "EGP", "EUR",
                "GBP", "GEL", "GHS", "GTQ", "HKD", "HNL", "HUF", "IDR", "ILS", "INR", "KES",
                "KZT", "LKR", "MAD", "MDL", "MKD", "MNT", "MXN", "MYR", "NGN", "NOK", "NZD",
                "PEN", "PHP", "PKR", "PLN", "QAR", "RON", "RSD", "RUB", "SAR", "SEK", "SGD",
                "THB", "TRY", "TWD", "UAH", "USD", "UYU", "UZS", "ZAR",
            ),
            2,
        ),
        **dict.fromkeys(
            (
                "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX",
                "VND", "VUV", "XAF", "XOF", "XPF",
            ),
            0,
        ),
        **dict.fromkeys(("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"), 3),
        **dict.fromkeys(("CLF", "UYW"), 4),
    }
)
# fmt: on

#: Most integer digits a stake may have.
MAX_STAKE_DIGITS = 12
#: Largest mura or zeros count a penalty may have.
MAX_PENALTY = 10**9
#: Balances passed to :func:`transfer_plan` have at most this many places and digits.
MAX_BALANCE_PLACES = 18
MAX_BALANCE_DIGITS = 40


def minor_unit(currency: str) -> int:
    """Decimal places of the currency (EUR 2, JPY 0, KWD 3), or RuleError("currency")."""
    if not isinstance(currency, str) or currency.upper() not in CURRENCY_EXPONENTS:
        raise RuleError(
            "currency",
            "is not a known ISO 4217 currency code",
            "unknown_currency",
            currency=str(currency),
        )
    return CURRENCY_EXPONENTS[currency.upper()]


def _from_units(units: int, places: int) -> Decimal:
    """``units`` minor units as an exact Decimal with ``places`` places (-156, 2 → -1.56)."""
    return Decimal(f"{units}e-{places}")


def _to_units(amount: Decimal, places: int) -> int:
    """The exact number of ``10**-places`` units in ``amount`` (a multiple of them)."""
    sign, digits, exponent = amount.as_tuple()
    assert isinstance(exponent, int)
    shift = exponent + places
    assert shift >= 0
    magnitude = int(int("".join(map(str, digits)) or "0") * 10**shift)
    return -magnitude if sign else magnitude


def _places(amount: Decimal) -> int:
    exponent = amount.as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


_STAKE = re.compile(r"([0-9]+)(?:\.([0-9]+))?")


def parse_stake(text: str, currency: str) -> Decimal:
    """A stake as a positive Decimal quantized to the currency's minor unit.

    Only strings like ``"0.50"``: no float, no exponent, no sign, no NaN or Infinity, at
    most :data:`MAX_STAKE_DIGITS` integer digits and the currency's places. Otherwise
    RuleError naming ``stake`` (or ``currency``).
    """
    places = minor_unit(currency)
    if not isinstance(text, str):
        raise RuleError("stake", "must be a decimal string like '0.50', not a number", "not_string")
    match = _STAKE.fullmatch(text.strip())
    if match is None:
        raise RuleError("stake", "must be a plain decimal like '0.50'", "not_decimal")
    whole, fraction = match.group(1), match.group(2) or ""
    if len(whole.lstrip("0")) > MAX_STAKE_DIGITS:
        raise RuleError(
            "stake",
            f"must have at most {MAX_STAKE_DIGITS} digits before the point",
            "too_large",
            digits=MAX_STAKE_DIGITS,
        )
    if len(fraction) > places:
        raise RuleError(
            "stake",
            f"must have at most {places} decimal places in {currency}",
            "too_precise",
            places=places,
        )
    units = int(whole + fraction.ljust(places, "0"))
    if units == 0:
        raise RuleError("stake", "must be more than zero", "too_small")
    return _from_units(units, places)


# ---------------------------------------------------------------------------------------
# Settlement


@dataclass(frozen=True)
class Penalty:
    """A player's Mura penalties: mura points and zeros."""

    mura: int
    zeros: int

    def points(self, zeros_per_mura: int = 9) -> Fraction:
        """``P = mura + zeros / zeros_per_mura``, exactly."""
        return self.mura + Fraction(self.zeros, zeros_per_mura)


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``amount`` to ``payee``."""

    payer: str
    payee: str
    amount: Decimal

    def as_dict(self) -> dict[str, str]:
        return {"from": self.payer, "to": self.payee, "amount": str(self.amount)}


@dataclass(frozen=True)
class Settlement:
    """The money of a Mura session.

    ``balances``: every player, received minus paid, quantized (``Decimal("0.00")`` when
    even), summing to exactly zero. ``pairs``: one entry per pair that owes something, in
    pair order (i < j over the players' order). ``transfers``: at most n − 1 payments that
    realize the balances exactly (see :func:`transfer_plan`).
    """

    currency: str
    stake: Decimal
    balances: Mapping[str, Decimal]
    pairs: tuple[Transfer, ...]
    transfers: tuple[Transfer, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "currency": self.currency,
            "stake": str(self.stake),
            "balances": {name: str(amount) for name, amount in self.balances.items()},
            "pairs": [pair.as_dict() for pair in self.pairs],
            "transfers": [transfer.as_dict() for transfer in self.transfers],
        }


PenaltyLike = Penalty | tuple[int, int] | Mapping[str, int]


def _count(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(where, "must be a whole number", "not_int")
    if value < 0:
        raise RuleError(where, "must be 0 or more", "too_small", min=0)
    if value > MAX_PENALTY:
        raise RuleError(where, f"must be at most {MAX_PENALTY}", "too_large", max=MAX_PENALTY)
    return value


def _penalty(name: str, value: object) -> Penalty:
    where = f"penalties.{name}"
    if isinstance(value, Penalty):
        mura, zeros = value.mura, value.zeros
    elif isinstance(value, tuple):
        if len(value) != 2:
            raise RuleError(where, "must be a pair of mura and zeros", "bad_penalty")
        mura, zeros = value
    elif isinstance(value, Mapping):
        for key in value:
            if key not in ("mura", "zeros"):
                raise RuleError(
                    f"{where}.{key}", "is not a penalty field (mura, zeros)", "unknown_field"
                )
        for key in ("mura", "zeros"):
            if key not in value:
                raise RuleError(f"{where}.{key}", "is missing", "missing")
        mura, zeros = value["mura"], value["zeros"]
    else:
        raise RuleError(where, "must be an object with mura and zeros", "bad_penalty")
    return Penalty(_count(mura, f"{where}.mura"), _count(zeros, f"{where}.zeros"))


def _stake_units(stake: object, places: int) -> int:
    if not isinstance(stake, Decimal) or not stake.is_finite():
        raise RuleError("stake", "must be a finite Decimal (use parse_stake)", "not_decimal")
    if stake <= 0:
        raise RuleError("stake", "must be more than zero", "too_small")
    if _places(stake) > places:
        raise RuleError(
            "stake", f"must have at most {places} decimal places", "too_precise", places=places
        )
    if stake.adjusted() >= MAX_STAKE_DIGITS:
        raise RuleError(
            "stake",
            f"must have at most {MAX_STAKE_DIGITS} digits before the point",
            "too_large",
            digits=MAX_STAKE_DIGITS,
        )
    return _to_units(stake, places)


def _round_half_up(amount: Fraction) -> int:
    """Round a non-negative Fraction to the nearest integer, halves up."""
    return (2 * amount.numerator + amount.denominator) // (2 * amount.denominator)


def settle(
    stake: Decimal,
    currency: str,
    penalties: Mapping[str, PenaltyLike],
    zeros_per_mura: int = 9,
) -> Settlement:
    """Settle a Mura session: pair amounts, balances and a transfer plan.

    ``penalties`` maps each player (in seat order) to a :class:`Penalty`, a
    ``(mura, zeros)`` tuple or a ``{"mura": m, "zeros": z}`` mapping. RuleError names the
    bad input: ``currency``, ``stake``, ``zeros_per_mura``, ``penalties.<player>.mura``...
    """
    places = minor_unit(currency)
    units_per_stake = _stake_units(stake, places)
    if (
        isinstance(zeros_per_mura, bool)
        or not isinstance(zeros_per_mura, int)
        or (zeros_per_mura < 1)
    ):
        raise RuleError("zeros_per_mura", "must be a whole number, 1 or more", "too_small", min=1)
    if not isinstance(penalties, Mapping):
        raise RuleError("penalties", "must map each player to mura and zeros", "not_object")
    names = list(penalties)
    for name in names:
        if not isinstance(name, str):
            raise RuleError("penalties", "player names must be strings", "not_name")
    points = {name: _penalty(name, penalties[name]).points(zeros_per_mura) for name in names}

    units = dict.fromkeys(names, 0)
    pair_units: list[tuple[str, str, int]] = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            difference = points[first] - points[second]
            amount = _round_half_up(abs(difference) * units_per_stake)
            if amount == 0:
                continue
            payer, payee = (first, second) if difference > 0 else (second, first)
            units[payer] -= amount
            units[payee] += amount
            pair_units.append((payer, payee, amount))

    balances = {name: _from_units(units[name], places) for name in names}
    return Settlement(
        currency=currency.upper(),
        stake=_from_units(units_per_stake, places),
        balances=MappingProxyType(balances),
        pairs=tuple(Transfer(p, q, _from_units(a, places)) for p, q, a in pair_units),
        transfers=transfer_plan(balances),
    )


def transfer_plan(balances: Mapping[str, Decimal]) -> tuple[Transfer, ...]:
    """At most n − 1 payments that realize ``balances`` (received minus paid) exactly.

    Greedy and stable: the largest debtor pays the largest creditor ``min(debt, credit)``,
    again and again; ties go to the earlier player in ``balances``' order. Each payment
    settles at least one player and the last settles two. Amounts have the places of the
    most precise balance. RuleError if a balance is not a finite Decimal (naming
    ``balances.<player>``) or the balances do not add up to exactly zero (``balances``).
    """
    if not isinstance(balances, Mapping):
        raise RuleError("balances", "must map each player to an amount", "not_object")
    places = 0
    for name, balance in balances.items():
        if not isinstance(name, str):
            raise RuleError("balances", "player names must be strings", "not_name")
        if not isinstance(balance, Decimal) or not balance.is_finite():
            raise RuleError(f"balances.{name}", "must be a finite Decimal", "not_decimal")
        if _places(balance) > MAX_BALANCE_PLACES or balance.adjusted() >= MAX_BALANCE_DIGITS:
            raise RuleError(f"balances.{name}", "has too many digits", "too_large")
        places = max(places, _places(balance))
    order = {name: seat for seat, name in enumerate(balances)}
    remaining = {name: _to_units(amount, places) for name, amount in balances.items()}
    if sum(remaining.values()) != 0:
        raise RuleError("balances", "must add up to exactly zero", "not_zero_sum")

    transfers: list[Transfer] = []
    while True:
        debtors = [name for name, units in remaining.items() if units < 0]
        creditors = [name for name, units in remaining.items() if units > 0]
        if not debtors:
            break
        debtor = min(debtors, key=lambda name: (remaining[name], order[name]))
        creditor = min(creditors, key=lambda name: (-remaining[name], order[name]))
        units = min(-remaining[debtor], remaining[creditor])
        remaining[debtor] += units
        remaining[creditor] -= units
        transfers.append(Transfer(debtor, creditor, _from_units(units, places)))
    return tuple(transfers)
