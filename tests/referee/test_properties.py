"""Properties of the Mulatschak referee, over random legal deals and random tricks.

The strategies build deals that are legal by construction, for a random preset with random
overrides at a random table (2 to 6 seats, any dealer, any scores the rules allow). That
they are legal is itself the first property.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import GERMAN_RANKS, WELI, Card
from referee.deal import Deal, DealKind, Table, check_deal, score_deal
from referee.rules import (
    IMPLICIT_MULTIPLIER_CAP,
    INT_BOUNDS,
    MAX_BASE_CHANGE,
    MAX_SCORE,
    PRESETS,
    MulatschakRules,
    mulatschak_rules,
)
from referee.trick import Play, check_trick, trick_winner
from referee.violations import Violation

from ..strength import examples

NAMES = ("Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz")
NEW_NAMES = ("Gitti", "Hubert", "Ida", "Josef", "Karin", "Luis")
SUITS = ("acorns", "leaves", "hearts", "bells")
MULI = 5

PROPERTY = settings(
    max_examples=examples(70), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

optional_threshold = st.none() | st.integers(-5, 10)
payout = st.fixed_dictionaries({"declarer": st.integers(-20, 20), "others": st.integers(-20, 20)})

#: Parameters a random rule set may override, with the values it may take.
OVERRIDES: dict[str, st.SearchStrategy[Any]] = {
    "trick_value": st.integers(0, 3),
    "no_trick_penalty": st.integers(0, 10),
    "declarer_fail_penalty": st.integers(0, 20),
    "failed_declarer_counts_tricks": st.booleans(),
    "stay_home_penalty": st.integers(0, 3),
    "min_bid": st.integers(1, 3),
    "min_bid_hearts": st.integers(1, 3),
    "no_bid_at_or_below": optional_threshold,
    "must_play_at_or_below": optional_threshold,
    "no_exchange_at_or_below": optional_threshold,
    "max_exchange": st.integers(0, 5),
    "exchange_capped_by_declarer": st.booleans(),
    "hearts_double": st.booleans(),
    "hearts_all_play": st.booleans(),
    "collapse_doubles": st.booleans(),
    "knock_doubles": st.booleans(),
    "multiplier_cap": st.none() | st.integers(1, 64),
    "muli_all_play": st.booleans(),
    "muli_no_exchange": st.booleans(),
    "muli_win": payout,
    "muli_fail": payout,
    "muli_fail_mode": st.sampled_from(("all", "breaker", "trick_takers")),
    "last_player_must_play": st.booleans(),
    "all_pass": st.sampled_from(("redeal", "redeal_double")),
    "no_stay_home_twice": st.booleans(),
    "score_floor": st.none() | st.integers(-10, 5),
    "target_score": st.integers(-5, 5),
}


@st.composite
def rule_sets(draw: st.DrawFn, **fixed: Any) -> MulatschakRules:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = {name: draw(value) for name, value in OVERRIDES.items() if draw(st.booleans())}
    overrides.update(fixed)
    return mulatschak_rules(preset, overrides)


@dataclass(frozen=True)
class Situation:
    """A deal and the table it is played at."""

    rules: MulatschakRules
    players: tuple[str, ...]
    dealer: str
    scores: dict[str, int]
    collapses: int
    previous_home: tuple[str, ...]
    deal: Deal

    def table(self) -> Table:
        return Table.of(
            self.rules, self.players, self.dealer, self.scores, self.collapses, self.previous_home
        )


def _above(threshold: int | None) -> int:
    return -10 if threshold is None else threshold + 1


@st.composite
def legal_situations(draw: st.DrawFn, *, only_muli: bool = False, **fixed: Any) -> Situation:
    """A legal played deal; with ``only_muli`` always a bid of 5."""
    rules = draw(rule_sets(**fixed))
    n = draw(st.integers(rules.players_min, min(rules.players_max, len(NAMES))))
    players = tuple(draw(st.permutations(NAMES))[:n])
    dealer = draw(st.sampled_from(players))
    declarer = draw(st.sampled_from(players))
    trump = draw(st.sampled_from(SUITS))
    hearts = trump == "hearts"
    lowest = rules.min_bid_hearts if hearts else rules.min_bid
    bid = MULI if only_muli else draw(st.integers(lowest, MULI))
    muli = bid == MULI
    previous = tuple(p for p in players if draw(st.booleans()))

    others = [p for p in players if p != declarer]
    home: list[str] = []
    if not (hearts and rules.hearts_all_play) and not (muli and rules.muli_all_play):
        may_stay = [p for p in others if not (rules.no_stay_home_twice and p in previous)]
        home = [p for p in may_stay if draw(st.booleans())]
        if rules.last_player_must_play and len(home) == len(others):
            home = home[:-1]
    playing = [p for p in players if p not in home]

    scores: dict[str, int] = {}
    for p in players:
        low = -10
        if p == declarer:
            low = max(low, _above(rules.no_bid_at_or_below))
        if p in home:
            low = max(low, _above(rules.must_play_at_or_below))
        scores[p] = draw(st.integers(low, 40))

    takers = draw(st.lists(st.sampled_from(playing), min_size=MULI, max_size=MULI))
    tricks = {p: takers.count(p) for p in playing}

    exchanged: dict[str, int] | None = None
    if draw(st.booleans()) and not (muli and rules.muli_no_exchange):
        limit = rules.max_exchange_for(n)

        def may_take(p: str, cap: int) -> int:
            barred = rules.no_exchange_at_or_below
            if p in home or (barred is not None and scores[p] <= barred):
                return 0
            return draw(st.integers(0, cap))

        exchanged = {declarer: may_take(declarer, limit)}
        cap = min(limit, exchanged[declarer]) if rules.exchange_capped_by_declarer else limit
        for p in playing:
            if p != declarer:
                exchanged[p] = may_take(p, cap)
        excess = sum(exchanged.values()) - rules.talon_size(n)
        for p in [*(q for q in exchanged if q != declarer), declarer]:
            cut = min(excess, exchanged[p]) if excess > 0 else 0
            exchanged[p] -= cut
            excess -= cut

    breaker = None
    if muli and rules.muli_fail_mode == "breaker" and tricks[declarer] < MULI:
        breaker = draw(st.sampled_from([p for p in playing if p != declarer and tricks[p]]))

    deal = Deal.played(
        declarer=declarer,
        bid=bid,
        trump=trump,
        stayed_home=home,
        tricks=tricks,
        knocked=rules.knock_doubles and draw(st.booleans()),
        exchanged=exchanged,
        muli_breaker=breaker,
    )
    return Situation(rules, players, dealer, scores, draw(st.integers(0, 4)), previous, deal)


@st.composite
def any_situations(draw: st.DrawFn) -> Situation:
    """Anything at all: legal, illegal, nonsense names, collapsed or passed."""
    rules = draw(rule_sets())
    players = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True)))
    names = st.sampled_from((*NAMES, "Xaver"))
    counts = st.integers(-1, 6)
    kind = draw(st.sampled_from(DealKind))
    if kind is DealKind.PLAYED:
        deal = Deal.played(
            declarer=draw(names),
            bid=draw(st.integers(-1, 6)),
            trump=draw(st.sampled_from((*SUITS, "clubs"))),
            stayed_home=draw(st.lists(names, max_size=3, unique=True)),
            tricks=draw(st.dictionaries(names, counts, max_size=7)),
            knocked=draw(st.booleans()),
            exchanged=draw(st.none() | st.dictionaries(names, counts, max_size=7)),
            muli_breaker=draw(st.none() | names),
        )
    else:
        deal = Deal.collapsed() if kind is DealKind.COLLAPSED else Deal.passed()
    return Situation(
        rules,
        players,
        draw(names),
        draw(st.dictionaries(names, st.integers(-10, 40), max_size=7)),
        draw(st.integers(0, 3)),
        tuple(draw(st.lists(names, max_size=3, unique=True))),
        deal,
    )


def rename(situation: Situation, to: dict[str, str]) -> Situation:
    deal = situation.deal
    return replace(
        situation,
        players=tuple(to[p] for p in situation.players),
        dealer=to[situation.dealer],
        scores={to[p]: s for p, s in situation.scores.items()},
        previous_home=tuple(to[p] for p in situation.previous_home),
        deal=Deal.played(
            declarer=to[deal.declarer or ""],
            bid=deal.bid or 0,
            trump=deal.trump or "",
            stayed_home=[to[p] for p in deal.stayed_home],
            tricks={to[p]: n for p, n in deal.tricks.items()},
            knocked=deal.knocked,
            exchanged=None
            if deal.exchanged is None
            else {to[p]: n for p, n in deal.exchanged.items()},
            muli_breaker=None if deal.muli_breaker is None else to[deal.muli_breaker],
        ),
    )


# --- deals -------------------------------------------------------------------------


@PROPERTY
@given(legal_situations())
def test_every_generated_deal_is_legal(situation):
    assert check_deal(situation.table(), situation.deal) == ()


@PROPERTY
@given(legal_situations())
def test_scores_after_are_scores_before_plus_deltas(situation):
    table = situation.table()
    result = score_deal(table, situation.deal)
    assert result.legal
    assert set(result.deltas) == set(situation.players)
    for p in situation.players:
        assert result.scores_after[p] == table.scores_before[p] + result.deltas[p]


@PROPERTY
@given(legal_situations())
def test_the_multiplier_is_two_to_the_doublings_capped(situation):
    rules = situation.rules
    result = score_deal(situation.table(), situation.deal)
    doublings = (
        (situation.deal.trump == "hearts" and rules.hearts_double)
        + (situation.collapses if rules.collapse_doubles else 0)
        + (situation.deal.knocked and rules.knock_doubles)
    )
    assert len(result.factors) == doublings
    expected = 2**doublings
    if rules.multiplier_cap is not None:
        expected = min(expected, rules.multiplier_cap)
    assert result.multiplier == expected


@PROPERTY
@given(legal_situations(score_floor=None))
def test_without_a_floor_every_delta_is_the_base_change_times_the_multiplier(situation):
    result = score_deal(situation.table(), situation.deal)
    for p in situation.players:
        assert result.deltas[p] == result.base[p] * result.multiplier


@PROPERTY
@given(legal_situations(collapse_doubles=True, multiplier_cap=None, score_floor=None),
       st.integers(1, 5))
def test_deltas_scale_exactly_with_the_collapses_before(situation, k):
    plain = score_deal(replace(situation, collapses=0).table(), situation.deal)
    doubled = score_deal(replace(situation, collapses=k).table(), situation.deal)
    for p in situation.players:
        assert doubled.deltas[p] == plain.deltas[p] * 2**k
    assert doubled.multiplier == plain.multiplier * 2**k


@PROPERTY
@given(legal_situations(), st.permutations(NEW_NAMES))
def test_renaming_the_players_renames_the_result_and_changes_nothing_else(situation, new):
    to = dict(zip(NAMES, new, strict=True))
    renamed = rename(situation, to)
    assert check_deal(renamed.table(), renamed.deal) == ()
    a = score_deal(situation.table(), situation.deal)
    b = score_deal(renamed.table(), renamed.deal)
    assert {to[p]: d for p, d in a.deltas.items()} == dict(b.deltas)
    assert {to[p]: r for p, r in a.reasons.items()} == dict(b.reasons)
    assert (a.multiplier, a.factors, a.declarer_made, a.game_over, a.collapses_after) == (
        b.multiplier, b.factors, b.declarer_made, b.game_over, b.collapses_after
    )
    assert tuple(to[p] for p in a.winners) == b.winners
    assert to[a.next_dealer] == b.next_dealer


@PROPERTY
@given(legal_situations(), st.permutations(NAMES))
def test_swapping_names_among_the_table_is_a_renaming_too(situation, shuffled):
    to = dict(zip(NAMES, shuffled, strict=True))
    renamed = rename(situation, to)
    a = score_deal(situation.table(), situation.deal)
    b = score_deal(renamed.table(), renamed.deal)
    assert b.legal
    assert {to[p]: d for p, d in a.deltas.items()} == dict(b.deltas)


@PROPERTY
@given(legal_situations(), st.integers(0, 5))
def test_rotating_the_seats_with_the_same_dealer_changes_nothing(situation, r):
    r %= len(situation.players)
    rotated = replace(situation, players=situation.players[r:] + situation.players[:r])
    a = score_deal(situation.table(), situation.deal)
    b = score_deal(rotated.table(), rotated.deal)
    assert b.legal
    assert dict(a.deltas) == dict(b.deltas)
    assert dict(a.scores_after) == dict(b.scores_after)
    assert set(a.winners) == set(b.winners)
    assert a.next_dealer == b.next_dealer  # a rotation keeps every neighbour


@PROPERTY
@given(legal_situations(), st.randoms(use_true_random=False))
def test_the_score_of_a_deal_does_not_depend_on_the_seating_order(situation, rnd):
    seats = list(situation.players)
    rnd.shuffle(seats)
    shuffled = replace(situation, players=tuple(seats))
    a = score_deal(situation.table(), situation.deal)
    b = score_deal(shuffled.table(), shuffled.deal)
    assert dict(a.deltas) == dict(b.deltas)
    assert dict(a.reasons) == dict(b.reasons)


@PROPERTY
@given(legal_situations(score_floor=None), st.sampled_from(("plus", "minus", "stray")))
def test_a_broken_record_changes_no_score(situation, damage):
    deal = situation.deal
    tricks = dict(deal.tricks)
    if damage == "plus":
        tricks[deal.declarer or ""] += 1
    elif damage == "minus":
        taker = next(p for p, n in tricks.items() if n)
        tricks[taker] -= 1
    else:
        tricks["Xaver"] = 0
    broken = replace(situation, deal=replace(deal, tricks=tricks))
    table = broken.table()
    result = score_deal(table, broken.deal)
    assert not result.legal
    assert dict(result.scores_after) == {p: table.scores_before[p] for p in situation.players}
    assert dict(result.deltas) == {}


@PROPERTY
@given(any_situations())
def test_violations_never_change_scores(situation):
    table = situation.table()
    result = score_deal(table, situation.deal)
    assert result.violations == check_deal(table, situation.deal)
    if result.violations:
        assert dict(result.scores_after) == {p: table.scores_before[p] for p in table.players}
        assert dict(result.deltas) == {}
        assert result.game_over is False
        assert result.winners == ()
    else:
        for p in table.players:
            assert result.scores_after[p] == table.scores_before[p] + result.deltas[p]


@PROPERTY
@given(any_situations())
def test_check_deal_is_deterministic(situation):
    first = check_deal(situation.table(), situation.deal)
    again = check_deal(situation.table(), situation.deal)
    assert first == again
    assert score_deal(situation.table(), situation.deal) == score_deal(
        situation.table(), situation.deal
    )


def _key(v: Violation) -> tuple[str, str | None, tuple[tuple[str, Any], ...]]:
    return v.code, v.player, tuple(sorted(v.params.items()))


@PROPERTY
@given(any_situations())
def test_the_violations_found_do_not_depend_on_the_order_of_the_record(situation):
    deal = situation.deal
    if deal.kind is not DealKind.PLAYED:
        return
    flipped = replace(
        deal,
        tricks=dict(reversed(list(deal.tricks.items()))),
        stayed_home=tuple(reversed(deal.stayed_home)),
        exchanged=None if deal.exchanged is None
        else dict(reversed(list(deal.exchanged.items()))),
    )
    a = check_deal(situation.table(), deal)
    b = check_deal(situation.table(), flipped)
    assert Counter(map(_key, a)) == Counter(map(_key, b))
    assert [v.code for v in a] == [v.code for v in b]  # the codes keep the table's order


@PROPERTY
@given(legal_situations(score_floor=0) | legal_situations(score_floor=-3))
def test_a_score_floor_never_pushes_a_score_below_it(situation):
    table = situation.table()
    floor = situation.rules.score_floor
    result = score_deal(table, situation.deal)
    for p in situation.players:
        before, after = table.scores_before[p], result.scores_after[p]
        change = result.base[p] * result.multiplier
        assert after >= min(before, floor)
        if change >= 0 or before + change >= floor:
            assert result.deltas[p] == change
        else:
            assert after == min(before, floor)


@PROPERTY
@given(legal_situations())
def test_the_game_ends_exactly_when_a_score_reaches_the_target(situation):
    result = score_deal(situation.table(), situation.deal)
    after = result.scores_after
    assert result.game_over == any(s <= situation.rules.target_score for s in after.values())
    if result.game_over:
        best = min(after.values())
        assert result.winners == tuple(p for p in situation.players if after[p] == best)
    else:
        assert result.winners == ()


@PROPERTY
@given(legal_situations())
def test_a_deal_below_a_muli_pays_by_the_scoring_table(situation):
    rules, deal = situation.rules, situation.deal
    if deal.bid == MULI:
        return
    result = score_deal(situation.table(), deal)
    tv = rules.trick_value
    for p in situation.players:
        n = deal.tricks.get(p, 0)
        if p in deal.stayed_home:
            expected = rules.stay_home_penalty
        elif p == deal.declarer and n >= (deal.bid or 0):
            expected = -tv * n
        elif p == deal.declarer:
            expected = rules.declarer_fail_penalty - (
                tv * n if rules.failed_declarer_counts_tricks else 0
            )
        elif n == 0:
            expected = rules.no_trick_penalty
        else:
            expected = -tv * n
        assert result.base[p] == expected


@PROPERTY
@given(legal_situations(only_muli=True))
def test_a_muli_pays_by_the_payout_table_and_the_fail_mode(situation):
    rules, deal = situation.rules, situation.deal
    result = score_deal(situation.table(), deal)
    made = deal.tricks[deal.declarer or ""] == MULI
    payout = rules.muli_win if made else rules.muli_fail
    for p in situation.players:
        if p == deal.declarer:
            expected = payout.declarer
        elif made or rules.muli_fail_mode == "all":  # players at home too
            expected = payout.others
        elif rules.muli_fail_mode == "breaker":
            expected = payout.others if p == deal.muli_breaker else 0
        else:
            expected = payout.others if deal.tricks.get(p, 0) else 0
        assert result.base[p] == expected


@PROPERTY
@given(legal_situations())
def test_the_declarer_makes_it_exactly_with_at_least_the_bid(situation):
    deal = situation.deal
    result = score_deal(situation.table(), deal)
    assert result.declarer_made == (deal.tricks[deal.declarer or ""] >= (deal.bid or 0))


@PROPERTY
@given(legal_situations())
def test_a_played_deal_uses_up_the_doublings_and_passes_the_deal_on(situation):
    result = score_deal(situation.table(), situation.deal)
    assert result.collapses_after == 0
    seats = situation.players
    assert result.next_dealer == seats[(seats.index(situation.dealer) + 1) % len(seats)]


@PROPERTY
@given(legal_situations())
def test_collapses_and_all_passed_deals_change_no_score_and_count_doublings(situation):
    rules = situation.rules
    for deal, extra in (
        (Deal.collapsed(), 1),
        (Deal.passed(), 1 if rules.all_pass == "redeal_double" else 0),
    ):
        result = score_deal(replace(situation, deal=deal).table(), deal)
        assert result.legal
        assert set(result.deltas.values()) == {0}
        assert result.collapses_after == situation.collapses + extra
        assert result.game_over is False


# --- tricks ------------------------------------------------------------------------


def oracle_winner(cards: list[Card], trump: str) -> Card:
    """docs/rules.md, "Tricks", written out independently of the engine."""
    order = [Card(trump, "ace"), WELI] + [
        Card(trump, r) for r in GERMAN_RANKS[1:] if Card(trump, r) != WELI
    ]
    trumps = [c for c in cards if c in order]
    if trumps:
        return min(trumps, key=order.index)
    led = cards[0].suit
    return min((c for c in cards if c.suit == led), key=lambda c: GERMAN_RANKS.index(c.rank))


def effective(card: Card, trump: str) -> str:
    return trump if card == WELI else card.suit


@st.composite
def tricks(draw: st.DrawFn, min_size: int = 1) -> tuple[MulatschakRules, str, list[Card]]:
    rules = draw(st.sampled_from(list(PRESETS.values())))
    trump = draw(st.sampled_from(SUITS))
    cards = draw(
        st.lists(st.sampled_from(rules.card_pack.cards), min_size=min_size, max_size=6,
                 unique=True)
    )
    return rules, trump, cards


@PROPERTY
@given(tricks())
def test_every_trick_has_exactly_one_winner_who_played_the_winning_card(trick):
    rules, trump, cards = trick
    plays = [Play(NAMES[i], c.code) for i, c in enumerate(cards)]
    result = check_trick(rules, trump, plays)
    assert result.legal
    assert result.winner in NAMES[: len(cards)]
    assert result.winning_card in cards
    assert plays[cards.index(result.winning_card)].player == result.winner


@PROPERTY
@given(tricks())
def test_the_winner_is_the_highest_trump_or_else_the_highest_card_of_the_suit_led(trick):
    rules, trump, cards = trick
    winner = cards[trick_winner(cards, trump, rules.card_pack)]
    assert winner == oracle_winner(cards, trump)
    if any(effective(c, trump) == trump for c in cards):
        assert effective(winner, trump) == trump
    else:
        assert winner.suit == cards[0].suit


@PROPERTY
@given(tricks(min_size=2), st.randoms(use_true_random=False))
def test_the_winning_card_does_not_depend_on_the_order_of_the_cards_after_the_lead(trick, rnd):
    rules, trump, cards = trick
    rest = cards[1:]
    rnd.shuffle(rest)
    shuffled = [cards[0], *rest]
    a = cards[trick_winner(cards, trump, rules.card_pack)]
    b = shuffled[trick_winner(shuffled, trump, rules.card_pack)]
    assert a == b


@PROPERTY
@given(tricks(min_size=2), st.data())
def test_a_trick_without_trumps_that_gains_a_trump_is_won_by_a_trump(trick, data):
    rules, trump, cards = trick
    spare = [c for c in rules.card_pack.cards if effective(c, trump) == trump and c not in cards]
    if not spare:
        return
    extra = data.draw(st.sampled_from(spare))
    grown = [*cards, extra]
    assert effective(grown[trick_winner(grown, trump, rules.card_pack)], trump) == trump


@st.composite
def positions(draw: st.DrawFn) -> tuple[MulatschakRules, str, list[Card], list[Card]]:
    """A trick in progress and the hand of the next player (disjoint cards)."""
    rules = draw(rule_sets())
    trump = draw(st.sampled_from(SUITS))
    cards = draw(
        st.lists(st.sampled_from(rules.card_pack.cards), min_size=2, max_size=10, unique=True)
    )
    split = draw(st.integers(1, min(5, len(cards) - 1)))
    earlier, hand = cards[:split], cards[split:][:5]
    return rules, trump, earlier, hand


def legal_cards(rules: MulatschakRules, trump: str, earlier: list[Card], hand: list[Card]):
    hand_codes = tuple(c.code for c in hand)
    out = []
    for c in hand:
        plays = [Play(NAMES[i], e.code) for i, e in enumerate(earlier)]
        plays.append(Play(NAMES[len(earlier)], c.code, hand_codes))
        if check_trick(rules, trump, plays).legal:
            out.append(c)
    return out


@PROPERTY
@given(positions())
def test_a_player_always_has_a_legal_card(position):
    assert legal_cards(*position)


@PROPERTY
@given(positions())
def test_a_player_holding_the_suit_led_may_only_play_that_suit(position):
    rules, trump, earlier, hand = position
    led = effective(earlier[0], trump)
    allowed = legal_cards(rules, trump, earlier, hand)
    if rules.must_follow_suit and any(effective(c, trump) == led for c in hand):
        assert all(effective(c, trump) == led for c in allowed)
    elif rules.must_trump and any(effective(c, trump) == trump for c in hand):
        assert all(effective(c, trump) == trump for c in allowed)


@PROPERTY
@given(positions())
def test_without_any_obligation_every_card_in_hand_is_legal(position):
    rules, trump, earlier, hand = position
    free = replace(rules, must_follow_suit=False, must_trump=False, must_head_trick=False)
    assert legal_cards(free, trump, earlier, hand) == hand


@PROPERTY
@given(positions())
def test_with_stichzwang_a_legal_card_that_follows_suit_beats_the_trick_if_any_can(position):
    rules, trump, earlier, hand = position
    rules = replace(rules, must_follow_suit=True, must_trump=True, must_head_trick=True)
    led = effective(earlier[0], trump)
    best = oracle_winner(earlier, trump)
    allowed = legal_cards(rules, trump, earlier, hand)

    def wins(c: Card) -> bool:
        return oracle_winner([*earlier, c], trump) == c

    trumped_over = led != trump and effective(best, trump) == trump
    followers = [c for c in hand if effective(c, trump) == led]
    if followers and not trumped_over and any(wins(c) for c in followers):
        assert all(wins(c) for c in allowed)
    if not followers and any(effective(c, trump) == trump and wins(c) for c in hand):
        assert all(wins(c) for c in allowed)


# --- the score limit (docs/rules.md, "Scores have a limit") ------------------------------

#: The largest and smallest amounts a table may set, with the cap on and off.
def _edge(name: str) -> st.SearchStrategy[int]:
    low, high = INT_BOUNDS[name]
    return st.sampled_from(sorted({low, min(1, high), high}))


_EDGE_PAYOUT = st.fixed_dictionaries({"declarer": st.sampled_from((-1000, 0, 1000)),
                                      "others": st.sampled_from((-1000, 0, 1000))})
EXTREMES: dict[str, st.SearchStrategy[Any]] = {
    **{name: _edge(name) for name in ("trick_value", "no_trick_penalty",
                                      "declarer_fail_penalty", "stay_home_penalty")},
    "muli_win": _EDGE_PAYOUT,
    "muli_fail": _EDGE_PAYOUT,
    "multiplier_cap": st.none() | st.sampled_from((1, 8, 1 << 20)),
}


@st.composite
def extreme_situations(draw: st.DrawFn) -> Situation:
    """A legal deal at a table with the largest amounts, after up to 3000 collapses, with
    scores anywhere from the usual to the limit."""
    fixed = {name: draw(value) for name, value in EXTREMES.items()}
    situation = draw(legal_situations(score_floor=None, **fixed))
    lift = draw(st.sampled_from((0, MAX_SCORE // 2, MAX_SCORE - 10_000)))
    scores = {p: s + lift + draw(st.integers(0, 10_000)) for p, s in situation.scores.items()}
    return replace(situation, scores=scores, collapses=draw(st.integers(0, 3000)))


def test_the_implicit_cap_is_the_largest_power_of_two_that_keeps_any_deal_within_the_limit():
    assert IMPLICIT_MULTIPLIER_CAP == 2**40
    assert MAX_BASE_CHANGE * IMPLICIT_MULTIPLIER_CAP <= MAX_SCORE
    assert MAX_BASE_CHANGE * IMPLICIT_MULTIPLIER_CAP * 2 > MAX_SCORE
    assert INT_BOUNDS["multiplier_cap"][1] <= IMPLICIT_MULTIPLIER_CAP


@PROPERTY
@given(extreme_situations())
def test_no_base_change_is_larger_than_the_one_the_implicit_cap_allows_for(situation):
    base = score_deal(replace(situation, scores={}).table(), situation.deal).base
    assert all(abs(b) <= MAX_BASE_CHANGE for b in base.values())


@PROPERTY
@given(extreme_situations())
def test_no_deal_takes_a_score_past_the_limit_it_is_refused_instead(situation):
    rules = situation.rules
    table = situation.table()
    result = score_deal(table, situation.deal)
    unbounded = score_deal(replace(situation, scores={}).table(), situation.deal)
    assert unbounded.legal
    assert unbounded.multiplier <= rules.largest_multiplier <= IMPLICIT_MULTIPLIER_CAP
    assert all(abs(d) <= MAX_SCORE for d in unbounded.deltas.values())
    beyond = [p for p in situation.players
              if abs(table.scores_before[p] + unbounded.deltas[p]) > MAX_SCORE]
    if beyond:
        assert result.violations == tuple(
            Violation.of("score_out_of_range", p, limit=MAX_SCORE) for p in beyond)
        assert dict(result.scores_after) == dict(table.scores_before)
    else:
        assert result.legal
        assert all(abs(s) <= MAX_SCORE for s in result.scores_after.values())
