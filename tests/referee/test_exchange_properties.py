"""Properties of exchange forms, the talon, sitting out and knocks over collapses
(docs/rules.md, "Exchange", "Knocks and collapses" and "Sitting out"), over the random
legal deals of test_properties and their own."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.deal import Deal, DealKind, Reason, Table, check_deal, score_deal
from referee.exchange import Exchange, Form, recorded_entries, talon_order
from referee.rules import mulatschak_rules
from tests.referee.test_properties import (
    NAMES,
    PROPERTY,
    SUITS,
    Situation,
    any_situations,
    legal_situations,
)

MULI = 5

counts = st.integers(0, 6)
exchanges = st.one_of(
    st.builds(Exchange.plain, counts, counts, st.none() | counts),
    st.builds(Exchange.on_sight, st.booleans()),
    st.just(Exchange.ace_five()),
    st.just(Exchange.seven_six()),
    st.builds(Exchange.bridge, st.integers(0, 4)),
)


# --- counts -------------------------------------------------------------------------


@PROPERTY
@given(exchanges)
def test_an_exchange_takes_no_more_than_it_draws_and_wastes_only_refused_cards(x):
    assert 0 <= x.taken <= x.drawn or (x.form is Form.PLAIN and x.kept > x.face_up)
    wasted = x.drawn - x.taken
    if x.form is Form.ON_SIGHT:
        assert wasted == (1 if x.refused else 0)
    elif x.form is Form.PLAIN:
        assert wasted == x.face_up - x.kept
    else:
        assert wasted == 0


@PROPERTY
@given(st.dictionaries(st.sampled_from(NAMES), exchanges, max_size=6),
       st.dictionaries(st.sampled_from(NAMES), counts, max_size=6),
       st.sampled_from(NAMES), st.booleans(), st.integers(0, 40), st.randoms())
def test_the_talon_order_is_a_fixed_order_whatever_the_order_of_the_record(
        forms, plain, declarer, delayed, talon, rnd):
    entries = list(recorded_entries(NAMES, plain, forms))
    order = talon_order(NAMES, declarer, entries, delayed=delayed)
    rnd.shuffle(entries)
    assert talon_order(NAMES, declarer, entries, delayed=delayed) == order
    assert Counter(d.entry for d in order) == Counter(entries)
    total = sum(e.exchange.drawn for e in entries)
    assert (order[-1].after if order else 0) == total
    # exactly one exchange exhausts a talon that the exchanges reach, none otherwise
    assert sum(d.exhausts(talon) for d in order) == (1 if 0 < talon <= total else 0)
    bridges = [i for i, d in enumerate(order) if d.entry.exchange.form is Form.BRIDGE]
    others = [i for i, d in enumerate(order) if d.entry.exchange.form is not Form.BRIDGE]
    first = 1 if delayed and order and order[0].entry.player == declarer and bridges and (
        bridges[0] == 0) else 0
    assert all(i < j for i in others for j in bridges[first:])


@PROPERTY
@given(legal_situations())
def test_exchanged_counts_mean_plain_exchanges_in_the_other_map(situation):
    deal = situation.deal
    moved = replace(deal, exchanged=None, exchanges=None if deal.exchanged is None else {
        p: Exchange.plain(n) for p, n in deal.exchanged.items()})
    table = situation.table()
    assert check_deal(table, moved) == ()
    a, b = score_deal(table, deal), score_deal(table, moved)
    assert (a.deltas, a.exchange_totals) == (b.deltas, b.exchange_totals)


@PROPERTY
@given(any_situations(), st.dictionaries(st.sampled_from((*NAMES, "Xaver")), exchanges,
                                         max_size=4), st.booleans())
def test_exchange_violations_do_not_depend_on_the_order_of_the_record(situation, forms,
                                                                       delayed):
    deal = situation.deal
    if deal.kind is not DealKind.PLAYED:
        return
    deal = replace(deal, exchanges=forms, trump_delayed=delayed)
    flipped = replace(deal, exchanges=dict(reversed(list(forms.items()))), exchanged=None
                      if deal.exchanged is None else dict(reversed(list(deal.exchanged.items()))))
    a = check_deal(situation.table(), deal)
    b = check_deal(situation.table(), flipped)
    key = lambda v: (v.code, v.player, tuple(sorted(v.params.items())))  # noqa: E731
    assert Counter(map(key, a)) == Counter(map(key, b))
    assert [v.code for v in a] == [v.code for v in b]
    # names not seated keep the record's order; every seated player comes in seat order
    seated = set(situation.players)
    assert [key(v) for v in a if v.player in seated] == [key(v) for v in b if v.player in seated]
    result = score_deal(situation.table(), deal)
    assert result.violations == a
    if a:
        assert dict(result.deltas) == {}


@st.composite
def form_situations(draw: st.DrawFn) -> tuple[Situation, dict[str, Exchange], bool]:
    """A legal deal plus legal exchanges in every form (all switches on, no caps)."""
    fixed: dict[str, Any] = {
        "exchange_on_sight": True, "exchange_ace_five": True, "exchange_bridge": True,
        "exchange_seven_six": True, "delayed_trump": True, "declarer_on_sight_chain": True,
        "exchange_capped_by_declarer": False, "no_exchange_at_or_below": None,
        "muli_no_exchange": False,
    }
    situation = draw(legal_situations(**fixed))
    deal = situation.deal
    playing = [p for p in situation.players if p not in deal.stayed_home]
    declarer = deal.declarer or ""
    talon = situation.table().talon
    delayed = draw(st.booleans()) and (deal.bid or 0) >= situation.rules.min_bid and talon >= 5
    forms: dict[str, Exchange] = {}
    used = 0
    if delayed:
        # two face-up cards at least, unless the talon runs out first
        forms[declarer] = Exchange.bridge(min(draw(st.integers(2, 3)), talon - 5))
        used = forms[declarer].drawn
    for p in playing:
        if p in forms or not draw(st.booleans()):
            continue
        options = [Exchange.on_sight(draw(st.booleans())), Exchange.ace_five(),
                   Exchange.bridge(draw(st.integers(1, 3)))]
        if deal.trump == "bells":
            options.append(Exchange.seven_six())
        limit = situation.rules.max_exchange_for(len(situation.players))
        if p == declarer and limit:
            cards = min(draw(st.integers(1, 3)), limit)
            kept = draw(st.integers(0, 2))
            options.append(Exchange.plain(cards, kept + draw(st.integers(0, 1)), kept))
        x = draw(st.sampled_from(options))
        if used + x.drawn <= talon:
            forms[p] = x
            used += x.drawn
    return situation, forms, delayed


@PROPERTY
@given(form_situations())
def test_legal_exchanges_in_any_form_are_legal_and_never_change_a_score(case):
    situation, forms, delayed = case
    deal = replace(situation.deal, exchanged=None, exchanges=forms, trump_delayed=delayed)
    table = situation.table()
    assert check_deal(table, deal) == ()
    with_forms, without = score_deal(table, deal), score_deal(table, situation.deal)
    assert with_forms.deltas == without.deltas
    assert with_forms.exchange_totals is not None
    assert with_forms.exchange_totals.drawn == sum(x.drawn for x in forms.values())
    assert with_forms.exchange_totals.drawn <= with_forms.exchange_totals.talon


# --- sitting out ----------------------------------------------------------------------


@PROPERTY
@given(legal_situations(), st.integers(0, 6), st.sampled_from(DealKind))
def test_a_dealer_who_sits_out_changes_nothing_for_the_others_and_scores_zero(
        situation, seat, kind):
    n = len(situation.players)
    seats = list(situation.players)
    seats.insert(seat % (n + 1), "Xenia")
    rules = replace(situation.rules, sit_out_at=n + 1,
                    players_max=max(situation.rules.players_max, n + 1))
    deal = situation.deal if kind is DealKind.PLAYED else Deal(kind)
    scores = {**situation.scores, "Xenia": 100}
    table = Table.of(rules, seats, "Xenia", scores, situation.collapses, situation.previous_home)
    assert table.sitting_out == "Xenia" and table.active == situation.players
    result = score_deal(table, deal)
    assert result.legal, result.violations
    assert result.deltas["Xenia"] == 0 and result.reasons["Xenia"] is Reason.SITTING_OUT
    plain = score_deal(replace(situation, deal=deal).table(), deal)
    assert {p: d for p, d in result.deltas.items() if p != "Xenia"} == dict(plain.deltas)
    assert result.multiplier == plain.multiplier
    assert result.sitting_out == "Xenia"
    assert result.next_sitting_out == result.next_dealer


# --- knocks over collapses ------------------------------------------------------------


@PROPERTY
@given(st.sampled_from(("salzburg", "geiser", "murln")), st.booleans(), st.booleans(),
       st.sampled_from(("redeal", "redeal_double")),
       st.lists(st.tuples(st.sampled_from(DealKind), st.booleans()), max_size=12))
def test_knocks_carried_never_exceed_the_collapses_and_each_doubles_once(
        preset, doubles, survives, all_pass, sequence):
    rules = mulatschak_rules(preset, {"knock_doubles": doubles,
                                      "knock_survives_collapse": survives,
                                      "all_pass": all_pass, "multiplier_cap": None})
    players = NAMES[:4]
    collapses = knocks = 0
    for kind, knocked in sequence:
        table = Table.of(rules, players, players[0], collapses_before=collapses,
                         knocks_before=knocks)
        deal = Deal(kind, knocked=knocked and doubles)
        if kind is DealKind.PLAYED:
            deal = Deal.played(declarer=players[1], bid=2, trump=SUITS[0],
                               tricks={p: (2 if p == players[1] else 1) for p in players},
                               knocked=knocked and doubles)
        result = score_deal(table, deal)
        assert result.legal, result.violations
        assert 0 <= result.knocks_after <= result.collapses_after
        if not (doubles and survives):
            assert result.knocks_after == 0
        if kind is DealKind.PLAYED:
            own = 1 if deal.knocked else 0
            assert result.multiplier == 2 ** (collapses + own + knocks)
        collapses, knocks = result.collapses_after, result.knocks_after
