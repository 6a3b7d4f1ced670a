"""A scripted Mulatschak evening at a Salzburg table, for the browser tests."""

from __future__ import annotations

from typing import Any

SEATS = ["Anna", "Bert", "Cilli", "Dominik"]
FIRST_DEALER = "Dominik"


def p(declarer: str, bid: int, trump: str, tricks: dict[str, int], home: tuple[str, ...] = (),
      knocked: bool = False) -> dict[str, Any]:
    return {"kind": "played", "declarer": declarer, "bid": bid, "trump": trump,
            "tricks": tricks, "stayed_home": list(home), "knocked": knocked}


EVENING: list[dict[str, Any]] = [
    p("Anna", 2, "acorns", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}),
    {"kind": "collapsed"},
    p("Bert", 3, "hearts", {"Anna": 1, "Bert": 3, "Cilli": 1, "Dominik": 0}),
    p("Cilli", 2, "leaves", {"Anna": 1, "Bert": 1, "Cilli": 3}, home=("Dominik",)),
    p("Dominik", 5, "bells", {"Anna": 0, "Bert": 0, "Cilli": 0, "Dominik": 5}),
    p("Anna", 1, "bells", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}),
    {"kind": "passed"},
    p("Bert", 2, "acorns", {"Anna": 1, "Bert": 2, "Cilli": 1, "Dominik": 1}, knocked=True),
    p("Cilli", 3, "leaves", {"Anna": 0, "Bert": 1, "Cilli": 3, "Dominik": 1}),
    p("Dominik", 2, "hearts", {"Anna": 1, "Bert": 1, "Cilli": 1, "Dominik": 2}),
    p("Anna", 2, "acorns", {"Anna": 3, "Bert": 1, "Dominik": 1}, home=("Cilli",)),
]
#: Deal 6 is corrected afterwards: Anna took two tricks, not one.
CORRECTION = (6, p("Anna", 1, "bells", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}))
