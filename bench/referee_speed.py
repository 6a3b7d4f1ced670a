"""How fast the referee is, pure Python, no Django, no database.

    .venv/bin/python bench/referee_speed.py [--seconds 2]

Prints deals scored per second (check + score of one deal at a table) and whole sessions
replayed per second (a 100-deal evening from the first deal), for Mulatschak; Mura and
Müller Matz tallies per second too.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee import tally  # noqa: E402
from referee.deal import Deal, score_deal  # noqa: E402
from referee.rules import mulatschak_rules  # noqa: E402
from referee.session import IllegalDeal, apply, replay, start, table_for  # noqa: E402

SEATS = ("A", "B", "C", "D")


def evening(rules: object, deals: int) -> list[Deal]:
    """``deals`` legal deals (rotating declarers, now and then a collapse)."""
    state = start(rules, SEATS, "D")  # type: ignore[arg-type]
    out: list[Deal] = []
    i = 0
    while len(out) < deals:
        declarer = SEATS[i % 4]
        tricks = {p: (2 if p == declarer else 1) for p in SEATS}
        for deal in (Deal.collapsed() if i % 11 == 5 else None,
                     Deal.played(declarer=declarer, bid=2, trump="acorns", tricks=tricks),
                     Deal.passed()):
            if deal is None:
                continue
            try:
                _outcome, state = apply(rules, SEATS, state, deal)  # type: ignore[arg-type]
            except IllegalDeal:
                continue
            out.append(deal)
            break
        i += 1
    return out


def rate(fn: Callable[[], object], seconds: float) -> float:
    count, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        fn()
        count += 1
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    args = parser.parse_args()

    rules = mulatschak_rules("salzburg", {})
    deals = evening(rules, 100)
    table = table_for(rules, SEATS, start(rules, SEATS, "D"))
    played = Deal.played(declarer="A", bid=3, trump="hearts",
                         tricks={"A": 3, "B": 1, "C": 1, "D": 0})
    illegal = Deal.played(declarer="A", bid=3, trump="hearts",
                          tricks={"A": 3, "B": 3, "C": 1, "D": 0})

    scored = rate(lambda: score_deal(table, played), args.seconds)
    refused = rate(lambda: score_deal(table, illegal), args.seconds)
    sessions = rate(lambda: replay(rules, SEATS, "D", deals), args.seconds)

    mura_seats = ["A", "B", "C", "D"]
    mura_state = tally.mura_start(mura_seats, "A")
    mura_deal = {"tricks": {"A": 2, "B": 3, "C": 3, "D": 0},
                 "figures": {"A": 2, "B": 9, "C": 7, "D": 0}}
    mura = rate(lambda: tally.mura_apply(mura_seats, mura_state, mura_deal), args.seconds)
    matz_state = tally.matz_start(mura_seats)
    matz = rate(lambda: tally.matz_apply(mura_seats, matz_state, {"loser": "B"}), args.seconds)

    print(f"Mulatschak deals scored per second (legal deal):     {scored:10,.0f}")
    print(f"Mulatschak deals checked per second (illegal deal):  {refused:10,.0f}")
    print(f"100-deal sessions replayed per second:               {sessions:10,.1f}"
          f"  (= {sessions * 100:,.0f} deals/s in a replay)")
    print(f"Mura deals tallied per second:                       {mura:10,.0f}")
    print(f"Müller Matz games tallied per second:                {matz:10,.0f}")


if __name__ == "__main__":
    main()
