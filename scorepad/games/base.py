"""What the game modules share: the values they hand back, and small helpers that more
than one of them needs (replaying JSON states, turning the referee's refusals into domain
errors, the stake as money, the deal form's mode)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee import tally
from referee.money import minor_unit
from referee.violations import RuleError

from ..errors import InputError, RulesBroken
from ..ids import parse_count
from ..loaded import Names

if TYPE_CHECKING:
    from ..models import Session


#: The finished games a session's running state lists (the most recent; the scoreboard
#: shows them as its first page). All of them are rows of their own (FinishedGame).
RECENT_GAMES = 20


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


@dataclass(frozen=True)
class Column:
    """One of a game's figures in the statistics tables: ``key`` in the game's figures
    (``stats_finish``), its heading, how it is shown (``count``; ``rate``, a share shown
    in per cent; ``number``, "–" when there is none), on which tables (``group``: the
    group's players; ``person``: one's own figures, group by group) and whether it is one
    of the few that matter most (``headline``): a phone shows those on each player's card
    and the others a tap away."""

    key: str
    label: Any  # lazy text
    kind: str = "count"
    tables: tuple[str, ...] = ("group", "person")
    headline: bool = False


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


def places(keys: Mapping[str, Any]) -> dict[str, int]:
    """Places by a key per player, the lowest key first: 1, 2, 2, 4 (players with equal
    keys share the place, as in sport). A game's ``placings`` give its games' places so."""
    ordered = sorted(keys.values())
    return {p: 1 + ordered.index(k) for p, k in keys.items()}


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


def inferred(counts: Mapping[str, int | None], total: int) -> dict[str, int]:
    """The blank counts that can only be one number: with one blank left, the remainder
    of ``total``; once the entered counts reach ``total``, 0 for every blank. Any other
    blank stays missing (the referee names it). Mulatschak tricks (5) and Mura tricks (8)
    follow this one rule; static/entry.js shows the same numbers as the user taps."""
    blanks = [p for p, n in counts.items() if n is None]
    entered = sum(n for n in counts.values() if n is not None)
    if len(blanks) == 1 and entered <= total:
        return {blanks[0]: total - entered}
    if len(blanks) > 1 and entered == total:
        return dict.fromkeys(blanks, 0)
    return {}


def stepped_count(counts: dict[str, int | None], player: str, delta: int,
                  auto: Mapping[str, int], total: int | None) -> None:
    """The stepper of a count that adds up to ``total`` (None: no limit): it starts from
    the filled-in number of a blank, "−" on a blank that could be anything says 0, and
    "+" never takes the entered counts past the total."""
    current = counts.get(player)
    if current is None and player not in auto and delta < 0:
        counts[player] = 0
        return
    current = auto.get(player, 0) if current is None else current
    others = sum(n or 0 for p, n in counts.items() if p != player)
    if delta > 0 and (total is None or others + current < total):
        counts[player] = current + 1
    elif delta < 0 and current > 0:
        counts[player] = current - 1


@dataclass(frozen=True)
class TournamentPlay:
    """How a game's table plays a round of a tournament (docs/tournaments.md): whether a
    round may end with the table's first game, and a player's round score (higher is
    better, exact) from a deal's stored result or from the running state. A game without
    one (``TOURNAMENT = None``) is not offered for tournaments."""

    #: A round may end when the table's first game ends (``round_ends: "game"``).
    ends_with_game: bool
    #: The deal (its stored result) ended a game.
    game_ended: Callable[[Mapping[str, Any]], bool]
    #: The running state has seen a game end.
    state_ended: Callable[[Mapping[str, Any]], bool]
    #: The deals recorded, by the running state.
    deals: Callable[[Mapping[str, Any]], int]
    #: Each seated player's round score after a deal (its stored result; None: before the
    #: first deal), by player id.
    score_after: Callable[[Session, Sequence[str], Mapping[str, Any] | None],
                          dict[str, Fraction]]
    #: Each seated player's round score by the running state, by player id.
    score_now: Callable[[Session, Sequence[str], Mapping[str, Any]], dict[str, Fraction]]
    #: What a paper score slip gives for each player at the end of the round, as whole
    #: numbers: each column names the stored result's field that ``score_after`` reads
    #: (``{key: {player id: number}}``), its label and its bounds (docs/tournaments.md,
    #: "A table without a phone").
    slip: tuple[SlipColumn, ...] = ()


@dataclass(frozen=True)
class SlipColumn:
    """One figure per player written on a score slip at the end of a round."""

    key: str
    label: Any  # a lazily translated text
    least: int
    most: int
