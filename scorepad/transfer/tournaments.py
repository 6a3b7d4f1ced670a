"""A group's tournaments in the file: written out beside its sessions, and made again on
import."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from .. import rosters, services, sharing
from ..fields import MAX_NAME
from ..messages import input_error_message
from ..models import Entrant, Tournament, TournamentRound, TournamentTable
from .fileformat import (
    CONFLICT,
    MAX_ROSTER,
    _Context,
    _int,
    _join,
    _must_dict,
    _must_list,
    _Problems,
    _text,
    _time,
    _uid,
    _when,
)


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    """A tournament as the file holds it: its choices and formats, players and rounds;
    each table names its session by uid (the session itself is among the group's
    sessions)."""
    from ..tournaments import formats

    return {
        "uid": str(tournament.uid), "name": tournament.name, "game": tournament.game,
        "preset": tournament.preset, "rules": tournament.rules, "rounds": tournament.rounds,
        "round_ends": tournament.round_ends, "deals_per_round": tournament.deals_per_round,
        "table_size": tournament.table_size, "scoring": tournament.scoring,
        "draw": tournament.draw,
        "stake": None if tournament.stake is None else str(tournament.stake.normalize()),
        "currency": tournament.currency or None, "status": tournament.status,
        "screen_hides_rounds": tournament.screen_hides_rounds,
        "created_at": _when(tournament.created_at),
        "finished_at": _when(tournament.finished_at),
        "date": tournament.date.isoformat(),
        "rank_points": formats.rank_points_out(tournament.rank_points or []),
        "tiebreaks": tournament.tiebreaks, "final_tables": tournament.final_tables,
        "confirm_results": tournament.confirm_results,
        "entry_fee": (None if tournament.entry_fee is None
                      else f"{tournament.entry_fee.normalize():f}"),
        "prizes": tournament.prizes,
        "players": [{"name": name, "number": number, "withdrawn": withdrawn, "paid": paid,
                     "lot": lot}
                    for name, number, withdrawn, paid, lot in tournament.entrants
                    .order_by("number").values_list("player__name", "number", "withdrawn",
                                                    "paid", "lot")],
        "round_list": [
            {"number": r.number, "status": r.status, "forced": r.forced, "final": r.final,
             "closed_at": _when(r.closed_at),
             "tables": [{"table": t.number, "session": str(t.session.uid)}
                        | _slip_json(t) | _confirmed_json(t)
                        for t in r.tables.select_related("session").order_by("number")]}
            for r in tournament.round_set.order_by("number")],
    }


def _confirmed_json(table: TournamentTable) -> dict[str, Any]:
    """Who confirmed the table's result, and when (nothing while nobody has)."""
    if table.confirmed_at is None:
        return {}
    return {"confirmed_by": table.confirmed_by, "confirmed_at": _when(table.confirmed_at)}


def _slip_json(table: TournamentTable) -> dict[str, Any]:
    """A table's result entered from its score slip: its figures by player name, who and
    when (the round scores are made of them again on import)."""
    slip = (table.result or {}).get("slip")
    if not slip:
        return {}
    names = {str(p): n for p, n in table.session.seats.values_list("player_id",
                                                                   "player__name")}
    figures = {column: {names.get(p, p): v for p, v in by_player.items()}
               for column, by_player in (slip.get("figures") or {}).items()}
    return {"slip": {"figures": figures, "by": slip.get("by_name") or "",
                     "at": slip.get("at") or ""}}


def _confirmed_of(row: Any, path: str, problems: _Problems) -> dict[str, Any]:
    """A table's confirmation as the file has it: a seated player's name and when."""
    by = row.get("confirmed_by") if isinstance(row, dict) else None
    if by is None:
        return {}
    name = _text(by, _join(path, "confirmed_by"), problems, most=MAX_NAME)
    at = _time(row.get("confirmed_at"), _join(path, "confirmed_at"), problems)
    if name is None or at is None:
        return {}
    return {"confirmed_by": name, "confirmed_at": at}


def _import_tournament(obj: Any, path: str, ctx: _Context, problems: _Problems) -> None:
    """A tournament of a group file: made again through its use case (its choices checked
    as when it was made), its players and rounds as the file has them, each table on the
    session of its uid that this import made; each closed round's results made again
    from its tables' deals (docs/tournaments.md). New table codes and a new screen link."""
    from ..tournaments import services as tour
    from ..tournaments import tables as table_rules

    body = _must_dict(obj, path, problems)
    if body is None:
        return
    before = len(problems.items)
    uid = _uid(body.get("uid"), _join(path, "uid"), problems)
    rules = _must_dict(body.get("rules"), _join(path, "rules"), problems)
    players = _must_list(body.get("players"), _join(path, "players"), problems, MAX_ROSTER)
    rounds = _must_list(body.get("round_list"), _join(path, "round_list"), problems, 100)
    status = body.get("status")
    if status not in Tournament.Status.values:
        problems.add(_join(path, "status"), "not_choice",
                     _("must be one of: %(choices)s")
                     % {"choices": ", ".join(Tournament.Status.values)})
    hides = _int(body.get("screen_hides_rounds", 0), _join(path, "screen_hides_rounds"),
                 problems, least=0)
    if len(problems.items) > before:
        return
    assert players is not None and rounds is not None
    if ctx.group.tournaments.filter(uid=uid).exists():
        problems.add(_join(path, "uid"), "already_imported",
                     _("This tournament was imported into this group already."), CONFLICT)
        return
    # the formats, as far as the file has them (an older file: the defaults)
    choices = {f: body[f] for f in tour.FORMAT_FIELDS
               if f in body and f not in ("scoring", "currency")}
    if choices.get("rank_points") == []:  # none: not a combined tournament
        del choices["rank_points"]
    try:
        made = tour.tournament_create(
            group=ctx.group, user=None, name=body.get("name"), game=body.get("game"),
            preset=body.get("preset") if isinstance(body.get("preset"), str) else None,
            overrides=rules, rounds=body.get("rounds"), round_ends=body.get("round_ends"),
            deals_per_round=body.get("deals_per_round"), table_size=body.get("table_size"),
            scoring=body.get("scoring"), draw=body.get("draw"), stake=body.get("stake"),
            currency=body.get("currency"), **choices)
    except services.InputError as e:
        problems.input_error(path, e)
        return
    by_key = {rosters.name_key(p.name): p for p in ctx.group.players.all()}
    numbers: set[int] = set()
    for i, item in enumerate(players):
        where = _join(path, "players", i)
        entry = _must_dict(item, where, problems)
        if entry is None:
            continue
        name = _text(entry.get("name"), _join(where, "name"), problems, most=MAX_NAME)
        number = _int(entry.get("number"), _join(where, "number"), problems)
        if name is None or number is None:
            continue
        if number in numbers:
            problems.add(_join(where, "number"), "duplicate", _("is there twice"))
            continue
        numbers.add(number)
        player = by_key.get(rosters.name_key(name))
        if player is None:
            player = rosters.player_add(group=ctx.group, name=name)
            by_key[rosters.name_key(player.name)] = player
        lot = entry.get("lot")
        if lot is not None:
            lot = _int(lot, _join(where, "lot"), problems, least=1)
        Entrant.objects.create(tournament=made, player=player, number=number,
                               withdrawn=entry.get("withdrawn") is True,
                               paid=entry.get("paid") is True, lot=lot)
    sessions = {str(s.uid): s for s in ctx.made}
    limit = made.deals_per_round or 0
    for i, item in enumerate(rounds):
        where = _join(path, "round_list", i)
        entry = _must_dict(item, where, problems)
        number = None if entry is None else _int(entry.get("number"), _join(where, "number"),
                                                  problems)
        tables = None if entry is None else _must_list(entry.get("tables"),
                                                        _join(where, "tables"), problems, 1000)
        if entry is None or number is None or tables is None:
            continue
        closed = entry.get("status") == TournamentRound.Status.CLOSED
        the_round = TournamentRound.objects.create(
            tournament=made, number=number, forced=entry.get("forced") is True,
            final=entry.get("final") is True,
            status=TournamentRound.Status.CLOSED if closed else TournamentRound.Status.OPEN,
            closed_at=timezone.now() if closed else None)
        for j, table in enumerate(tables):
            spot = _join(where, "tables", j)
            row = _must_dict(table, spot, problems)
            session = None if row is None else sessions.get(str(row.get("session")))
            table_number = None if row is None else _int(row.get("table"),
                                                         _join(spot, "table"), problems)
            if session is None or table_number is None:
                problems.add(_join(spot, "session"), "not_found",
                             _("names no session of this file"))
                continue
            made_table = TournamentTable.objects.create(
                round=the_round, number=table_number, session=session,
                code=sharing.new_token(), **_confirmed_of(row, spot, problems))
            slip = row.get("slip") if row is not None else None
            made_table.session = session
            if isinstance(slip, dict):
                names = {n: str(p) for p, n in session.seats.values_list("player_id",
                                                                         "player__name")}
                figures = slip.get("figures") if isinstance(slip.get("figures"), dict) else {}
                try:
                    result = table_rules.slip_result(
                        session, {c: {names.get(n, n): v for n, v in by.items()}
                                  for c, by in figures.items() if isinstance(by, dict)},
                        None, str(slip.get("by") or "")[:150], str(slip.get("at") or "")[:40])
                except services.InputError as e:
                    problems.add(_join(spot, "slip", e.field.partition(".")[0]),
                                 "not_between", input_error_message(e))
                    continue
                TournamentTable.objects.filter(pk=made_table.pk).update(result=result)
            elif closed:
                TournamentTable.objects.filter(pk=made_table.pk).update(
                    result=table_rules.result_now(made_table, limit))
    Tournament.objects.filter(pk=made.pk).update(
        uid=uid, status=status, screen_hides_rounds=min(hides or 0, made.rounds))


