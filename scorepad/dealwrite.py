"""Where a session's deals are written: every row of a deal, of its history and of the
games it finished, and the session's running state that follows them, reaches the
database through this module, whoever writes it: a deal recorded at the table
(``services.deal_record``), corrected or deleted, every deal replayed after the referee
learned better (``services``), and every deal and change of an imported file
(``exchange``). The services decide everything (the user's right, the number, the
referee's verdict, the new state); this module only reads and writes the rows, inside the
transaction the service opened. It never publishes: the service tells the polls
(scorepad.cache.versions.publish_version) of the version it leaves.

Recording a deal is the hot write of an evening, in as few statements as the database
allows (issue 14; bench/README.md says what each costs):

1. ``lock``: one ``SELECT … FOR UPDATE`` brings the session row, the number of its last
   deal, its seats and, given a user, their role in its group (SQLite's IMMEDIATE
   transactions take turns instead of locking rows), as a ``LockedSession``.
2. ``record``: the deal, its history row, the game it finished (if any) and the session's
   new state and version. On PostgreSQL that is one statement (the inserts as common
   table expressions of the ``UPDATE``), on SQLite one statement each.

Hand-written because the ORM spent more time building these statements than the
database spent running them (~2 ms of a ~7 ms deal POST). The columns come from the
models (``_meta.concrete_fields``, listed once per model) and every value goes through its
model field (``get_db_prep_save``): rows are stored exactly as the ORM stores them, and a
new column of Deal, DealEvent or FinishedGame is an edit of the model alone.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection
from django.db.models import F, Field, Model
from django.utils import timezone

from . import games
from .errors import Busy, Conflict, NotFound
from .loaded import Loaded, Names
from .models import (
    Deal,
    DealEvent,
    FinishedGame,
    Membership,
    Player,
    Seat,
    Session,
    Tournament,
    TournamentRound,
    TournamentTable,
)

#: PostgreSQL's SQLSTATE when ``lock_timeout`` passed (lock_not_available).
LOCK_NOT_AVAILABLE = "55P03"


# --- the columns, from the models ----------------------------------------------------------


def _table(model: type[Model]) -> str:
    return str(connection.ops.quote_name(model._meta.db_table))


def _column(model: type[Model], name: str) -> str:
    return str(connection.ops.quote_name(model._meta.get_field(name).column))


@functools.cache
def _written(model: type[Model]) -> tuple[Field[Any, Any], ...]:
    """The fields an insert of ``model`` writes: every column but the key."""
    return tuple(f for f in model._meta.concrete_fields if not f.primary_key)


@functools.cache
def _insert(model: type[Model], vendor: str) -> str:
    """``INSERT INTO`` the model's table, a placeholder per column of ``_written``."""
    fields = _written(model)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    return (f"INSERT INTO {_table(model)} ({columns}) "
            f"VALUES ({', '.join(['%s'] * len(fields))})")


def _values(row: Model) -> list[Any]:
    """``row``'s values as the ORM sends them to this database: as they are on the row
    (``auto_now`` times too: the caller sets them, now or as a file has them)."""
    return [f.get_db_prep_save(getattr(row, f.attname), connection)
            for f in _written(type(row))]


def _insert_rows(rows: Sequence[Model]) -> None:
    """Insert ``rows`` (all of one model) as they are, in one round of statements."""
    if not rows:
        return
    with connection.cursor() as cursor:
        cursor.executemany(_insert(type(rows[0]), connection.vendor),
                           [_values(row) for row in rows])


# --- the locking read ----------------------------------------------------------------------


@dataclass(frozen=True)
class LockedSession:
    """The session row as ``lock`` read it, locked until the transaction ends, with what
    the same statement brought along."""

    session: Session
    #: The seated players (player id → name, in seat order).
    names: Names
    #: The number of the session's last deal; None before the first.
    last_number: int | None
    #: The asking user's role in the session's group; None for a non-member, or when
    #: nobody asked.
    role: str | None = None
    #: The session is a tournament's table: how many deals end its round (0: the round
    #: ends with the game only); None: an ordinary session (docs/tournaments.md).
    table_deals: int | None = None

    @property
    def next_number(self) -> int:
        """The number the next deal gets."""
        return (self.last_number or 0) + 1

    @property
    def loaded(self) -> Loaded:
        """The session as loaded: the row with its seats and its last deal's number."""
        return Loaded(self.session, self.names, self.last_number)


def _seats_subquery() -> str:
    """The seated players as JSON, ``[[position, player id, name], ...]`` (any order)."""
    seat, player = _table(Seat), _table(Player)
    if connection.vendor == "postgresql":
        listed = "json_agg(json_build_array(st.position, st.player_id, p.name))"
    else:
        listed = "json_group_array(json_array(st.position, st.player_id, p.name))"
    return (f"(SELECT {listed} FROM {seat} st JOIN {player} p ON p.id = st.player_id "
            "WHERE st.session_id = s.id)")


@functools.cache
def _locking_read(vendor: str, with_role: bool) -> str:
    session, deal = _table(Session), _table(Deal)
    columns = ", ".join(f"s.{connection.ops.quote_name(f.column)}" for f in _fields())
    role = (f"(SELECT m.role FROM {_table(Membership)} m WHERE m.group_id = s.group_id "
            "AND m.user_id = %s)") if with_role else "NULL"
    # A writer that waited for the lock gets the row as the previous writer left it, but
    # the subqueries still see the database as it was when the statement began (READ
    # COMMITTED): their own read of the version tells (seen_version), and then the
    # statement runs again, the lock held.
    # On PostgreSQL the wait for the lock is bounded in the same statement: the select
    # list is computed before the row is locked (the lock is taken on the rows it
    # yields), so lock_timeout, set for this transaction alone (SET LOCAL), already holds
    # for the wait (tests/scorepad/test_lock_bound.py). One round trip less than a SET.
    bound = ", set_config('lock_timeout', %s, true)" if vendor == "postgresql" else ""
    return (f"SELECT {columns}, (SELECT d.number FROM {deal} d WHERE d.session_id = s.id "
            "ORDER BY d.number DESC LIMIT 1), "
            f"(SELECT v.version FROM {session} v WHERE v.id = s.id), {_seats_subquery()}, "
            f"{role}, {_table_subquery()}{bound} FROM {session} s WHERE s.id = %s"
            + (" FOR UPDATE" if connection.features.has_select_for_update else ""))


def _table_subquery() -> str:
    """A tournament table's deals per round (0: the round ends with the game); NULL for
    an ordinary session."""
    table, round_, tournament = (_table(m) for m in (TournamentTable, TournamentRound,
                                                      Tournament))
    return (f"(SELECT COALESCE(u.deals_per_round, 0) FROM {table} t JOIN {round_} r ON "
            f"r.id = t.round_id JOIN {tournament} u ON u.id = r.tournament_id "
            "WHERE t.session_id = s.id)")


def _fields() -> list[Any]:
    return list(Session._meta.concrete_fields)


@functools.cache
def _converters(vendor: str) -> list[tuple[Any, list[Any]]]:
    """Per column of the session, what the ORM applies to a value read from this database
    (JSON decoded, SQLite's decimals and times parsed), as the ORM reads rows."""
    out = []
    for field in _fields():
        col = field.get_col(Session._meta.db_table)
        out.append((col, connection.ops.get_db_converters(col)
                    + field.get_db_converters(connection)))
    return out


def lock(session_id: int, user: Any = None) -> LockedSession:
    """The session, locked for this transaction, with its seats, the number of its last
    deal and, given a ``user``, their role in its group; NotFound when there is no such
    session.

    Only inside a transaction (outside one the lock would end with its own statement). A
    lock another write holds is waited for ``SCHREIBER_LOCK_SECONDS`` at most (on
    PostgreSQL ``lock_timeout``, set for this transaction alone), then Busy: one stuck
    transaction cannot make every write of the session wait without end. (SQLite's writers
    take turns at the transaction's start instead, for as long as its busy timeout.)"""
    if not connection.in_atomic_block:
        raise RuntimeError("dealwrite.lock outside a transaction")
    with_role = user is not None
    params = [getattr(user, "pk", None)] if with_role else []
    if connection.vendor == "postgresql":
        params.append(f"{round(settings.SCHREIBER_LOCK_SECONDS * 1000)}ms")
    params.append(session_id)
    sql = _locking_read(connection.vendor, with_role)
    names = [f.attname for f in _fields()]
    with connection.cursor() as cursor:
        for _attempt in range(2):
            try:
                cursor.execute(sql, params)
            except OperationalError as e:
                if getattr(e.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                    raise Busy("the session's lock") from e
                raise
            row = cursor.fetchone()
            if row is None:
                raise NotFound("no such session")
            last, seen, seats, role, table_deals = row[len(names):len(names) + 5]
            if seen == row[names.index("version")]:
                break
    values = []
    for value, (col, converters) in zip(row[:len(names)], _converters(connection.vendor),
                                        strict=True):
        for convert in converters:
            value = convert(value, col, connection)
        values.append(value)
    found = Session.from_db(connection.alias, names, values)
    listed = json.loads(seats) if isinstance(seats, str) else (seats or [])
    seated = Names({str(pid): name for _pos, pid, name in sorted(listed)})
    return LockedSession(found, seated, last, role,
                         None if table_deals is None else int(table_deals))


# --- recording a deal ----------------------------------------------------------------------


def record(locked: LockedSession, deal: Deal, state: dict[str, Any],
           finished: Mapping[str, Any] | None) -> None:
    """Insert ``deal`` (the next of the ``locked`` session) with its history row and the
    game it finished, and save the session's new ``state`` as its next version. Conflict
    when the number is taken or the version moved on; the caller's transaction then rolls
    back whole (no savepoint: a clash needs no partial retry)."""
    session = locked.session
    now = timezone.now()
    deal.created_at = deal.updated_at = now
    event = DealEvent(session=session, deal_number=deal.number,
                      action=DealEvent.Action.CREATE, before=None, after=deal.data,
                      user_id=deal.created_by_id, at=now)
    rows: list[Model] = [deal, event]
    if finished is not None:
        rows.append(FinishedGame(session=session, number=finished["number"],
                                 summary=finished))
    update_values = [_prep(Session, "state", state), session.pk, session.version]
    vendor = connection.vendor
    try:
        with connection.cursor() as cursor:
            if vendor == "postgresql":  # one statement, one round trip
                cursor.execute(_recording(vendor, finished is not None),
                               [v for row in rows for v in _values(row)] + update_values)
                found = cursor.fetchone()
                deal_id = None if found is None else found[0]
            else:
                cursor.execute(_insert(Deal, vendor), _values(deal))
                deal_id = cursor.lastrowid
                for row in rows[1:]:
                    cursor.execute(_insert(type(row), vendor), _values(row))
                cursor.execute(_state_update(vendor), update_values)
                if cursor.rowcount != 1:
                    deal_id = None
    except IntegrityError as e:
        raise Conflict("number_taken", number=deal.number, expected=deal.number + 1) from e
    if deal_id is None:
        raise Conflict("session_changed")
    deal.pk = deal_id
    deal._state.adding, deal._state.db = False, connection.alias
    session.version += 1
    session.state = state


@functools.cache
def _state_update(vendor: str) -> str:
    """The session's new state as its next version, if it still has the version read."""
    state, version = _column(Session, "state"), _column(Session, "version")
    return (f"UPDATE {_table(Session)} SET {state} = %s, {version} = {version} + 1 "
            f"WHERE {_column(Session, 'id')} = %s AND {version} = %s")


@functools.cache
def _recording(vendor: str, finished: bool) -> str:
    """PostgreSQL's one statement: the inserts (the deal, its history row and, if
    ``finished``, its game) as common table expressions of the session's update, which
    answers the new deal's id (none when the version moved on)."""
    key = _column(Deal, "id")
    parts = [f"d AS ({_insert(Deal, vendor)} RETURNING {key})",
             f"e AS ({_insert(DealEvent, vendor)})"]
    if finished:
        parts.append(f"g AS ({_insert(FinishedGame, vendor)})")
    return f"WITH {', '.join(parts)} {_state_update(vendor)} RETURNING (SELECT {key} FROM d)"


def _prep(model: type[Model], field: str, value: Any) -> Any:
    """``value`` as the ORM would send it for ``model.field`` to this database."""
    return model._meta.get_field(field).get_db_prep_save(value, connection)


# --- correcting, deleting, replaying -------------------------------------------------------


def correct(deal: Deal, data: dict[str, Any], kind: str) -> None:
    """``deal`` as corrected (``data`` as stored, of ``kind``), as its next version;
    Conflict when somebody else corrected it first (its version moved on)."""
    rows = Deal.objects.filter(pk=deal.pk, version=deal.version).update(
        data=data, kind=kind, version=F("version") + 1)
    if rows != 1:
        raise Conflict("deal_changed", number=deal.number)
    deal.data, deal.kind, deal.version = data, kind, deal.version + 1


def delete(deal: Deal) -> None:
    """Remove ``deal``; its history stays (``log`` the removal)."""
    deal.delete()


def log(session: Session, number: int, action: str, before: Any, after: Any,
        user: Any) -> None:
    """Append to the session's history, in the transaction of the change itself
    (``user``: the account that made it, or None)."""
    _insert_rows([DealEvent(session=session, deal_number=number, action=action,
                            before=before, after=after, user=user, at=timezone.now())])


def replayed(session: Session, results: Sequence[tuple[Deal, dict[str, Any]]],
             state: dict[str, Any]) -> None:
    """What a replay made of the session's deals: each deal's new result (only those that
    changed are written), the games they finished, and the session's new ``state`` as its
    next version."""
    changed = []
    for row, result in results:
        if row.result != result:
            row.result = result
            changed.append(row)
    Deal.objects.bulk_update(changed, ["result"], batch_size=500)
    finished_games(session, (result for _row, result in results))
    _save_state(session, state)


def _save_state(session: Session, state: dict[str, Any]) -> None:
    """Save the session's new running state as its next version; Conflict if anybody
    changed the session since it was read."""
    with connection.cursor() as cursor:
        cursor.execute(_state_update(connection.vendor),
                       [_prep(Session, "state", state), session.pk, session.version])
        if cursor.rowcount != 1:
            raise Conflict("session_changed")
    session.version += 1
    session.state = state


def finished_games(session: Session, results: Iterable[Mapping[str, Any]]) -> None:
    """The session's finished games as these results (every deal's, in order) end them,
    replacing those there were: after a replay or an import."""
    game = games.of(session)
    rows = [FinishedGame(session=session, number=summary["number"], summary=summary)
            for summary in map(game.finished_game, results) if summary is not None]
    FinishedGame.objects.filter(session=session).delete()
    _insert_rows(rows)


# --- importing -----------------------------------------------------------------------------


def imported(session: Session, deals: Sequence[Deal], state: dict[str, Any]) -> None:
    """The deals of an imported session as the file has them (their times kept), the games
    they finished, and the running ``state`` after them (the version stays: the session
    is new)."""
    _insert_rows(deals)
    finished_games(session, (row.result for row in deals))
    Session.objects.filter(pk=session.pk).update(state=state)
    session.state = state


def imported_history(events: Sequence[DealEvent]) -> None:
    """An imported session's history as the file has it (its times kept)."""
    _insert_rows(events)
