"""Bidding legality (docs/rules.md, "Auction").

Each player calls once, clockwise from forehand to the dealer. When the dealer sits out
(``sit_out_at``; docs/rules.md, "Sitting out"), the player to the dealer's right calls last
and takes over the dealer's part, and a call by the dealer is ``player_sitting_out``. The
dealer may *hold* (*bei mir*, *selber*) the highest bid, which opens a duel with the player
whose bid was held: that player raises or passes; after a raise the dealer holds again, bids
higher or passes. A bid of 5 (or ``muli``, which any player may call out of turn) ends the auction.

A call that breaks a rule is reported and otherwise ignored, so that every violation of
the sequence is reported at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .deal import sitting_out
from .rules import TRICKS_PER_DEAL, MulatschakRules
from .violations import RuleError, Violation

PASS = "pass"
HOLD = "hold"
MULI = "muli"

Call = int | str


@dataclass(frozen=True)
class AuctionResult:
    violations: tuple[Violation, ...]
    declarer: str | None
    bid: int | None
    all_passed: bool
    finished: bool
    #: The dealer, when the dealer sits out (docs/rules.md, "Sitting out"); else None.
    sitting_out: str | None = None
    #: So far (also before the end): who holds the highest bid, and that bid.
    leader: str | None = None
    highest: int | None = None
    #: Who calls next (None once the auction is over).
    next_caller: str | None = None
    #: While a duel runs (docs/rules.md, "Holding and the duel"): the player whose bid was
    #: held, and the dealer (or the player who calls in the dealer's place).
    duel: tuple[str, str] | None = None

    @property
    def legal(self) -> bool:
        return not self.violations


def normalize_call(call: object) -> Call:
    """``0`` is a pass; numbers stay numbers; words are pass/hold/muli (any case)."""
    if isinstance(call, bool):
        raise RuleError(
        "call", "must be a number of tricks, 'pass', 'hold' or 'muli'", "bad_call"
    )
    if isinstance(call, int):
        return PASS if call == 0 else call
    if isinstance(call, str) and call.strip().lower() in (PASS, HOLD, MULI):
        return call.strip().lower()
    raise RuleError(
        "call", "must be a number of tricks, 'pass', 'hold' or 'muli'", "bad_call"
    )


@dataclass
class _State:
    highest: int | None = None
    leader: str | None = None  # whose bid is the highest
    turn: int = 0  # index into the first-round order
    duel_with: str | None = None  # the player whose bid the dealer held
    duel_turn: str | None = None  # who must call next in the duel
    over: bool = False


def run_auction(
    rules: MulatschakRules,
    players: Sequence[str],
    dealer: str,
    calls: Sequence[tuple[str, object]],
    scores_before: Mapping[str, int] | None = None,
) -> AuctionResult:
    """Check a sequence of calls and name the declarer and the bid.

    A table outside ``players_min``..``players_max`` (active players for the least, seated
    ones for the most, as for a deal) is ``players_count``, reported alone.
    """
    seated = len(players)
    active = rules.active_count(seated) if dealer in players else seated
    if not rules.players_min <= active or seated > rules.players_max:
        count = seated if seated > rules.players_max else active
        return AuctionResult(
            (Violation.of("players_count", count=count, min=rules.players_min,
                          max=rules.players_max),),
            None, None, False, False,
        )
    if dealer not in players:
        return AuctionResult(
            (Violation.of("dealer_not_seated", dealer),), None, None, False, False
        )
    out = sitting_out(rules, players, dealer)
    start = players.index(dealer) + 1
    order = [players[(start + i) % len(players)] for i in range(len(players))]
    if out is not None:
        order = order[:-1]
    #: Who calls last and may hold: the dealer, or the one to the dealer's right
    #: (docs/rules.md, "Sitting out").
    last = order[-1]
    scores = dict.fromkeys(players, rules.start_score)
    scores.update(scores_before or {})
    lowest = min(rules.min_bid, rules.min_bid_hearts)
    s = _State()
    v: list[Violation] = []

    def expected() -> str | None:
        if s.over:
            return None
        if s.duel_turn is not None:
            return s.duel_turn
        return order[s.turn]

    def end(declarer: str | None, bid: int | None) -> None:
        s.over, s.leader, s.highest = True, declarer, bid

    def bid(player: str, number: int) -> None:
        s.highest, s.leader = number, player
        if number == TRICKS_PER_DEAL:
            end(player, number)

    for index, (player, raw) in enumerate(calls):
        call = normalize_call(raw)
        where = {"call_index": index}
        if player not in players:
            v.append(Violation.of("unknown_player", player, **where))
            continue
        if player == out:
            v.append(Violation.of("player_sitting_out", player, field="calls", **where))
            continue
        if s.over:
            v.append(Violation.of("auction_over", player, **where))
            continue
        low = scores.get(player, rules.start_score)
        if call != PASS and (
            rules.no_bid_at_or_below is not None and low <= rules.no_bid_at_or_below
        ):
            v.append(Violation.of("bid_forbidden_low_score", player, score=low,
                                  threshold=rules.no_bid_at_or_below, **where))
            continue
        if call == MULI:  # out of turn is fine: a Muli needs no turn
            end(player, TRICKS_PER_DEAL)
            continue
        if player != expected():
            v.append(Violation.of("not_your_turn", player, expected=expected(), **where))
            continue
        if isinstance(call, int):
            if not lowest <= call <= TRICKS_PER_DEAL:
                v.append(Violation.of("bid_out_of_range", player, bid=call, min=lowest,
                                      max=TRICKS_PER_DEAL, **where))
                continue
            if s.highest is not None and call <= s.highest:
                v.append(Violation.of("bid_not_higher", player, bid=call, highest=s.highest,
                                      **where))
                continue
            if s.duel_turn is None:  # first round
                bid(player, call)
                if player == last:
                    end(player, call)
                else:
                    s.turn += 1
            elif player == last:  # the dealer (or stand-in) outbids in the duel: the auction ends
                end(last, call)
            else:  # the held player raises; the dealer answers
                bid(player, call)
                s.duel_turn = last
            continue
        if call == HOLD:
            if player != last:
                v.append(Violation.of("hold_not_dealer", player, **where))
            elif not rules.dealer_may_hold:
                v.append(Violation.of("hold_not_allowed", player, **where))
            elif s.highest is None or s.leader == last:
                v.append(Violation.of("hold_without_bid", player, **where))
            else:
                s.duel_with = s.leader
                s.leader = last
                s.duel_turn = s.duel_with
            continue
        # a pass
        if s.duel_turn is None:
            if player == last:
                end(s.leader, s.highest)
            else:
                s.turn += 1
        elif player == last:  # the dealer gives up the duel
            end(s.duel_with, s.highest)
        else:  # the held player gives up: the dealer keeps the bid
            end(last, s.highest)

    if not s.over and not v:  # after an illegal call, the incompleteness is no news
        v.append(Violation.of("auction_incomplete", expected()))
    declarer = s.leader if s.over else None
    return AuctionResult(
        violations=tuple(v),
        declarer=declarer,
        bid=s.highest if declarer else None,
        all_passed=s.over and declarer is None,
        finished=s.over,
        sitting_out=out,
        leader=s.leader,
        highest=s.highest,
        next_caller=expected(),
        duel=(s.duel_with, last) if s.duel_with is not None and not s.over else None,
    )
