"""Legal Mura deals played card by card, for the page and browser tests."""

from __future__ import annotations

import random
from typing import Any

from referee.cards import Card
from referee.mura import MURA_RULES, check_cards, parse_trick_cards, trick_winner

PACK = MURA_RULES.card_pack


def play(seats: list[str], seed: int, leader: str | None = None,
         lead_low: bool = False) -> list[dict[str, Any]]:
    """Shuffle, deal eight cards each and play: the leader leads its highest card (its
    lowest with ``lead_low``, so that tricks change hands more often), the others follow
    suit with their lowest card of it if they can, else their lowest card.
    Returns ``trick_cards`` as the API takes it; the referee finds it legal."""
    cards = list(PACK.cards)
    random.Random(seed).shuffle(cards)
    hands = {p: cards[i * 8:(i + 1) * 8] for i, p in enumerate(seats)}

    def rank(card: Card) -> int:
        return PACK.rank_index(card.rank)

    leader = leader or seats[0]
    out = []
    for _ in range(8):
        start = seats.index(leader)
        plays: list[tuple[str, Card]] = []
        for p in seats[start:] + seats[:start]:
            hand = hands[p]
            if not plays:
                card = max(hand, key=rank) if lead_low else min(hand, key=rank)
            else:
                led = plays[0][1].suit
                follow = [c for c in hand if c.suit == led]
                card = max(follow or hand, key=rank)
            hand.remove(card)
            plays.append((p, card))
        out.append({"leader": leader, "cards": {p: c.code for p, c in plays}})
        leader = trick_winner(plays, PACK)[0]
    assert check_cards(seats, parse_trick_cards(out)).legal
    return out


def form(seats: list[str], trick_cards: list[dict[str, Any]], **more: str) -> dict[str, str]:
    """The card-by-card HTML form for ``trick_cards``."""
    data = {"mode": "cards"}
    for t, trick in enumerate(trick_cards):
        data[f"l_{t}"] = str(seats.index(trick["leader"]))
        for p, code in trick["cards"].items():
            data[f"c_{t}_{seats.index(p)}"] = code
    return data | more
