"""The Mulatschak family at the Referee page: "Was that a legal play?" (one trick) and
"May she still bid, who plays?" (the auction). The referee's check_trick and run_auction
decide, as for /api/v1/referee/mulatschak/trick and /auction."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee.auction import HOLD, MULI, PASS, run_auction
from referee.cards import GERMAN_SUITS, WELI, Card
from referee.rules import PRESETS, MulatschakRules, mulatschak_rules
from referee.trick import Play, check_trick
from referee.violations import RuleError, Violation

from ...cardnames import suit_name
from ...messages import input_error_message, violation_message
from ..disputes import (
    FormError,
    Line,
    Table,
    Tool,
    dropped,
    gather_cards,
    line,
    many,
    name_of,
    one,
    pack_of,
    picked_card,
    picker,
    seat_index,
    slots,
)
from .play import MULI_NAMES, session_rules
from .words import DUTY_VERDICTS, RULE_HELP, RULE_SENTENCES, WORDING

GAME = "mulatschak"
#: The house rules the stand-alone page offers, by question: those that change its answer.
TRICK_RULES = ("must_follow_suit", "must_trump", "must_head_trick")
AUCTION_RULES = ("dealer_may_hold", "min_bid", "no_bid_at_or_below", "sit_out_at")
#: Parameters that may be switched off (empty field: null).
NULLABLE = ("no_bid_at_or_below", "sit_out_at")


def generic_players(count: int) -> list[str]:
    return [_("Player {n}").format(n=n) for n in range(1, count + 1)]


# --- the table: a session's, or the rules picked on the stand-alone page -------------------


def session_table(loaded: Any, board: dict[str, Any]) -> Table:
    rules = session_rules(loaded.session)
    players = [loaded.names.to_name(p) for p in loaded.seats]
    scores = dict.fromkeys(players, rules.start_score)
    if not board.get("game_over"):
        scores |= {p: s for p, s in board.get("scores", {}).items() if p in scores}
    return Table(GAME, rules, rules.pack, players, board.get("next_dealer"), scores,
                 session=loaded.session, preset=loaded.session.preset)


def standalone_table(data: Any, tool: str) -> tuple[Table, list[FormError]]:
    """The preset picked and the house rules of ``tool`` (those that change its answer),
    each defaulting to the preset's value; a preset picked anew resets them."""
    errors: list[FormError] = []
    preset = one(data, "preset")
    if preset not in PRESETS:
        if preset:
            errors.append(FormError("preset", _("Rules: choose one of the presets.")))
        preset = "salzburg"
    base = PRESETS[preset]
    names = TRICK_RULES if tool == "trick" else AUCTION_RULES
    overrides: dict[str, object] = {}
    if one(data, "rules_for") == preset:  # house rules set for this preset
        for name in names:
            raw = one(data, f"r_{name}").strip()
            value: object
            if isinstance(getattr(base, name), bool):
                if raw not in ("1", "0"):
                    continue
                value = raw == "1"
            elif raw == "" and name in NULLABLE:
                value = None
            elif raw.isascii() and raw.lstrip("-").isdigit() and len(raw) < 6:
                value = int(raw)
            else:
                if raw:
                    errors.append(FormError(f"r_{name}", _("{field}: must be a whole "
                                                           "number.").format(field=name)))
                continue
            overrides[name] = value
    try:
        rules = mulatschak_rules(preset, overrides)
    except RuleError as e:
        name = e.field.removeprefix("overrides.")
        errors.append(FormError(f"r_{name}", f"{name}: {input_error_message(e)}"))
        rules = base
    fields = [{"name": name, "value": getattr(rules, name), "help": RULE_HELP[name],
               "kind": "bool" if isinstance(getattr(base, name), bool) else "int",
               "nullable": name in NULLABLE} for name in names]
    count = rules.players_max if tool == "trick" else _seat_count(data, rules, errors)
    players = generic_players(count)
    table = Table(GAME, rules, rules.pack, players, players[-1],
                  dict.fromkeys(players, rules.start_score), rule_fields=fields, preset=preset,
                  presets=list(PRESETS))
    return table, errors


def _seat_count(data: Any, rules: MulatschakRules, errors: list[FormError]) -> int:
    raw = one(data, "seats")
    if raw.isascii() and raw.isdigit() and rules.players_min <= int(raw) <= rules.players_max:
        return int(raw)
    if raw:
        errors.append(FormError("seats", _("Players: choose from {min} to {max}.").format(
            min=rules.players_min, max=rules.players_max)))
    return min(4, rules.players_max)


_line = partial(line, RULE_SENTENCES)


def _trump(data: Any, table: Table) -> str | None:
    trump = one(data, "trump") or table.trump or ""
    return trump if trump in GERMAN_SUITS else None


def trump_choices(pack: str) -> list[tuple[str, str]]:
    return [(suit, suit_name(suit, pack)) for suit in GERMAN_SUITS]


# --- "Was that a legal play?" ---------------------------------------------------------------


def trick_answer(table: Table, data: Any) -> dict[str, Any]:
    """The cards of the trick in order (the last is the play in question) and, optionally,
    the other cards the player held: legal, or the duty broken; the best card so far."""
    rules: MulatschakRules = table.rules
    pack = pack_of(table)
    errors: list[FormError] = []
    trump = _trump(data, table)
    target = one(data, "target") if one(data, "target") in ("trick", "hand") else "trick"
    label_trick, label_hand = _("The trick, in order"), _("Her other cards")
    cards = gather_cards(pack, data, "trick", label_trick, errors)
    hand = gather_cards(pack, data, "hand", label_hand, errors)
    hand = [c for c in hand if c not in cards]
    dropped(data, {"trick": cards, "hand": hand})
    if one(data, "clear"):
        cards, hand = [], []
    card = picked_card(pack, data, errors)
    if card is not None:
        if target == "hand":
            if card in hand:
                hand.remove(card)
            elif card not in cards:
                hand.append(card)
        elif card not in cards:
            if len(cards) >= rules.players_max:
                errors.append(FormError("trick", ngettext(
                    "A trick has at most {n} card.", "A trick has at most {n} cards.",
                    rules.players_max).format(n=rules.players_max)))
            else:
                if card in hand:
                    hand.remove(card)
                cards.append(card)
    lines: list[Line] = []
    if trump is None:
        lines.append(Line("info", _("Which suit is trump?")))
    elif cards:
        lines = _verdict(rules, trump, cards, hand, table.pack)
    return {
        "trump": trump, "trumps": trump_choices(table.pack), "target": target,
        "targets": [("trick", label_trick), ("hand", _("Her other cards (optional)"))],
        "slots": slots([("trick", label_trick, cards), ("hand", label_hand, hand)],
                       table.pack, target),
        "picker": picker(table.pack, played=cards, chosen=hand if target == "hand" else ()),
        "lines": lines, "errors": errors,
    }


def _verdict(rules: MulatschakRules, trump: str, cards: list[Card], hand: list[Card],
             pack: str) -> list[Line]:
    *earlier, card = cards
    plays = [Play(str(i + 1), c.code) for i, c in enumerate(earlier)]
    held = (card.code, *(c.code for c in hand)) if hand else None
    plays.append(Play(str(len(cards)), card.code, held))
    try:
        result = check_trick(rules, trump, plays)
    except RuleError as e:
        return [Line("no", input_error_message(e))]
    lines: list[Line] = []
    named = name_of(card, pack)
    if not earlier:
        lines.append(Line("yes", _("{card} leads: any card may lead.").format(card=named)))
    for v in result.violations:
        if v.code in DUTY_VERDICTS:
            lines.append(_line("no", str(DUTY_VERDICTS[v.code]), v.code))
            if trump != "bells" and WELI in (card, *hand):
                lines.append(_line("info", _("The Weli counts as a trump here."), "weli"))
        else:
            lines.append(Line("no", violation_message(_named(v, pack), WORDING)))
    if result.legal and earlier:
        if hand:
            lines.append(Line("yes", _("Legal: {card} may be played.").format(card=named)))
        else:
            lines.append(_line("yes", _("Legal as far as the cards show: tap her other cards "
                                        "to check her duties too."), "no_hand"))
    if result.legal and result.winning_card is not None:
        best = name_of(result.winning_card, pack)
        lines.append(_line("info", _("{card} wins the trick so far.").format(card=best),
                           "trick_winner"))
    elif earlier:
        before = check_trick(rules, trump, plays[:-1])
        if before.winning_card is not None:
            lines.append(_line("info", _("Before it, {card} was the best card.").format(
                card=name_of(before.winning_card, pack)), "trick_winner"))
    return lines


def _named(v: Violation, pack: str) -> Violation:
    params = {k: name_of(str(p), pack) if k in ("card", "top") else p
              for k, p in v.params.items()}
    return Violation.of(v.code, v.player, **params)


# --- "May she still bid? Who plays?" ----------------------------------------------------------

CALLS = (PASS, "1", "2", "3", "4", MULI, HOLD)


def auction_answer(table: Table, data: Any) -> dict[str, Any]:
    """The calls in order, player by player: the declarer so far, whose call it is, and
    every illegal call with its reason."""
    rules: MulatschakRules = table.rules
    players = table.players
    errors: list[FormError] = []
    dealer = table.dealer if table.dealer in players else players[-1]
    if one(data, "dealer"):
        try:
            dealer = players[seat_index(one(data, "dealer"), players, "dealer", _("Dealer"))]
        except FormError as e:
            errors.append(e)
    scores = dict(table.scores)
    for i, player in enumerate(players):
        raw = one(data, f"score_{i}").strip()
        if not raw:
            continue
        if raw.isascii() and raw.lstrip("-").isdigit() and len(raw) < 6:
            scores[player] = int(raw)
        else:
            errors.append(FormError(f"score_{i}", _("Score of {player}: must be a whole "
                                                    "number.").format(player=player)))
    calls: list[tuple[str, object]] = []
    try:
        raw_calls = many(data, "calls")
    except FormError as e:
        errors.append(e)
        raw_calls = []
    for raw in raw_calls:
        seat, _sep, call = raw.partition(":")
        if not (seat.isascii() and seat.isdigit() and int(seat) < len(players)
                and call in CALLS + ("5",)):
            errors.append(FormError("calls", _("Calls: {call} is not a call.").format(
                call=raw[:30])))
            calls = []
            break
        calls.append((players[int(seat)], int(call) if call.isdigit() else call))
    dropped(data, {"calls": calls})
    if one(data, "clear"):
        calls = []
    result = run_auction(rules, players, dealer, calls, scores)
    if one(data, "call"):
        call = one(data, "call")
        caller = result.next_caller or players[0]
        try:
            if one(data, "caller"):
                caller = players[seat_index(one(data, "caller"), players, "caller",
                                            _("Who calls"))]
            if call not in CALLS:
                raise FormError("call", _("Calls: {call} is not a call.").format(
                    call=call[:30]))
        except FormError as e:
            errors.append(e)
        else:
            calls.append((caller, int(call) if call.isdigit() else call))
            result = run_auction(rules, players, dealer, calls, scores)
    muli = MULI_NAMES.get(table.preset or rules.name, "Muli")
    lines = _auction_lines(rules, players, dealer, calls, scores, result, muli)
    caller = result.next_caller or (players[0] if players else "")
    chosen = one(data, "caller")
    if not one(data, "call") and chosen.isascii() and chosen.isdigit() \
            and int(chosen) < len(players):  # a caller tapped, no call yet: it stays
        caller = players[int(chosen)]
    return {
        "players": [{"index": i, "name": p, "score": scores.get(p),
                     "out": p == result.sitting_out} for i, p in enumerate(players)],
        "dealer": dealer, "caller": caller, "over": result.finished,
        "calls": [{"player": p, "call": _call_label(c, muli), "drop": f"calls:{i}",
                   "value": f"{players.index(p)}:{c}"} for i, (p, c) in enumerate(calls)],
        "seat_counts": range(rules.players_min, rules.players_max + 1),
        "seat_count": len(players),
        "buttons": [(c, _call_label(c, muli)) for c in CALLS
                    if c != HOLD or rules.dealer_may_hold],
        "lines": lines, "errors": errors,
        "low_score": rules.no_bid_at_or_below,
    }


def _call_label(call: object, muli: str) -> str:
    if call == PASS or call == 0:
        return _("pass")
    if call == HOLD:
        return _("hold")
    if call in (MULI, 5, "5"):
        return muli
    return str(call)


def _auction_lines(rules: MulatschakRules, players: list[str], dealer: str,
                   calls: list[tuple[str, object]], scores: dict[str, int], result: Any,
                   muli: str) -> list[Line]:
    lines: list[Line] = []
    if result.sitting_out:
        last = players[(players.index(dealer) - 1) % len(players)]
        lines.append(_line("info", _("{player} deals and sits out; {last} calls last.").format(
            player=result.sitting_out, last=last), "sitting_out"))
    for v in result.violations:
        if v.code == "auction_incomplete":
            continue
        index = v.params.get("call_index", 0)
        code = v.code
        if code == "not_your_turn":
            before = run_auction(rules, players, dealer, calls[:index], scores)
            code = "duel" if before.duel else code
        text = _("Call {n}: {message}").format(n=index + 1, message=violation_message(v, WORDING))
        lines.append(_line("no", text, code))
    for index, (player, call) in enumerate(calls):
        if call != MULI:
            continue
        before = run_auction(rules, players, dealer, calls[:index], scores)
        if not before.finished and before.next_caller not in (player, None) and not any(
                v.params.get("call_index") == index for v in result.violations):
            lines.append(_line("yes", _("{player}'s {muli} out of turn counts.").format(
                player=player, muli=muli), "muli"))
    if result.finished:
        if result.declarer is None:
            lines.append(_line("info", _("Everybody passed: nobody declares."),
                               "auction_over"))
        elif result.bid == 5:
            lines.append(Line("yes", _("{player} declares a {muli}.").format(
                player=result.declarer, muli=muli)))
        else:
            lines.append(Line("yes", ngettext(
                "{player} declares {bid} trick.", "{player} declares {bid} tricks.",
                result.bid).format(player=result.declarer, bid=result.bid)))
        return lines
    if result.duel:
        held, last = result.duel
        lines.append(_line("info", _("Duel: {held} and {dealer} call until one passes.").format(
            held=held, dealer=last), "duel"))
    if result.leader is not None:
        lines.append(Line("info", ngettext(
            "So far {player} leads with {bid} trick.", "So far {player} leads with {bid} tricks.",
            result.highest or 0).format(player=result.leader, bid=result.highest)))
    if result.next_caller:
        lines.append(Line("info", _("{player} calls next.").format(player=result.next_caller)))
    return lines


TOOLS = (
    Tool("trick", GAME, lambda: _("Was that a legal play?"),
         lambda: _("Tap the cards of the trick in order: the last one is the play in "
                   "question. Her other cards are optional."),
         "scorepad/referee_trick.html", trick_answer),
    Tool("auction", GAME, lambda: _("May she still bid? Who plays?"),
         lambda: _("Tap the calls in order, player by player."),
         "scorepad/referee_auction.html", auction_answer),
)

TITLE = gettext_lazy("Mulatschak")
