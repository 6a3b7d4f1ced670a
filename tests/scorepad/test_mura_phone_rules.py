"""What Mura's deal form tells the phone about the rules is the referee's (docs/rules.md,
"Mura play" and "Mura codes"): the phone works out trick winners and offers figures with it."""

from __future__ import annotations

import json

from scorepad.games.mura.form import PHONE_RULES


def test_the_phone_gets_the_mura_order_of_ranks_high_to_low():
    assert PHONE_RULES["trick_ranks"].split() == ["10", "9", "ace", "king", "ober", "unter",
                                                  "8", "7"]


def test_the_pad_offers_the_figures_the_referee_allows_for_each_number_of_tricks():
    ranges = json.loads(PHONE_RULES["pad_ranges"])
    # none without a trick; at most 6 a trick; of 4 cards a trick only 16 blanks in the pack
    assert ranges == {"0": [0, 0], "1": [0, 6], "2": [0, 12], "3": [0, 18], "4": [0, 24],
                      "5": [4, 24], "6": [8, 24], "7": [12, 24], "8": [16, 24]}
    assert list(PHONE_RULES["pad_numbers"]) == list(range(25))
