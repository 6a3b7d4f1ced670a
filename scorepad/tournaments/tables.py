"""A tournament's table as its session sees it (docs/tournaments.md, "When a table is
finished"): the deal write refuses a deal once the table is finished, and a change to a
table of a closed round renews that table's result and the tournament's version, so that
the ranking follows at once without replaying any other table.

Below the services: ``scorepad.services`` calls these inside its own transactions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db.models import F

from referee.violations import Violation

from .. import games
from ..cache import screens
from ..errors import InputError, RulesBroken
from ..models import Deal, Session, Tournament, TournamentRound, TournamentTable

#: The violation of a deal recorded at a finished table (422).
TABLE_FINISHED = "table_finished"


def play_of(session: Session) -> games.TournamentPlay:
    play = games.of(session).TOURNAMENT
    assert play is not None, "a tournament's game plays tournaments"
    return play


def finished_by_state(session: Session, state: Mapping[str, Any], limit: int) -> bool:
    """Is the table finished, by its running state? Its first game has ended, or ``limit``
    deals (0: no limit) are recorded."""
    play = play_of(session)
    return bool(play.state_ended(state)) or (limit > 0 and play.deals(state) >= limit)


def refuse_finished(session: Session, limit: int, number: int) -> None:
    """RulesBroken (``table_finished``) for a deal at a finished table."""
    if finished_by_state(session, session.state, limit):
        raise RulesBroken([Violation.of(TABLE_FINISHED)], number)


def encode(scores: Mapping[str, Fraction]) -> dict[str, str]:
    return {p: str(v) for p, v in scores.items()}


def decode(scores: Mapping[str, str]) -> dict[str, Fraction]:
    return {p: Fraction(v) for p, v in scores.items()}


def result_of(session: Session, seats: Sequence[str], results: Sequence[Mapping[str, Any]],
              limit: int) -> dict[str, Any]:
    """The table's result from its deals' stored results, in order: the scores when it
    finished (its first game ended, or the ``limit``-th deal), else as it stands;
    ``{"finished", "deals", "scores"}`` (scores by player id, exact, as text)."""
    play = play_of(session)
    for count, result in enumerate(results, 1):
        if play.game_ended(result) or (limit > 0 and count >= limit):
            return {"finished": True, "deals": count,
                    "scores": encode(play.score_after(session, seats, result))}
    last = results[-1] if results else None
    return {"finished": False, "deals": len(results),
            "scores": encode(play.score_after(session, seats, last))}


def seats_of(session: Session) -> list[str]:
    return [str(p) for p in session.seats.order_by("position").values_list("player_id",
                                                                          flat=True)]


def result_now(table: TournamentTable, limit: int) -> dict[str, Any]:
    """Read the table's deals (one query, their results only) and make its result."""
    session = table.session
    results = list(Deal.objects.filter(session=session).order_by("number")
                   .values_list("result", flat=True))
    return result_of(session, seats_of(session), results, limit)


def from_slip(table: TournamentTable) -> bool:
    """Was the table's result entered from its paper score slip? It then stands as
    entered: the table's deals (if any) no longer make it."""
    return bool((table.result or {}).get("slip"))


def slip_result(session: Session, figures: Mapping[str, Any], by: int | None, by_name: str,
                at: str) -> dict[str, Any]:
    """The table's result from its score slip's figures (``{column: {player id: whole
    number}}``, every column of the game's slip for every seat): the round scores as of
    a last deal, with who entered them and when. InputError naming
    ``<column>.<player id>`` for a figure missing or out of range."""
    play = play_of(session)
    seats = seats_of(session)
    given: dict[str, dict[str, int]] = {}
    for column in play.slip:
        by_player = figures.get(column.key) or {}
        for player in seats:
            value = whole(by_player.get(player))
            if value is None:
                raise InputError(f"{column.key}.{player}", "must be a whole number",
                                 "not_int")
            if not column.least <= value <= column.most:
                raise InputError(f"{column.key}.{player}",
                                 f"must be a whole number from {column.least} to "
                                 f"{column.most}", "not_between",
                                 min=column.least, max=column.most)
            given.setdefault(column.key, {})[player] = value
    return {"finished": True, "deals": 0,
            "scores": encode(play.score_after(session, seats, given)),
            "slip": {"figures": given, "by": by, "by_name": by_name, "at": at}}


def whole(value: object) -> int | None:
    """A whole number typed on a form ("-5", "−5") or sent as JSON (12)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip().replace("\u2212", "-")
        digits = text.removeprefix("-")
        if not digits or len(digits) > 17 or not digits.isascii() or not digits.isdigit():
            return None
        value = int(text)
    return value if isinstance(value, int) else None


def result_store(table: TournamentTable, result: Mapping[str, Any]) -> None:
    """Keep the table's result and raise the tournament's version (the ranking's ETag and
    the screen's follow)."""
    if result != table.result:
        TournamentTable.objects.filter(pk=table.pk).update(result=dict(result))
        table.result = dict(result)
    Tournament.objects.filter(pk=table.round.tournament_id).update(version=F("version") + 1)
    _publish(table.round.tournament_id)


def _publish(tournament_id: int) -> None:
    """After the commit: the screens' polls learn the tournament's new version."""
    screens.publish(lambda: Tournament.objects.filter(pk=tournament_id)
                    .values_list("screen_token", "version"))


def after_change(session: Session) -> None:
    """A table's deal was corrected or deleted: a confirmation of its result is void
    (docs/tournaments.md, "Confirming a table's result"); if its round is closed, its
    result is made again; either raises the tournament's version (the ranking's ETag
    moves). A result entered from the score slip stands."""
    table = (TournamentTable.objects.select_related("round__tournament", "session")
             .filter(session_id=session.pk).first())
    if table is None:
        return
    if table.confirmed_at is not None:
        TournamentTable.objects.filter(pk=table.pk).update(confirmed_by="", confirmed_at=None)
        table.confirmed_by, table.confirmed_at = "", None
        if table.round.status != TournamentRound.Status.CLOSED or from_slip(table):
            Tournament.objects.filter(pk=table.round.tournament_id).update(
                version=F("version") + 1)
            _publish(table.round.tournament_id)
    if table.round.status != TournamentRound.Status.CLOSED or from_slip(table):
        return
    tournament = table.round.tournament
    result_store(table, result_now(table, tournament.deals_per_round or 0))


def is_finished(table: TournamentTable, limit: int) -> bool:
    """Is the table finished: its slip entered, its kept result (a closed round) or its
    running state says so."""
    if from_slip(table):
        return True
    if table.round.status == TournamentRound.Status.CLOSED:
        return bool((table.result or {}).get("finished"))
    return finished_by_state(table.session, table.session.state, limit)


def is_confirmed(table: TournamentTable) -> bool:
    """Has a seated player confirmed the table's result (or is it the director's entry
    of the signed score slip)?"""
    return table.confirmed_at is not None or from_slip(table)


def confirmation(table: TournamentTable) -> tuple[str | None, datetime | None]:
    """(who confirmed, when): a seated player's name, or for a score slip the director
    who entered it; (None, None) while unconfirmed."""
    if table.confirmed_at is not None:
        return table.confirmed_by, table.confirmed_at
    slip = (table.result or {}).get("slip") if from_slip(table) else None
    if slip:
        at = slip.get("at")
        return str(slip.get("by_name") or ""), datetime.fromisoformat(at) if at else None
    return None, None


def in_closed_round(session: Session) -> bool:
    """Is the session a table of a closed round (it may not be reopened)?"""
    return TournamentTable.objects.filter(
        session_id=session.pk, round__status=TournamentRound.Status.CLOSED).exists()


def page_context(session: Session) -> dict[str, Any] | None:
    """What a tournament table's session page shows besides its deals (docs/tournaments.md,
    "The table's phone"): whether the table has finished (then no deal form: the table
    says so), whether its players confirm the result, and who did; None for a session
    that is no tournament's table. No query when the session was read with its table
    (``access.session_for``), else one; the running state as read already."""
    if Session.tournament_table.is_cached(session):  # type: ignore[attr-defined]
        table = getattr(session, "tournament_table", None)
    else:
        table = (TournamentTable.objects.select_related("round__tournament")
                 .filter(session_id=session.pk).first())
    if table is None:
        return None
    table.session = session
    tournament = table.round.tournament
    by, at = confirmation(table)
    return {"finished": is_finished(table, tournament.deals_per_round or 0),
            "number": table.number, "confirm": tournament.confirm_results,
            "confirmed_by": by, "confirmed_at": at}
