"""Entry fees and the prize list (docs/tournaments.md, "Fees and prizes"): the pot, each
prize's worth and who wins it. Pure: no Django, money as ``Decimal``.

- The pot is the entry fee times the players who have paid.
- A ``percent`` prize is that share of the pot, rounded down to the cent; an ``amount``
  and an ``item`` are as given.
- The prizes follow the ranking made strict (``ranking.prize_order``: by place, then by
  lot): the prize of place k goes to the k-th player of that order, or to nobody when
  there are fewer players.
- What is left of the pot is the pot less every money prize that goes to somebody; it may
  be negative when fixed amounts exceed it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Generic, TypeVar

from .ranking import Standing

P = TypeVar("P", bound=Hashable)

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Prize:
    """One line of the prize list: a place and exactly one of a percent of the pot, an
    amount or an item."""

    place: int
    percent: Decimal | None = None
    amount: Decimal | None = None
    item: str | None = None

    @classmethod
    def of(cls, stored: Mapping[str, Any]) -> Prize:
        """A prize as the tournament keeps it (amounts and percents as text)."""
        return cls(int(stored["place"]),
                   Decimal(stored["percent"]) if "percent" in stored else None,
                   Decimal(stored["amount"]) if "amount" in stored else None,
                   str(stored["item"]) if "item" in stored else None)

    @property
    def is_money(self) -> bool:
        return self.item is None


def pot(entry_fee: Decimal | None, paid_players: int) -> Decimal:
    return (entry_fee or Decimal(0)) * paid_players


def share(of_pot: Decimal, percent: Decimal) -> Decimal:
    """``percent`` of the pot, rounded down to the cent (computed exactly)."""
    exact = Fraction(of_pot) * Fraction(percent) / 100
    cents = exact.numerator * 100 // exact.denominator  # floor: never negative here
    return Decimal(cents) * CENT


def worth(prize: Prize, of_pot: Decimal) -> Decimal | None:
    """What a money prize pays (None for an item)."""
    if prize.percent is not None:
        return share(of_pot, prize.percent)
    return prize.amount


def money(value: Decimal) -> str:
    """A sum as the API gives it: a decimal string with two places ("50.00")."""
    return f"{value.quantize(CENT):f}"


@dataclass(frozen=True)
class Award(Generic[P]):
    """A prize, what it pays now, and who wins it (None: no player for its place)."""

    prize: Prize
    amount: Decimal | None
    winner: Standing[P] | None

    def as_json(self, *, name: bool) -> dict[str, Any]:
        """The prize object; with ``name`` its winner's name (null while nobody)."""
        out: dict[str, Any] = {"place": self.prize.place}
        if name:
            out["name"] = self.winner.entry.name if self.winner is not None else None
        if self.amount is not None:
            out["amount"] = money(self.amount)
        if self.prize.percent is not None:
            out["percent"] = f"{self.prize.percent.normalize():f}"
        if self.prize.item is not None:
            out["item"] = self.prize.item
        return out


def awards(prizes: Sequence[Prize], order: Sequence[Standing[P]], of_pot: Decimal
           ) -> list[Award[P]]:
    """Every prize by place, with its worth and its winner from ``order`` (the ranking
    made strict: ``ranking.prize_order``)."""
    return [Award(prize, worth(prize, of_pot),
                  order[prize.place - 1] if prize.place <= len(order) else None)
            for prize in sorted(prizes, key=lambda p: p.place)]


def remainder(of_pot: Decimal, given: Sequence[Award[P]]) -> Decimal:
    """The pot less every money prize that goes to somebody."""
    return of_pot - sum((a.amount for a in given
                         if a.amount is not None and a.winner is not None), Decimal(0))
