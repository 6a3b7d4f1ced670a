"""Running tallies of whole sessions for Mura and Müller Matz, and the money of a
Mulatschak game: pure functions over the recorded deals (docs/rules.md, "Mura",
"Mueller Matz" and "End of a game").

Mura: seats are listed in the order of play, counter-clockwise; the deal passes to the
right, i.e. to the next seat of that list (pagat.com's Mura: "the turn to deal passes to the right
after each hand"). Müller Matz: each game has one loser, who pays every other player the
stake. Mulatschak: at a game's end every player pays the winner the difference of their
scores times the stake (tied winners share it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .money import minor_unit
from .muller_matz import MULLER_MATZ_RULES, MullerMatzResult, MullerMatzRules, check_result
from .mura import (
    MURA_RULES,
    MuraDealResult,
    MuraRules,
    check_cards,
    check_counts,
    parse_trick_cards,
)
from .violations import Violation


class IllegalRecord(ValueError):
    """A deal or game in a session breaks a rule where it stands."""

    def __init__(self, number: int, violations: tuple[Violation, ...]) -> None:
        super().__init__(f"{number}: " + ", ".join(v.code for v in violations))
        self.number = number
        self.violations = violations


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


# --- Mura ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MuraState:
    mura: Mapping[str, int]
    zeros: Mapping[str, int]
    dealer: str  # deals the next deal
    deals: int = 0


def mura_start(players: Sequence[str], first_dealer: str) -> MuraState:
    zero = dict.fromkeys(players, 0)
    return MuraState(_frozen(zero), _frozen(zero), first_dealer)


def mura_check(players: Sequence[str], data: Mapping[str, Any],
               rules: MuraRules = MURA_RULES, dealer: str | None = None) -> MuraDealResult:
    """A deal as recorded: ``{"tricks", "figures"}`` or ``{"trick_cards": [...]}``; with a
    ``dealer``, card by card, the first trick must be led by the player after him
    (docs/rules.md, "First lead")."""
    if data.get("trick_cards") is not None:
        return check_cards(players, parse_trick_cards(data["trick_cards"]), rules, dealer)
    return check_counts(players, data.get("tricks") or {}, data.get("figures") or {}, rules)


def mura_apply(
    players: Sequence[str], state: MuraState, data: Mapping[str, Any],
    rules: MuraRules = MURA_RULES, *, check_first_lead: bool = False,
) -> tuple[MuraDealResult, MuraState]:
    """The next deal; with ``check_first_lead``, a deal recorded card by card must open
    with the player after the state's dealer (docs/rules.md, "First lead")."""
    result = mura_check(players, data, rules, state.dealer if check_first_lead else None)
    if not result.legal:
        raise IllegalRecord(state.deals + 1, result.violations)
    mura = {p: state.mura[p] + result.results[p].mura for p in players}
    zeros = {p: state.zeros[p] + int(result.results[p].zero) for p in players}
    dealer = players[(list(players).index(state.dealer) + 1) % len(players)]
    return result, MuraState(_frozen(mura), _frozen(zeros), dealer, state.deals + 1)


# --- Müller Matz -------------------------------------------------------------------------


@dataclass(frozen=True)
class MatzState:
    losses: Mapping[str, int]
    games: int = 0


def matz_start(players: Sequence[str]) -> MatzState:
    return MatzState(_frozen(dict.fromkeys(players, 0)))


def matz_apply(
    players: Sequence[str], state: MatzState, data: Mapping[str, Any],
    rules: MullerMatzRules = MULLER_MATZ_RULES,
) -> tuple[MullerMatzResult, MatzState]:
    """A game as recorded: ``{"finish_order": [...]}`` or ``{"loser": name}``."""
    result = check_result(players, data.get("finish_order"), data.get("loser"), rules)
    if not result.legal or result.loser is None:
        raise IllegalRecord(state.games + 1, result.violations)
    losses = dict(state.losses)
    losses[result.loser] += 1
    return result, replace(state, losses=_frozen(losses), games=state.games + 1)


def matz_balances(state: MatzState, stake: Decimal, currency: str) -> dict[str, Decimal]:
    """Every lost game, the loser pays each other player the stake:
    balance = stake × (games − players × losses), which adds up to zero."""
    places = minor_unit(currency)
    n = len(state.losses)
    return {
        p: (stake * (state.games - n * lost)).quantize(Decimal(1).scaleb(-places))
        for p, lost in state.losses.items()
    }


# --- Mulatschak game money --------------------------------------------------------------


def game_payments(
    final_scores: Mapping[str, int], winners: Sequence[str], stake: Decimal, currency: str
) -> list[tuple[str, str, Decimal]]:
    """Who pays whom at the end of one Mulatschak game: each player the difference to the
    winning score times the stake, shared equally by tied winners (each share rounded
    half-up to the minor unit). Returns (payer, payee, amount) with amounts > 0."""
    places = minor_unit(currency)
    unit = Fraction(1, 10**places)
    best = min(final_scores[w] for w in winners)
    out: list[tuple[str, str, Decimal]] = []
    for payer, score in final_scores.items():
        if payer in winners or score == best:
            continue
        share = Fraction(stake) * (score - best) / len(winners)
        units = int((share / unit) + Fraction(1, 2)) if share > 0 else 0
        amount = Decimal(units).scaleb(-places)
        if amount > 0:
            out.extend((payer, w, amount) for w in winners)
    return out


def balances_of(
    payments: Sequence[tuple[str, str, Decimal]], players: Sequence[str], currency: str
) -> dict[str, Decimal]:
    """Received minus paid, per player (every player listed), in the currency's places."""
    zero = Decimal(0).quantize(Decimal(1).scaleb(-minor_unit(currency)))
    out = dict.fromkeys(players, zero)
    for payer, payee, amount in payments:
        out[payer] -= amount
        out[payee] += amount
    return out
