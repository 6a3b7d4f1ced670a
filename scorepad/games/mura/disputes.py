"""Mura at the Referee page: does this card beat, is this a revoke, who wins the trick,
who leads first. The referee's Mura trick winner, revoke evidence and first leader decide,
as card-by-card deals at /api/v1/referee/mura/deal do."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils.translation import gettext as _

from referee.cards import Card
from referee.mura import MURA_RULES, MuraRules, first_leader, mura_rules, revoke_evidence
from referee.mura import trick_winner as mura_winner
from referee.violations import RuleError

from ...cardnames import suit_name
from ..disputes import (
    FormError,
    Line,
    Table,
    Tool,
    dropped,
    gather_cards,
    line,
    name_of,
    one,
    pack_of,
    picked_card,
    picker,
    seat_index,
    slots,
)
from .words import RULE_SENTENCES

GAME = "mura"


def session_table(loaded: Any, board: dict[str, Any]) -> Table:
    try:
        rules = mura_rules(loaded.session.rules or {})
    except RuleError:
        rules = MURA_RULES
    players = [loaded.names.to_name(p) for p in loaded.seats]
    return Table(GAME, rules, rules.pack, players, board.get("next_dealer"),
                 session=loaded.session)


def standalone_table(data: Any, tool: str) -> tuple[Table, list[FormError]]:
    players = [_("Player {n}").format(n=n) for n in range(1, MURA_RULES.players + 1)]
    return Table(GAME, MURA_RULES, MURA_RULES.pack, players), []


_line = partial(line, RULE_SENTENCES)


def _seat(data: Any, name: str, players: list[str], label: str,
          errors: list[FormError]) -> int | None:
    raw = one(data, name)
    if not raw:
        return None
    try:
        return seat_index(raw, players, name, label)
    except FormError as e:
        errors.append(e)
        return None


def trick_answer(table: Table, data: Any) -> dict[str, Any]:
    """The trick's cards in order (who led, if known), and the cards the player of its
    last card played later: the winner so far, whether the last card beats, a revoke, and
    (with the dealer) who leads the first trick."""
    rules: MuraRules = table.rules
    pack, players = pack_of(table), table.players
    errors: list[FormError] = []
    target = one(data, "target") if one(data, "target") in ("trick", "later") else "trick"
    label_trick, label_later = _("The trick, in order"), _("Played later by the last player")
    cards = gather_cards(pack, data, "trick", label_trick, errors)
    later = gather_cards(pack, data, "later", label_later, errors)
    later = [c for c in later if c not in cards]
    leader = _seat(data, "leader", players, _("Who led"), errors)
    dealer_index = _seat(data, "dealer", players, _("Dealer"), errors)
    if dealer_index is None and table.dealer in players:
        dealer_index = players.index(table.dealer)
    dropped(data, {"trick": cards, "later": later})
    if one(data, "clear"):
        cards, later = [], []
    card = picked_card(pack, data, errors)
    if card is not None:
        if card in cards or card in later:
            pass  # played already: the picker shows it greyed out
        elif target == "later":
            if len(later) < rules.tricks_per_deal - 1:
                later.append(card)
        elif len(cards) < rules.players:
            cards.append(card)
        else:
            errors.append(FormError("trick", _("A trick has {n} cards, one from each "
                                               "player.").format(n=rules.players)))
    lines: list[Line] = []
    if dealer_index is not None:
        first = first_leader(players, players[dealer_index])
        lines.append(_line("info", _("{player} sits to the dealer's right and leads the first "
                                     "trick.").format(player=first), "first_lead"))
    if cards:
        lines += _trick_lines(table, cards, later, leader)
    return {
        "target": target,
        "targets": [("trick", label_trick), ("later", label_later)],
        "slots": slots([("trick", label_trick, cards), ("later", label_later, later)],
                       table.pack, target),
        "picker": picker(table.pack, played=cards + later),
        "players": list(enumerate(players)), "leader": leader, "dealer": dealer_index,
        "lines": lines, "errors": errors,
    }


def _trick_lines(table: Table, cards: list[Card], later: list[Card], leader: int | None
                 ) -> list[Line]:
    players, pack = table.players, pack_of(table)
    if leader is not None:  # in order of play from the leader: the next in the list
        who = [players[(leader + i) % len(players)] for i in range(len(cards))]
    else:
        who = [str(i) for i in range(len(cards))]
    plays = list(zip(who, cards, strict=True))
    winner, best = mura_winner(plays, pack)
    lines: list[Line] = []
    named = name_of(best, table.pack)
    if leader is not None:
        text = _("{player} wins the trick so far with {card}.").format(player=winner,
                                                                      card=named)
    else:
        text = _("{card} wins the trick so far.").format(card=named)
    lines.append(_line("info", text, "mura_winner"))
    if len(cards) < 2:
        return lines
    last = cards[-1]
    led = cards[0].suit
    before, top = mura_winner(plays[:-1], pack)
    last_name = name_of(last, table.pack)
    if best == last:
        lines.insert(0, _line("yes", _("{card} beats the trick so far.").format(
            card=last_name), "mura_winner"))
    elif last.suit != led:
        lines.insert(0, _line("no", _("{card} does not beat: it is not of the suit led, and "
                                      "Mura has no trumps.").format(card=last_name),
                              "mura_winner"))
    else:
        lines.insert(0, _line("no", _("{card} does not beat {best}: it is lower.").format(
            card=last_name, best=name_of(top, table.pack)), "mura_winner"))
    if last.suit == led:
        return lines
    player = who[-1] if leader is not None else _("The last player")
    suit = suit_name(led, table.pack)
    found = revoke_evidence(led, last, later)
    if found is not None:
        lines.append(_line("no", _("Revoke: {player} did not follow {suit} but plays {card} "
                                   "later.").format(player=player, suit=suit,
                                                    card=name_of(later[found], table.pack)),
                           "mura_revoke"))
    elif later:
        lines.append(_line("yes", _("No revoke: {player} has not played {suit} since.").format(
            player=player, suit=suit), "mura_revoke"))
    else:
        lines.append(_line("info", _("{player} did not follow {suit}: tap the cards played "
                                     "later to see whether it was a revoke.").format(
            player=player, suit=suit), "mura_revoke"))
    return lines


TOOLS = (
    Tool("mura", GAME, lambda: _("Does it beat? A revoke?"),
         lambda: _("Tap the cards of the trick in order; for a revoke, also the cards that "
                   "player played later."),
         "scorepad/referee_mura.html", trick_answer),
)
