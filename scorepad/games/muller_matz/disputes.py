"""Müller Matz at the Referee page: does it beat, may I go to sleep, may I swap the trump,
is this second-life play legal. The referee's check_beat, check_hand and check_pile decide,
as /api/v1/referee/muller-matz/beat, /hand and /pile do."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.cards import FRENCH_SUITS, Card
from referee.muller_matz import (
    MULLER_MATZ_RULES,
    MullerMatzRules,
    check_beat,
    check_hand,
    check_pile,
    lowest_trump_card,
    muller_matz_rules,
    packs_for,
)
from referee.violations import RuleError, Violation

from ...cardnames import SYMBOLS, suit_name
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
    parse_card,
    picker,
    seat_index,
    slots,
)
from .words import RULE_HELP, RULE_SENTENCES, SWAP_REFUSALS, WORDING, beat_reason

GAME = "muller_matz"

HAND_RULES = ("lowest_trump", "sleep_trumps", "hand_size")
#: Seats the stand-alone pile offers (two packs from five on).
PILE_SEATS = range(2, 9)


def session_table(loaded: Any, board: dict[str, Any]) -> Table:
    try:
        rules = muller_matz_rules(loaded.session.rules or {})
    except RuleError:
        rules = MULLER_MATZ_RULES
    players = [loaded.names.to_name(p) for p in loaded.seats]
    return Table(GAME, rules, rules.pack, players, session=loaded.session)


def standalone_table(data: Any, tool: str) -> tuple[Table, list[FormError]]:
    errors: list[FormError] = []
    overrides: dict[str, object] = {}
    if tool == "hand" and one(data, "rules_for") == GAME:
        for name in HAND_RULES:
            raw = one(data, f"r_{name}").strip()
            if not raw:
                continue
            if name == "lowest_trump":
                overrides[name] = raw
            elif raw.isascii() and raw.isdigit() and len(raw) < 4:
                overrides[name] = int(raw)
            else:
                errors.append(FormError(f"r_{name}", _("{field}: must be a whole "
                                                       "number.").format(field=name)))
    try:
        rules = muller_matz_rules(overrides)
    except RuleError as e:
        name = e.field.removeprefix("overrides.")
        errors.append(FormError(f"r_{name}", f"{name}: {input_error_message(e)}"))
        rules = MULLER_MATZ_RULES
    count = 4
    raw = one(data, "seats")
    if tool == "pile" and raw:
        if raw.isascii() and raw.isdigit() and int(raw) in PILE_SEATS:
            count = int(raw)
        else:
            errors.append(FormError("seats", _("Players: choose from {min} to {max}.").format(
                min=PILE_SEATS[0], max=PILE_SEATS[-1])))
    fields = [{"name": name, "value": getattr(rules, name), "help": RULE_HELP[name],
               "kind": "choice" if name == "lowest_trump" else "int",
               "choices": ("2", "6")} for name in HAND_RULES] if tool == "hand" else []
    players = [_("Player {n}").format(n=n) for n in range(1, count + 1)]
    return Table(GAME, rules, rules.pack, players, rule_fields=fields, preset=GAME), errors


_line = partial(line, RULE_SENTENCES)


def trump_choices() -> list[tuple[str, str]]:
    return [(suit, f"{SYMBOLS[suit]} {suit_name(suit, 'french52')}") for suit in FRENCH_SUITS]


def _trump(data: Any, table: Table) -> str | None:
    trump = one(data, "trump") or table.trump or ""
    return trump if trump in FRENCH_SUITS else None


def _two_packs(table: Table) -> bool:
    """Whether the same card may show twice: two packs, or a stand-alone page (which does
    not know the table's size)."""
    if table.session is None:
        return True
    try:
        return packs_for(len(table.players), table.rules) == 2
    except RuleError:
        return False


def _single(data: Any, name: str, label: str, table: Table, errors: list[FormError]
            ) -> Card | None:
    code = one(data, name)
    if not code:
        return None
    try:
        return parse_card(pack_of(table), code, name, label)
    except FormError as e:
        errors.append(e)
        return None


def _tapped(data: Any, table: Table, errors: list[FormError]) -> Card | None:
    return _single(data, "pick", _("The card tapped"), table, errors)


# --- does it beat? ------------------------------------------------------------------------


def beat_answer(table: Table, data: Any) -> dict[str, Any]:
    errors: list[FormError] = []
    trump = _trump(data, table)
    life = one(data, "life") if one(data, "life") in ("1", "2") else "1"
    label_attack, label_defense = _("Card played to you"), _("Card played on it")
    attack = _single(data, "attack", label_attack, table, errors)
    defense = _single(data, "defense", label_defense, table, errors)
    target = one(data, "target") if one(data, "target") in ("attack", "defense") else (
        "defense" if attack else "attack")
    if one(data, "drop") == "attack:0":
        attack = None
    elif one(data, "drop") == "defense:0":
        defense = None
    if one(data, "clear"):
        attack = defense = None
    card = _tapped(data, table, errors)
    twice = _two_packs(table)
    if card is not None:
        if target == "attack" and (twice or card != defense):
            attack, target = card, "defense"
        elif target == "defense" and (twice or card != attack):
            defense = card
    lines: list[Line] = []
    if trump is None:
        lines.append(Line("info", _("Which suit is trump?")))
    elif attack and defense:
        try:
            result = check_beat(attack.code, defense.code, trump, int(life), table.rules)
        except RuleError as e:
            errors.append(FormError(e.field, input_error_message(e)))
        else:
            lines.append(_line("yes" if result.legal else "no", beat_reason(result.reason),
                               "beat"))
    shown = [c for c in (attack, defense) if c is not None]
    return {
        "trump": trump, "trumps": trump_choices(), "life": life, "target": target,
        "targets": [("attack", label_attack), ("defense", label_defense)],
        "slots": slots([("attack", label_attack, [attack] if attack else []),
                        ("defense", label_defense, [defense] if defense else [])],
                       table.pack, target),
        "picker": picker(table.pack, played=() if twice else shown),
        "lines": lines, "errors": errors,
    }


# --- may I go to sleep? may I swap? ------------------------------------------------------------


def hand_answer(table: Table, data: Any) -> dict[str, Any]:
    rules: MullerMatzRules = table.rules
    pack = pack_of(table)
    errors: list[FormError] = []
    trump = _trump(data, table)
    label_hand, label_up = _("Her hand"), _("The turned-up card")
    hand = gather_cards(pack, data, "hand", label_hand, errors)
    turned_up = _single(data, "turned_up", label_up, table, errors)
    if turned_up in hand:
        turned_up = None
    target = one(data, "target") if one(data, "target") in ("hand", "turned_up") else "hand"
    stock = 10
    raw = one(data, "stock").strip()
    if raw:
        if raw.isascii() and raw.isdigit() and len(raw) < 4:
            stock = int(raw)
        else:
            errors.append(FormError("stock", _("Cards in the stock: must be a whole number, 0 "
                                               "or more.")))
    step = one(data, "stock_step")
    if step in ("-1", "+1"):
        stock = max(0, min(999, stock + int(step)))
    ups = [turned_up] if turned_up else []
    dropped(data, {"hand": hand, "turned_up": ups})
    turned_up = ups[0] if ups else None
    if one(data, "clear"):
        hand, turned_up = [], None
    card = _tapped(data, table, errors)
    if card is not None:
        if target == "hand":
            if card in hand:
                hand.remove(card)
            elif card != turned_up and len(hand) < len(pack):
                hand.append(card)
        elif card not in hand:
            turned_up = card
            target = "hand"
    lines: list[Line] = []
    if trump is None:
        lines.append(Line("info", _("Which suit is trump?")))
    else:
        try:
            state = check_hand([c.code for c in hand], trump, stock,
                               turned_up.code if turned_up else None, rules)
        except RuleError as e:
            errors.append(FormError(e.field, input_error_message(e)))
        else:
            lines = _hand_lines(state, trump, table, stock)
    return {
        "trump": trump, "trumps": trump_choices(), "target": target, "stock": stock,
        "targets": [("hand", label_hand), ("turned_up", label_up)],
        "slots": slots([("hand", label_hand, hand),
                        ("turned_up", label_up, [turned_up] if turned_up else [])],
                       table.pack, target),
        "picker": picker(table.pack, played=[turned_up] if turned_up else [],
                         chosen=hand),
        "lines": lines, "errors": errors,
    }


def _hand_lines(state: Any, trump: str, table: Table, stock: int) -> list[Line]:
    lines: list[Line] = []
    if state.may_sleep:
        lines.append(_line("yes", ngettext(
            "May go to sleep with {n} trump.", "May go to sleep with {n} trumps.",
            state.sleep_cards).format(n=state.sleep_cards), "sleep"))
    else:
        lines.append(_line("no", ngettext(
            "May not go to sleep: it takes {n} trump.", "May not go to sleep: it takes {n} "
            "trumps.", state.sleep_needed).format(n=state.sleep_needed), "sleep"))
    lowest = name_of(lowest_trump_card(trump, table.rules), table.pack)
    if state.may_swap:
        lines.append(_line("yes", _("May swap {card} for the turned-up card, on her "
                                    "turn.").format(card=lowest), "swap"))
    else:
        text = str(SWAP_REFUSALS.get(state.swap_refused or "", "")).format(card=lowest)
        lines.append(_line("no", text, "swap"))
    if state.draw:
        lines.append(_line("info", ngettext("Draws {n} card from the stock.",
                                            "Draws {n} cards from the stock.",
                                            state.draw).format(n=state.draw), "draw"))
    else:
        lines.append(_line("info", _("Draws nothing now.") if stock else
                           _("Draws nothing: the stock is used up."), "draw"))
    return lines


# --- is this second-life play legal? -----------------------------------------------------------


def pile_answer(table: Table, data: Any) -> dict[str, Any]:
    pack = pack_of(table)
    players = table.players
    errors: list[FormError] = []
    trump = _trump(data, table)
    acts: list[tuple[int, Card | None]] = []
    try:
        raw_acts = many(data, "acts")
    except FormError as e:
        errors.append(e)
        raw_acts = []
    for raw in raw_acts:
        seat, _sep, what = raw.partition(":")
        try:
            index = seat_index(seat, players, "acts", _("Plays"))
            acts.append((index, None if what == "up" else
                         parse_card(pack, what, "acts", _("Plays"))))
        except FormError as e:
            errors.append(e)
            acts = []
            break
    dropped(data, {"acts": acts})
    if one(data, "clear"):
        acts = []
    card = _tapped(data, table, errors)
    if card is not None or one(data, "pick_up"):
        actor = one(data, "actor")
        if actor:
            try:
                acts.append((seat_index(actor, players, "actor", _("Who plays")), card))
            except FormError as e:
                errors.append(e)
        else:
            acts.append((_next_index(trump, players, acts, table), card))
    lines: list[Line] = []
    result = None
    if trump is None:
        lines.append(Line("info", _("Which suit is trump?")))
    elif acts:
        plays = [{"player": players[i], "card": c.code} if c else
                 {"player": players[i], "pick_up": True} for i, c in acts]
        try:
            result = check_pile(trump, players, plays, None, table.rules)
        except RuleError as e:
            errors.append(FormError(e.field, input_error_message(e)))
        else:
            lines = _pile_lines(result, table)
    next_index = (players.index(result.next) if result is not None and result.next
                  else _next_index(trump, players, acts, table))
    chosen = one(data, "actor")
    if card is None and not one(data, "pick_up") and chosen.isascii() and chosen.isdigit() \
            and int(chosen) < len(players):  # a player tapped, no play yet: it stays
        next_index = int(chosen)
    on_pile = list(result.cards) if result is not None else []
    return {
        "trump": trump, "trumps": trump_choices(),
        "players": list(enumerate(players)), "actor": next_index,
        "acts": [{"player": players[i], "card": name_of(c, table.pack) if c else "",
                  "drop": f"acts:{n}", "value": f"{i}:{c.code if c else 'up'}"}
                 for n, (i, c) in enumerate(acts)],
        "seat_counts": PILE_SEATS, "seat_count": len(players),
        "picker": picker(table.pack, played=() if _two_packs(table) else on_pile),
        "lines": lines, "errors": errors,
    }


def _next_index(trump: str | None, players: list[str], acts: list[tuple[int, Card | None]],
                table: Table) -> int:
    """Who acts next by the referee (the first player for a new pile)."""
    if trump is None or not acts:
        return 0
    plays = [{"player": players[i], "card": c.code} if c else
             {"player": players[i], "pick_up": True} for i, c in acts]
    try:
        result = check_pile(trump, players, plays, None, table.rules)
    except RuleError:
        return 0
    return players.index(result.next) if result.next in players else 0


def _pile_lines(result: Any, table: Table) -> list[Line]:
    lines: list[Line] = []
    for v in result.violations:
        params = {k: name_of(str(p), table.pack) if k in ("card", "top") else p
                  for k, p in v.params.items()}
        message = violation_message(Violation.of(v.code, v.player, **params), WORDING)
        code = "pile_turn" if v.code == "not_your_turn" else v.code
        text = _("Play {n}: {message}").format(n=int(v.params.get("play", 0)) + 1,
                                               message=message)
        lines.append(_line("no", text, code))
    if result.legal:
        lines.append(Line("yes", _("Every play so far is legal.")))
    if result.pile:
        cards = ", ".join(name_of(c, table.pack) for c in result.cards)
        lines.append(_line("info", _("On the pile, the top card last: {cards}.").format(
            cards=cards), "does_not_serve"))
    if result.complete:
        player, card = result.pile[-1]
        lines.append(_line("yes", _("The pile is complete: {player} wins it with {card}.").format(
            player=player, card=name_of(card, table.pack)), "play_after_complete"))
    if result.next:
        lines.append(Line("info", _("{player} is next.").format(player=result.next)))
    return lines


TOOLS = (
    Tool("beat", GAME, lambda: _("Does this beat?"),
         lambda: _("Tap the card played to you, then the card played on it."),
         "scorepad/referee_beat.html", beat_answer),
    Tool("hand", GAME, lambda: _("May she sleep? May she swap the trump?"),
         lambda: _("Tap the cards in her hand and the turned-up card; count the stock."),
         "scorepad/referee_hand.html", hand_answer),
    Tool("pile", GAME, lambda: _("Is this second-life play legal?"),
         lambda: _("Tap who plays, then the card, or Picks up; in order."),
         "scorepad/referee_pile.html", pile_answer),
)
