"""The SQL of recording a deal: the hot write of an evening, in as few statements as the
database allows (issue 14; bench/README.md says what each costs).

``services.deal_record`` decides everything (the user's right, the number, the referee's
verdict, the new state); this module only reads and writes the rows, inside the
transaction the service opened:

1. ``locked``: one ``SELECT … FOR UPDATE`` brings the session row, the number of its last
   deal, its seats and, given a user, their role in its group (SQLite's IMMEDIATE
   transactions take turns instead of locking rows).
2. ``write``: the deal, its history row, the game it finished (if any) and the session's
   new state and version. On PostgreSQL that is one statement (the inserts as common
   table expressions of the ``UPDATE``), on SQLite one statement each. The service then
   publishes the new version (fastpoll) for after the commit.

Hand-written because the ORM spent more time building these statements than the
database spent running them (~2 ms of a ~7 ms deal POST); the values still go through
the model fields (``get_db_prep_save``), so they are stored exactly as the ORM stores them.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.db import IntegrityError, connection
from django.http import Http404
from django.utils import timezone

from .errors import Conflict
from .models import Deal, DealEvent, FinishedGame, Membership, Player, Seat, Session


def _table(model: Any) -> str:
    return str(connection.ops.quote_name(model._meta.db_table))


def _prep(model: Any, field: str, value: Any) -> Any:
    """``value`` as the ORM would send it for ``model.field`` to this database."""
    return model._meta.get_field(field).get_db_prep_save(value, connection)


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
    return (f"SELECT {columns}, (SELECT d.number FROM {deal} d WHERE d.session_id = s.id "
            "ORDER BY d.number DESC LIMIT 1), "
            f"(SELECT v.version FROM {session} v WHERE v.id = s.id), {_seats_subquery()}, "
            f"{role} FROM {session} s WHERE s.id = %s"
            + (" FOR UPDATE" if connection.features.has_select_for_update else ""))


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


def locked(session_id: int, user: Any = None) -> Session:
    """The session row, locked for this transaction, with ``last_number`` (None before
    the first deal), ``seat_names`` (player id → name in seat order: Names.of takes them)
    and, given a ``user``, ``asker_role`` (None for a non-member); 404 when there is no
    such session."""
    with_role = user is not None
    params = ([getattr(user, "pk", None)] if with_role else []) + [session_id]
    sql = _locking_read(connection.vendor, with_role)
    names = [f.attname for f in _fields()]
    with connection.cursor() as cursor:
        for _attempt in range(2):
            cursor.execute(sql, params)
            row = cursor.fetchone()
            if row is None:
                raise Http404
            last, seen, seats, role = row[len(names):]
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
    found.seat_names = {str(pid): name for _pos, pid, name in sorted(listed)}  # type: ignore[attr-defined]
    found.last_number = last  # type: ignore[attr-defined]
    found.asker_role = role  # type: ignore[attr-defined]
    return found


def write(deal: Deal, state: dict[str, Any], finished: dict[str, Any] | None) -> None:
    """Insert ``deal`` (of its locked ``deal.session``, version ``session.version``) with
    its history row and the game it finished, and save the session's new ``state`` as the
    next version (the caller publishes it: fastpoll.publish_version). Conflict when the
    number is taken or the version moved on; the caller's transaction then rolls back
    whole (no savepoint: a clash needs no partial retry)."""
    session = deal.session
    now = timezone.now()
    deal.created_at = deal.updated_at = now
    user_id = deal.created_by_id
    deal_values = [session.pk, deal.number, deal.kind, _prep(Deal, "data", deal.data),
                   _prep(Deal, "result", deal.result), deal.version, user_id,
                   _prep(Deal, "created_at", now), _prep(Deal, "updated_at", now)]
    deal_sql = (f"INSERT INTO {_table(Deal)} (session_id, number, kind, data, result, "
                "version, created_by_id, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)")
    event_values = [session.pk, deal.number, DealEvent.Action.CREATE.value, None,
                    _prep(DealEvent, "after", deal.data), user_id,
                    _prep(DealEvent, "at", now), False, ""]
    event_sql = (f"INSERT INTO {_table(DealEvent)} (session_id, deal_number, action, before, "
                 "after, user_id, at, imported, imported_user) "
                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)")
    game_values = [] if finished is None else [
        session.pk, finished["number"], _prep(FinishedGame, "summary", finished)]
    game_sql = (f"INSERT INTO {_table(FinishedGame)} (session_id, number, summary) "
                "VALUES (%s, %s, %s)")
    update_values = [_prep(Session, "state", state), session.pk, session.version]
    update_sql = (f"UPDATE {_table(Session)} SET state = %s, version = version + 1 "
                  "WHERE id = %s AND version = %s")
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # one statement, one round trip
                parts = [f"d AS ({deal_sql} RETURNING id)", f"e AS ({event_sql})"]
                if finished is not None:
                    parts.append(f"g AS ({game_sql})")
                cursor.execute(f"WITH {', '.join(parts)} {update_sql} "
                               "RETURNING (SELECT id FROM d)",
                               deal_values + event_values + game_values + update_values)
                row = cursor.fetchone()
                deal_id = None if row is None else row[0]
            else:
                cursor.execute(deal_sql, deal_values)
                deal_id = cursor.lastrowid
                cursor.execute(event_sql, event_values)
                if finished is not None:
                    cursor.execute(game_sql, game_values)
                cursor.execute(update_sql, update_values)
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
