"""Exchange forms, counted (docs/rules.md, "Exchange"): the forms, the talon and its order, the
delayed trump, the declarer's chain on sight, and the caps."""

from __future__ import annotations

from typing import Any

import pytest

from referee.deal import Deal, Table, check_deal, deal_from_dict, deal_to_dict, score_deal
from referee.exchange import (
    Entry,
    Exchange,
    Form,
    Source,
    exchange_from_dict,
    exchange_to_dict,
    recorded_entries,
    talon_order,
)
from referee.rules import mulatschak_rules
from referee.violations import RuleError

HANS, GRETE, SEPP, RESI = "Hans", "Grete", "Sepp", "Resi"
FOUR = (HANS, GRETE, SEPP, RESI)
TRICKS = {HANS: 1, GRETE: 1, SEPP: 2, RESI: 1}


def table(preset: str = "salzburg", overrides: dict[str, Any] | None = None,
          scores: dict[str, int] | None = None) -> Table:
    return Table.of(mulatschak_rules(preset, overrides), FOUR, RESI, scores)


def played(**changes: Any) -> Deal:
    """Sepp bids 2 in acorns and makes it; everybody plays."""
    kwargs: dict[str, Any] = {"declarer": SEPP, "bid": 2, "trump": "acorns", "tricks": TRICKS}
    kwargs.update(changes)
    return Deal.played(**kwargs)


def found(t: Table, deal: Deal) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(v.code, v.player, dict(v.params)) for v in check_deal(t, deal)]


def codes(t: Table, deal: Deal) -> list[str]:
    return [v.code for v in check_deal(t, deal)]


# --- the forms, counted -------------------------------------------------------------


@pytest.mark.parametrize(("exchange", "drawn", "taken"), [
    (Exchange.plain(0), 0, 0),
    (Exchange.plain(3), 3, 3),
    (Exchange.plain(2, face_up=2), 4, 4),
    (Exchange.plain(2, face_up=2, face_up_kept=1), 4, 3),
    (Exchange.on_sight(), 1, 1),
    (Exchange.on_sight(refused=True), 2, 1),
    (Exchange.ace_five(), 5, 5),
    (Exchange.seven_six(), 6, 6),
    (Exchange.bridge(), 6, 6),
    (Exchange.bridge(face_up=0), 5, 5),
    (Exchange.bridge(face_up=3), 8, 8),
])
def test_each_form_draws_and_takes_the_cards_of_the_rules_table(exchange, drawn, taken):
    assert (exchange.drawn, exchange.taken) == (drawn, taken)


def test_a_plain_exchange_of_no_card_is_no_exchange_and_every_other_form_is_one():
    assert not Exchange.plain(0).is_exchange
    assert all(x.is_exchange for x in (Exchange.plain(1), Exchange.on_sight(),
                                       Exchange.ace_five(), Exchange.seven_six(),
                                       Exchange.bridge(face_up=0)))


@pytest.mark.parametrize(("data", "exchange"), [
    ({"form": "plain", "cards": 2}, Exchange.plain(2)),
    ({"form": "plain", "cards": 2, "face_up": 1}, Exchange.plain(2, 1)),
    ({"form": "plain", "cards": 2, "face_up": 2, "face_up_kept": 1}, Exchange.plain(2, 2, 1)),
    ({"form": "on_sight"}, Exchange.on_sight()),
    ({"form": "on_sight", "refused": True}, Exchange.on_sight(refused=True)),
    ({"form": "ace_five"}, Exchange.ace_five()),
    ({"form": "seven_six"}, Exchange.seven_six()),
    ({"form": "bridge"}, Exchange.bridge(face_up=1)),
    ({"form": "bridge", "face_up": 0}, Exchange.bridge(face_up=0)),
])
def test_an_exchange_reads_from_its_json_object_with_the_defaults_of_the_api(data, exchange):
    assert exchange_from_dict(data) == exchange
    assert exchange_from_dict(exchange_to_dict(exchange)) == exchange


@pytest.mark.parametrize(("data", "field", "code"), [
    ("bridge", "x", "not_object"),
    ({}, "x.form", "missing"),
    ({"form": "swap"}, "x.form", "not_choice"),
    ({"form": 3}, "x.form", "not_choice"),
    ({"form": "plain"}, "x.cards", "missing"),
    ({"form": "plain", "cards": -1}, "x.cards", "too_small"),
    ({"form": "plain", "cards": "2"}, "x.cards", "not_int"),
    ({"form": "plain", "cards": True}, "x.cards", "not_int"),
    ({"form": "plain", "cards": 1, "face_up_kept": None}, "x.face_up_kept", "not_int"),
    ({"form": "plain", "cards": 1, "refused": True}, "x.refused", "not_form_field"),
    ({"form": "on_sight", "refused": "yes"}, "x.refused", "not_bool"),
    ({"form": "on_sight", "cards": 1}, "x.cards", "not_form_field"),
    ({"form": "ace_five", "face_up": 1}, "x.face_up", "not_form_field"),
    ({"form": "bridge", "face_up": -2}, "x.face_up", "too_small"),
    ({"form": "bridge", "cards": 5}, "x.cards", "not_form_field"),
])
def test_a_malformed_exchange_is_an_error_naming_its_field(data, field, code):
    with pytest.raises(RuleError) as caught:
        exchange_from_dict(data, "x")
    assert (caught.value.field, caught.value.code) == (field, code)


def test_a_count_above_the_maximum_given_is_an_error():
    with pytest.raises(RuleError) as caught:
        exchange_from_dict({"form": "bridge", "face_up": 100}, "x", maximum=99)
    assert (caught.value.field, caught.value.code) == ("x.face_up", "too_large")


def test_a_deal_keeps_both_maps_as_recorded_and_old_deals_keep_their_shape():
    old = {"kind": "played", "knocked": False, "declarer": SEPP, "bid": 2, "trump": "acorns",
           "stayed_home": [], "tricks": TRICKS, "exchanged": {SEPP: 2}, "muli_breaker": None}
    assert deal_to_dict(deal_from_dict(old)) == old
    new = {**old, "exchanges": {HANS: {"form": "bridge", "face_up": 2}}, "trump_delayed": True}
    assert deal_to_dict(deal_from_dict(new)) == new


# --- the talon, in its order ------------------------------------------------------------


def test_the_talon_is_dealt_declarer_first_then_clockwise_and_the_bridges_last():
    entries = recorded_entries(FOUR, {HANS: 1}, {
        GRETE: Exchange.bridge(), RESI: Exchange.ace_five(), SEPP: Exchange.on_sight(),
        HANS: Exchange.bridge(),
    })
    order = talon_order(FOUR, SEPP, entries)
    assert [(d.entry.player, d.entry.exchange.form) for d in order] == [
        (SEPP, Form.ON_SIGHT), (RESI, Form.ACE_FIVE), (HANS, Form.PLAIN),
        (HANS, Form.BRIDGE), (GRETE, Form.BRIDGE),
    ]
    assert [(d.before, d.after) for d in order] == [(0, 1), (1, 6), (6, 7), (7, 13), (13, 19)]


def test_a_delayed_trump_deals_the_declarers_bridge_before_everything():
    entries = recorded_entries(FOUR, {HANS: 2}, {SEPP: Exchange.bridge(face_up=2)})
    assert [d.entry.player for d in talon_order(FOUR, SEPP, entries, delayed=True)] == [
        SEPP, HANS]
    assert [d.entry.player for d in talon_order(FOUR, SEPP, entries)] == [HANS, SEPP]


def test_an_exchange_exhausts_the_talon_when_the_running_sum_reaches_it_during_it():
    entry = Entry(HANS, Exchange.bridge(face_up=0), Source.EXCHANGES)
    (dealt,) = talon_order(FOUR, SEPP, [entry])
    assert dealt.exhausts(5) and dealt.exhausts(3) and not dealt.exhausts(6)
    assert dealt.runs_out(3) and not dealt.runs_out(6)


def test_the_first_example_fills_the_talon_exactly_so_the_last_bridge_has_no_face_up_card():
    deal = played(exchanged={SEPP: 4}, exchanges={
        HANS: Exchange.on_sight(refused=True), RESI: Exchange.ace_five(),
        GRETE: Exchange.bridge(face_up=0)})
    result = score_deal(table(), deal)
    assert result.legal, result.violations
    assert result.exchange_totals is not None
    assert result.exchange_totals.as_dict() == {"drawn": 16, "talon": 16}


def test_a_bridge_turns_up_at_least_one_card_unless_the_talon_runs_out():
    assert found(table(), played(exchanges={GRETE: Exchange.bridge(face_up=0)})) == [
        ("face_up_chain_invalid", GRETE, {"form": "bridge", "reason": "counts"})]
    # 11 cards drawn before Grete's bridge: her five face-down cards empty the talon.
    assert codes(table(), played(exchanged={SEPP: 5, HANS: 5, RESI: 1},
                                 exchanges={GRETE: Exchange.bridge(face_up=0)})) == []


def test_the_talon_counts_the_active_players():
    # Murln with five: the talon is 33 - 25 = 8, or 33 - 20 = 13 with the dealer out.
    five = ("Hans", "Grete", "Sepp", "Resi", "Franz")
    tricks = {"Hans": 1, "Grete": 1, "Sepp": 2, "Resi": 1}
    deal = Deal.played(declarer=SEPP, bid=2, trump="acorns", tricks=tricks,
                       exchanged={SEPP: 3, HANS: 3, GRETE: 3})
    out = Table.of(mulatschak_rules("murln", {"sit_out_at": 5}), five, "Franz")
    assert out.talon == 13 and check_deal(out, deal) == ()
    seated = Table.of(mulatschak_rules("murln"), five, "Franz")
    assert seated.talon == 8
    assert [v.code for v in check_deal(seated, Deal.played(
        declarer=SEPP, bid=2, trump="acorns", tricks=tricks | {"Franz": 0},
        exchanged={SEPP: 3, HANS: 3, GRETE: 3}))] == ["exchange_exceeds_talon"]


def test_every_entry_counts_towards_the_talon_even_a_forbidden_one():
    t = table("geiser")
    deal = played(exchanged={HANS: 5}, exchanges={GRETE: Exchange.ace_five(),
                                                   RESI: Exchange.bridge(face_up=2)})
    assert found(t, deal) == [
        ("exchange_exceeds_talon", None, {"cards": 17, "talon": 16}),
        ("exchange_form_not_allowed", GRETE, {"form": "ace_five"}),
        ("exchange_form_not_allowed", RESI, {"form": "bridge"}),
    ]


# --- each form's switch and rules ---------------------------------------------------------


@pytest.mark.parametrize(("switch", "exchange"), [
    ("exchange_on_sight", Exchange.on_sight()),
    ("exchange_ace_five", Exchange.ace_five()),
    ("exchange_bridge", Exchange.bridge()),
    ("exchange_seven_six", Exchange.seven_six()),
])
def test_each_special_form_needs_its_switch(switch, exchange):
    deal = played(trump="bells", exchanges={HANS: exchange})
    assert codes(table(), deal) == []
    assert found(table(overrides={switch: False}), deal) == [
        ("exchange_form_not_allowed", HANS, {"form": str(exchange.form)})]


def test_six_on_the_seven_needs_bells_trump_and_a_refused_form_is_not_checked_further():
    assert found(table(), played(trump="leaves", exchanges={RESI: Exchange.seven_six()})) == [
        ("seven_six_not_bells", RESI, {"trump": "leaves"})]
    off = table(overrides={"exchange_seven_six": False})
    assert codes(off, played(trump="leaves", exchanges={RESI: Exchange.seven_six()})) == [
        "exchange_form_not_allowed"]


def test_a_player_in_both_maps_is_recorded_twice():
    assert found(table(), played(exchanged={HANS: 1}, exchanges={HANS: Exchange.on_sight()})
                 ) == [("exchange_recorded_twice", HANS, {})]


def test_nobody_exchanges_in_a_muli_whatever_the_form_and_a_plain_zero_is_fine():
    tricks = {HANS: 0, GRETE: 0, SEPP: 5, RESI: 0}
    deal = played(bid=5, tricks=tricks, exchanged={GRETE: 0},
                  exchanges={HANS: Exchange.bridge(), RESI: Exchange.on_sight(refused=True)})
    assert found(table(), deal) == [
        ("exchange_forbidden_muli", HANS, {"cards": 6}),
        ("exchange_forbidden_muli", RESI, {"cards": 1}),
    ]


def test_a_low_score_forbids_every_form():
    t = table(scores={HANS: 3})
    assert found(t, played(exchanges={HANS: Exchange.ace_five()})) == [
        ("exchange_forbidden_low_score", HANS, {"cards": 5, "score": 3, "threshold": 3})]


def test_who_stayed_home_has_no_exchange_in_any_form_but_may_have_a_zero():
    deal = played(stayed_home=[GRETE], tricks={HANS: 2, SEPP: 2, RESI: 1},
                  exchanges={GRETE: Exchange.on_sight()})
    assert found(table(), deal) == [("exchange_by_absent", GRETE, {"form": "on_sight"})]
    zero = played(stayed_home=[GRETE], tricks={HANS: 2, SEPP: 2, RESI: 1},
                  exchanged={GRETE: 0})
    assert codes(table(), zero) == []


# --- caps ---------------------------------------------------------------------------


def test_max_exchange_caps_plain_exchanges_only():
    t = table(overrides={"max_exchange": 2})
    assert found(t, played(exchanged={HANS: 3})) == [
        ("exchange_too_many", HANS, {"cards": 3, "max": 2})]
    assert codes(t, played(exchanges={HANS: Exchange.ace_five(), GRETE: Exchange.bridge()})) == []


def test_the_declarers_cap_counts_what_the_declarer_took_in_any_form():
    t = table(overrides={"exchange_capped_by_declarer": True})
    assert found(t, played(exchanged={HANS: 2}, exchanges={SEPP: Exchange.on_sight()})) == [
        ("exchange_too_many", HANS, {"cards": 2, "max": 1})]
    assert codes(t, played(exchanged={HANS: 5}, exchanges={SEPP: Exchange.ace_five()})) == []


def test_the_geiser_chain_counts_towards_the_declarers_cap_but_not_towards_his_own():
    deal = played(trump="bells", exchanged={HANS: 4},
                  exchanges={SEPP: Exchange.plain(2, face_up=2, face_up_kept=2)})
    assert codes(table("geiser"), deal) == []
    over = played(trump="bells", exchanged={HANS: 4},
                  exchanges={SEPP: Exchange.plain(2, face_up=2, face_up_kept=1)})
    assert found(table("geiser"), over) == [("exchange_too_many", HANS, {"cards": 4, "max": 3})]
    # max_exchange limits the face-down cards only; the chain is bounded by the talon
    long = played(trump="bells", exchanges={SEPP: Exchange.plain(5, face_up=6)})
    assert codes(table("geiser"), long) == []


# --- the declarer's chain on sight (Geiser) -----------------------------------------------


@pytest.mark.parametrize(("cards", "face_up", "kept", "legal"), [
    (1, 1, 0, True),   # a non-trump turned up and refused
    (1, 1, 1, True),   # a non-trump turned up and kept
    (2, 3, 2, True),   # two trumps kept, then a non-trump refused
    (2, 3, 3, True),
    (1, 3, 1, False),  # a refused card that was not the last
    (1, 1, 2, False),  # kept more than turned up
    (0, 1, 1, False),  # a chain without an exchange
])
def test_the_chain_keeps_every_card_but_perhaps_the_last(cards, face_up, kept, legal):
    deal = played(exchanges={SEPP: Exchange.plain(cards, face_up=face_up, face_up_kept=kept)})
    expected = [] if legal else [
        ("face_up_chain_invalid", SEPP, {"form": "on_sight_chain", "reason": "counts"})]
    assert found(table("geiser"), deal) == expected


def test_only_the_declarer_has_a_chain_and_only_with_the_switch():
    chain = Exchange.plain(1, face_up=1)
    assert found(table("geiser"), played(exchanges={HANS: chain})) == [
        ("exchange_form_not_allowed", HANS, {"form": "on_sight_chain"})]
    assert found(table("salzburg"), played(exchanges={SEPP: chain})) == [
        ("exchange_form_not_allowed", SEPP, {"form": "on_sight_chain"})]
    kept_only = Exchange.plain(1, face_up_kept=1)
    assert codes(table("geiser"), played(exchanges={HANS: kept_only})) == [
        "exchange_form_not_allowed"]


# --- the delayed trump --------------------------------------------------------------


DELAYED = {"delayed_trump": True}


def test_a_delayed_trump_takes_the_bridge_whatever_exchange_bridge_says():
    t = table(overrides={**DELAYED, "exchange_bridge": False})
    assert codes(t, played(trump_delayed=True, exchanges={SEPP: Exchange.bridge(2)})) == []
    assert codes(t, played(exchanges={SEPP: Exchange.bridge(2)})) == [
        "exchange_form_not_allowed"]
    assert codes(t, played(trump_delayed=True, exchanges={SEPP: Exchange.bridge(2),
                                                          HANS: Exchange.bridge(2)})) == [
        "exchange_form_not_allowed"]


def test_the_delayed_bridge_turns_up_two_cards_unless_the_talon_runs_out():
    t = table(overrides=DELAYED)
    assert found(t, played(trump_delayed=True, exchanges={SEPP: Exchange.bridge(1)})) == [
        ("face_up_chain_invalid", SEPP, {"form": "bridge", "reason": "counts"})]
    # dealt first: with six players the talon of 6 runs out within the bridge
    six = ("Hans", "Grete", "Sepp", "Resi", "Franz", "Loisi")
    small = Table.of(mulatschak_rules("salzburg", DELAYED), six, "Loisi")
    deal = Deal.played(declarer=SEPP, bid=2, trump="acorns", trump_delayed=True,
                       tricks={"Hans": 1, "Grete": 1, "Sepp": 2, "Resi": 1,
                               "Franz": 0, "Loisi": 0},
                       exchanges={SEPP: Exchange.bridge(1)})
    assert check_deal(small, deal) == ()


def test_a_delayed_trump_needs_the_declarers_bridge():
    t = table(overrides=DELAYED)
    assert found(t, played(trump_delayed=True)) == [
        ("delayed_trump_without_bridge", SEPP, {})]
    assert found(t, played(trump_delayed=True, exchanges={SEPP: Exchange.on_sight()})) == [
        ("delayed_trump_without_bridge", SEPP, {})]


def test_without_the_switch_a_delayed_trump_is_only_a_form_not_allowed():
    found_ = found(table(), played(trump_delayed=True))
    assert found_ == [("exchange_form_not_allowed", SEPP, {"form": "delayed_trump"})]


def test_a_delayed_trump_bid_uses_min_bid_and_hearts_still_double_and_all_play():
    t = table(overrides={**DELAYED, "min_bid": 2, "min_bid_hearts": 1})
    bridge = {SEPP: Exchange.bridge(2)}
    assert found(t, played(bid=1, trump="hearts", trump_delayed=True, exchanges=bridge)) == [
        ("bid_out_of_range", SEPP, {"bid": 1, "min": 2, "max": 5})]
    assert codes(t, played(bid=1, trump="hearts", exchanges={})) == []
    home = played(trump="hearts", trump_delayed=True, exchanges=bridge, stayed_home=[GRETE],
                  tricks={HANS: 2, SEPP: 2, RESI: 1})
    assert codes(t, home) == ["stay_home_forbidden_hearts"]
    result = score_deal(t, played(trump="hearts", trump_delayed=True, exchanges=bridge))
    assert result.multiplier == 2


def test_a_delayed_bridge_in_a_muli_or_at_a_low_score_is_a_forbidden_exchange():
    t = table(overrides={**DELAYED, "no_bid_at_or_below": None}, scores={SEPP: 3})
    muli = played(bid=5, trump_delayed=True, exchanges={SEPP: Exchange.bridge(2)},
                  tricks={HANS: 0, GRETE: 0, SEPP: 5, RESI: 0})
    assert codes(t, muli) == ["exchange_forbidden_muli", "exchange_forbidden_low_score"]


def test_exchange_violations_come_in_seat_order_within_each_code():
    t = table("geiser")
    deal = played(exchanges={RESI: Exchange.on_sight(), HANS: Exchange.bridge(),
                             GRETE: Exchange.plain(1, face_up=1)})
    assert [(v.code, v.player) for v in check_deal(t, deal)] == [
        ("exchange_form_not_allowed", HANS),
        ("exchange_form_not_allowed", GRETE),
        ("exchange_form_not_allowed", RESI),
    ]
