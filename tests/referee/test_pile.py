"""Müller Matz: a hand's draw, swap and sleep (docs/rules.md, "Drawing") and the second-life pile
(docs/rules.md, "The second-life pile"), with properties over random piles."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import FRENCH52, Card
from referee.muller_matz import (
    MullerMatzRules,
    PileAction,
    beats,
    check_hand,
    check_pile,
    hand_state,
    muller_matz_rules,
    play_pile,
)
from referee.violations import RuleError

from ..strength import examples

HANS, GRETE, SEPP = "Hans", "Grete", "Sepp"


def card(code: str) -> Card:
    return FRENCH52.parse(code)


def cards(*codes: str) -> list[Card]:
    return [card(c) for c in codes]


# --- a hand -------------------------------------------------------------------------


def test_a_hand_draws_up_to_three_cards_while_the_stock_lasts():
    assert hand_state(cards("spades-9"), "hearts", 10).draw == 2
    assert hand_state(cards("spades-9"), "hearts", 1).draw == 1
    assert hand_state(cards("spades-9", "clubs-2", "clubs-3", "clubs-4"), "hearts", 9).draw == 0
    assert hand_state([], "hearts", 0).draw == 0


def test_hand_size_is_a_parameter():
    rules = muller_matz_rules({"hand_size": 5})
    assert hand_state(cards("spades-9"), "hearts", 10, rules=rules).draw == 4


def test_the_lowest_trump_may_be_swapped_while_the_stock_lasts():
    hand = cards("hearts-2", "spades-9")
    state = hand_state(hand, "hearts", 4, card("hearts-queen"))
    assert state.may_swap and state.swap_card == card("hearts-2")
    assert not hand_state(hand, "hearts", 0).may_swap
    assert not hand_state(hand, "hearts", 4, card("hearts-2")).may_swap
    assert not hand_state(hand, "spades", 4).may_swap
    assert hand_state(hand, "spades", 4).swap_card is None


def test_the_lowest_trump_follows_the_parameter():
    rules = muller_matz_rules({"lowest_trump": "6"})
    assert hand_state(cards("hearts-6"), "hearts", 3, rules=rules).may_swap
    assert not hand_state(cards("hearts-2"), "hearts", 3, rules=rules).may_swap


def test_three_trumps_sleep_while_the_stock_lasts_and_fewer_once_it_is_empty():
    two = cards("hearts-2", "hearts-9", "spades-9")
    assert hand_state(two, "hearts", 5).sleep_cards == 0
    assert not hand_state(two, "hearts", 5).may_sleep
    assert hand_state(two, "hearts", 0).sleep_cards == 2
    four = cards("hearts-2", "hearts-9", "hearts-king", "hearts-ace")
    assert hand_state(four, "hearts", 5).sleep_cards == 3
    assert hand_state(four, "hearts", 0).sleep_cards == 3
    rules = muller_matz_rules({"sleep_trumps": 2})
    assert hand_state(two, "hearts", 5, rules=rules).sleep_cards == 2


@pytest.mark.parametrize(("args", "field"), [
    ((["hearts-2", "bells-7"], "hearts", 3), "hand.1"),
    ((["hearts-2", "nonsense"], "hearts", 3), "hand.1"),
    ((["hearts-2"], "hearts", -1), "stock"),
    ((["hearts-2"], "hearts", "3"), "stock"),
    ((["hearts-2"], "acorns", 3), "trump"),
    ((["hearts-2"], "hearts", 3, "leaves-ober"), "turned_up"),
])
def test_a_card_not_of_the_pack_or_a_negative_stock_is_an_error_naming_the_field(args, field):
    with pytest.raises(RuleError) as caught:
        check_hand(*args)
    assert caught.value.field == field


# --- a pile -------------------------------------------------------------------------


def pile(*plays: tuple[str, str | None], players: tuple[str, ...] = (HANS, GRETE, SEPP),
         hands: dict[str, list[str]] | None = None, trump: str = "hearts") -> Any:
    actions = [PileAction(p, None if c is None else card(c)) for p, c in plays]
    held = None if hands is None else {p: cards(*h) for p, h in hands.items()}
    return play_pile(trump, players, actions, held)


def found(result: Any) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(v.code, v.player, dict(v.params)) for v in result.violations]


def test_each_serve_beats_the_top_card_and_the_last_of_a_full_pile_wins():
    result = pile((HANS, "spades-9"), (GRETE, "spades-queen"), (SEPP, "hearts-3"))
    assert result.legal and result.complete
    assert (result.winner, result.next) == (SEPP, SEPP)


def test_the_next_player_is_the_left_neighbour_of_the_last_one_who_acted():
    result = pile((GRETE, "spades-9"))
    assert (result.complete, result.winner, result.next) == (False, None, SEPP)
    assert pile().next is None  # anybody may lead


def test_a_pick_up_takes_the_top_card_and_passes_the_turn():
    result = pile((HANS, "spades-9"), (GRETE, "spades-queen"), (SEPP, None))
    assert result.legal and result.cards == tuple(cards("spades-9"))
    assert result.next == HANS
    assert found(pile((HANS, None))) == [("pick_up_empty_pile", HANS, {"play": 0})]


def test_a_card_that_does_not_serve_names_the_top_card_and_the_reason():
    result = pile((HANS, "spades-9"), (GRETE, "spades-4"), (GRETE, "clubs-ace"),
                  (GRETE, "spades-10"))
    assert found(result) == [
        ("does_not_serve", GRETE, {"card": "spades-4", "top": "spades-9",
                                   "reason": "not_higher", "play": 1}),
        ("does_not_serve", GRETE, {"card": "clubs-ace", "top": "spades-9",
                                   "reason": "different_suit_not_trump", "play": 2}),
    ]
    assert result.cards == tuple(cards("spades-9", "spades-10"))


def test_a_trump_is_served_only_by_a_higher_trump():
    result = pile((HANS, "hearts-9"), (GRETE, "hearts-5"), (GRETE, "spades-ace"))
    assert [p["reason"] for _c, _p, p in found(result)] == [
        "not_higher", "trump_only_beaten_by_higher_trump"]


def test_turns_skip_players_without_cards_and_the_winner_without_cards_passes_the_lead():
    hands = {HANS: ["spades-9", "clubs-2"], GRETE: ["spades-10"], SEPP: ["spades-jack"]}
    result = pile((HANS, "spades-9"), (GRETE, "spades-10"), (SEPP, "spades-jack"), hands=hands)
    assert result.legal and result.winner == SEPP
    assert result.next == HANS  # Sepp has no card left; Grete neither
    # Sepp holds nothing: Hans serves after Grete; the third card completes the pile,
    # and nobody is left holding cards.
    empty = pile((HANS, "spades-9"), (GRETE, "spades-10"), (HANS, "spades-jack"),
                 hands={HANS: ["spades-9", "spades-jack"], GRETE: ["spades-10"], SEPP: []})
    assert empty.legal and (empty.winner, empty.next) == (HANS, None)


def test_a_card_the_player_does_not_hold_and_a_stranger_are_reported():
    result = pile((HANS, "spades-9"), ("Xaver", "spades-10"), (GRETE, "spades-king"),
                  hands={HANS: ["spades-9"], GRETE: ["spades-10"], SEPP: []})
    assert found(result) == [
        ("card_not_in_hand", GRETE, {"card": "spades-king", "play": 2}),
        ("unknown_player", "Xaver", {"play": 1}),
    ]


def test_everything_after_a_complete_pile_is_play_after_complete():
    result = pile((HANS, "spades-9"), (GRETE, "spades-10"), (SEPP, "spades-jack"),
                  (SEPP, "spades-queen"), (HANS, None))
    assert [c for c, _p, _x in found(result)] == ["play_after_complete", "play_after_complete"]


def test_pile_violations_come_by_code_then_by_action():
    result = pile((HANS, "spades-9"), (SEPP, "spades-10"), (GRETE, "spades-2"),
                  (HANS, "spades-3"), (GRETE, "spades-3"))
    assert [(c, x["play"]) for c, _p, x in found(result)] == [
        ("does_not_serve", 2), ("does_not_serve", 4), ("not_your_turn", 1),
        ("not_your_turn", 3)]


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"plays": [{"player": HANS}]}, "plays.0"),
    ({"plays": [{"player": HANS, "card": "spades-9", "pick_up": True}]}, "plays.0"),
    ({"plays": [{"player": HANS, "pick_up": "yes"}]}, "plays.0.pick_up"),
    ({"plays": [{"player": HANS, "card": "bells-7"}]}, "plays.0.card"),
    ({"plays": [{"player": 3, "card": "spades-9"}]}, "plays.0.player"),
    ({"plays": [], "hands": {HANS: ["spades-9"], GRETE: []}}, "hands.Sepp"),
    ({"plays": [], "hands": {HANS: [], GRETE: [], SEPP: [], "Xaver": []}}, "hands.Xaver"),
    ({"plays": [], "hands": {HANS: ["leaves-ober"], GRETE: [], SEPP: []}}, "hands.Hans.0"),
    ({"plays": [], "players": [HANS]}, "players"),
    ({"plays": [], "players": [HANS, HANS]}, "players"),
])
def test_a_malformed_pile_is_an_error_naming_the_field(kwargs, field):
    args = {"trump": "hearts", "players": [HANS, GRETE, SEPP], **kwargs}
    with pytest.raises(RuleError) as caught:
        check_pile(args["trump"], args["players"], args["plays"], args.get("hands"))
    assert caught.value.field == field


# --- properties -----------------------------------------------------------------------


NAMES = ("Anna", "Bert", "Cilli", "Dominik", "Erna")
SUITS = ("clubs", "diamonds", "hearts", "spades")
PROPERTY = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def piles(draw: st.DrawFn, with_hands: bool | None = None) -> dict[str, Any]:
    """Random players, hands (sometimes) and a random sequence of actions, legal or not."""
    n = draw(st.integers(2, 5))
    players = tuple(NAMES[:n])
    deck = draw(st.permutations(FRENCH52.cards))
    hands_given = draw(st.booleans()) if with_hands is None else with_hands
    hands: dict[str, list[Card]] | None = None
    if hands_given:
        sizes = [draw(st.integers(0, 4)) for _ in players]
        hands, start = {}, 0
        for p, size in zip(players, sizes, strict=True):
            hands[p] = list(deck[start:start + size])
            start += size
    pool = list(deck[:20])
    actions = draw(st.lists(
        st.builds(PileAction, st.sampled_from((*players, "Xaver")),
                  st.none() | st.sampled_from(pool)),
        max_size=14,
    ))
    return {"trump": draw(st.sampled_from(SUITS)), "players": players, "actions": actions,
            "hands": hands}


@PROPERTY
@given(piles())
def test_a_pile_is_a_chain_of_serves_never_longer_than_the_players(case):
    result = play_pile(case["trump"], case["players"], case["actions"], case["hands"])
    assert len(result.pile) <= len(case["players"])
    assert result.complete == (len(result.pile) == len(case["players"]))
    assert result.complete == (result.winner is not None)
    for (_p, below), (_q, above) in zip(result.pile, result.pile[1:], strict=False):
        assert beats(below, above, case["trump"], 2).legal
    if result.winner is not None:
        assert result.pile[-1][0] == result.winner


@PROPERTY
@given(piles())
def test_the_illegal_actions_change_nothing(case):
    result = play_pile(case["trump"], case["players"], case["actions"], case["hands"])
    bad = {v.params["play"] for v in result.violations}
    legal_only = [a for i, a in enumerate(case["actions"]) if i not in bad]
    again = play_pile(case["trump"], case["players"], legal_only, case["hands"])
    assert again.legal
    assert (again.pile, again.complete, again.winner) == (
        result.pile, result.complete, result.winner)
    if not result.complete and legal_only:
        assert again.next == result.next


@PROPERTY
@given(piles(with_hands=True))
def test_with_hands_no_card_is_lost_or_made_and_the_next_player_holds_cards(case):
    result = play_pile(case["trump"], case["players"], case["actions"], case["hands"])
    before = Counter(c for h in case["hands"].values() for c in h)
    # replay the legal actions to follow the hands
    held = {p: list(h) for p, h in case["hands"].items()}
    bad = {v.params["play"] for v in result.violations}
    stack: list[Card] = []
    for i, action in enumerate(case["actions"]):
        if i in bad:
            continue
        if action.card is None:
            held[action.player].append(stack.pop())
        else:
            held[action.player].remove(action.card)
            stack.append(action.card)
    assert stack == list(result.cards)
    assert Counter(c for h in held.values() for c in h) + Counter(stack) == before
    if result.next is not None:
        assert held[result.next]


@PROPERTY
@given(piles(with_hands=False), st.sampled_from(SUITS))
def test_every_violation_names_a_known_code_and_its_action(case, _suit):
    result = play_pile(case["trump"], case["players"], case["actions"])
    for v in result.violations:
        assert 0 <= v.params["play"] < len(case["actions"])
        assert v.code in {"does_not_serve", "not_your_turn", "pick_up_empty_pile",
                          "play_after_complete", "unknown_player"}


def test_the_rules_are_data_with_hand_size():
    assert MullerMatzRules().hand_size == 3
    with pytest.raises(RuleError) as caught:
        muller_matz_rules({"hand_size": 0})
    assert caught.value.field == "overrides.hand_size"
