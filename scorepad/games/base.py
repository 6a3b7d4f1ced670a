"""What the game modules share: the values they hand back, and small helpers that more
than one of them needs (replaying JSON states, turning the referee's refusals into domain
errors, the stake as money, the deal form's mode)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from referee import tally
from referee.money import minor_unit
from referee.violations import RuleError

from ..errors import InputError, RulesBroken
from ..ids import parse_count
from ..loaded import Names

if TYPE_CHECKING:
    from ..models import Session


@dataclass(frozen=True)
class GameRules:
    """The frozen rules of a new session: preset name, every parameter, seats allowed."""

    preset: str
    params: dict[str, Any]
    fewest: int
    most: int


@dataclass(frozen=True)
class Money:
    """A session's money with a stake, by player id: balances (received minus paid, adding
    up to zero), the pair-by-pair amounts and a plan of at most n − 1 transfers
    (``{"from", "to", "amount"}``, amounts as decimal strings)."""

    balances: Mapping[str, Decimal]
    pairs: list[dict[str, str]] = field(default_factory=list)
    transfers: list[dict[str, str]] = field(default_factory=list)


def stake_of(session: Session) -> Decimal:
    """The session's stake in its currency's minor unit (a session with a stake)."""
    assert session.stake is not None
    return Decimal(session.stake).quantize(Decimal(1).scaleb(-minor_unit(session.currency)))


def named_transfer(transfer: Mapping[str, str], names: Names) -> dict[str, str]:
    return {"from": names.to_name(transfer["from"]), "to": names.to_name(transfer["to"]),
            "amount": transfer["amount"]}


@contextmanager
def tallied() -> Iterator[None]:
    """A record through referee.tally: what it refuses as against the rules becomes
    RulesBroken, what it cannot read an InputError."""
    try:
        yield
    except tally.IllegalRecord as e:
        raise RulesBroken(e.violations) from e
    except RuleError as e:
        raise InputError.from_rule_error(e) from e


class JsonReplayer:
    """Replays deals through a game's ``apply`` on JSON states (small for games whose
    states do not grow)."""

    def __init__(self, apply: Callable[..., tuple[dict[str, Any], dict[str, Any]]],
                 session: Session, seats: Sequence[str], state: dict[str, Any]) -> None:
        self._apply, self.session, self.seats, self._state = apply, session, seats, state

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        result, self._state = self._apply(self.session, self.seats, self._state, data)
        return dict(result)

    def state(self) -> dict[str, Any]:
        return dict(self._state)


def rate(part: int, whole: int) -> float | None:
    """A share for the statistics, to four places; None when there is nothing to share."""
    return None if whole == 0 else round(part / whole, 4)


def mode_of(modes: Sequence[str], *sources: Any) -> str:
    """The entry mode asked for (a form's ``mode`` field or ``?mode=``), if the game has
    it; else the default ("")."""
    for source in sources:
        mode = (source or {}).get("mode") or ""
        if mode:
            return mode if mode in modes else ""
    return ""


def step(value: str, seats: list[str], prefixes: tuple[str, ...] = ("",)
         ) -> tuple[str, str, int] | None:
    """A stepper button's value ``<prefix><seat index>:+1`` (or ``:-1``) as (prefix, the
    seat's player, +1 or -1); None for anything else."""
    what, _sep, delta = (value or "").partition(":")
    for prefix in sorted(prefixes, key=len, reverse=True):
        if not what.startswith(prefix):
            continue
        index = parse_count(what[len(prefix):])
        if index is None or not 0 <= index < len(seats) or delta not in ("+1", "-1"):
            return None
        return prefix, seats[index], int(delta)
    return None


def stepped(counts: dict[str, int | None], player: str, delta: int, room: int | None) -> None:
    """The one stepper of the deal forms: one more for ``player`` while there is ``room``
    (None: no limit), one less down to zero."""
    current = counts.get(player) or 0
    if delta > 0 and (room is None or room > 0):
        counts[player] = current + 1
    elif delta < 0 and current > 0:
        counts[player] = current - 1
