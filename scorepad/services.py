"""Use cases of the scorepad: load → referee → save, each one atomic.

The HTML views, the API and the importer call these functions and nothing else to change
data, so a rule lives in exactly one place (the referee) and every write goes through one
path. Every use case checks what it is given (a malformed deal is an InputError naming
the field, never a KeyError) and refuses with a domain error (``scorepad.errors``); what a
refusal looks like (a 400, a 422, a form error) is decided at the edge.

Deals come in as typed (player names) and are stored by player id, so renaming a player
changes no recorded deal; ``Loaded`` (the session with its seats) translates. Whatever
differs between games is asked of the session's game module (``scorepad.games``).

This module holds the sessions, their deals and what is read of them (scoreboard,
settlement); a group and its roster are ``scorepad.rosters``'s, watch links and
invitations ``scorepad.sharing``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from referee.money import parse_stake
from referee.violations import RuleError

from . import dealwrite, games
from .access import WRITERS, is_table, table_role
from .cache import versions
from .cache.answers import CACHE_SECONDS
from .errors import (
    Conflict,
    FieldProblem,
    InputError,
    InviteGone,
    KeyReused,
    NotFound,
    RulesBroken,
    ServiceError,
)
from .fields import MAX_SESSION_NAME, MAX_SESSION_NOTE, hidden_character
from .games.base import RECENT_GAMES, named_transfer, stake_of
from .loaded import Loaded, Names, last_number
from .models import Deal, DealEvent, Group, Player, Seat, Session, SessionEvent
from .rosters import UNCHANGED, group_create, name_key, roster_players
from .tournaments import tables

__all__ = [  # the domain errors and the loaded session, for the callers' convenience
    "Conflict", "InputError", "InviteGone", "KeyReused", "Loaded", "Names", "NotFound",
    "RulesBroken", "ServiceError",
]


# --- sessions -------------------------------------------------------------------------


def frozen_rules(game: games.Game, preset: str | None, overrides: Mapping[str, object] | None
              ) -> games.GameRules:
    try:
        return game.rules(preset, overrides)
    except RuleError as e:
        raise InputError.from_rule_error(e, "rules") from e


@transaction.atomic
def session_start(
    *,
    group: Group | None = None,
    group_name: str | None = None,
    user: Any,
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    seats: Sequence[str],
    dealer: str | None = None,
    game: str | None = None,
    stake: str | None = None,
    currency: str | None = None,
    name: Any = None,
    date: Any = None,
    note: Any = None,
) -> Session:
    """Start a session: rules frozen, players seated in the order of play (the
    game's: clockwise or counter-clockwise), the first dealer, and an optional stake,
    name, date (today unless given) and note. With ``group_name`` instead of a ``group``,
    a new group of ``user``'s is made for it. All or nothing: a refusal leaves no group,
    no roster name and no session behind. No ``game``: the registry's first
    (``games.default``)."""
    if game is None:
        game = games.default()
    if not isinstance(game, str) or game not in games.names():
        raise InputError("game", "must be one of " + ", ".join(games.names()), "not_choice",
                         choices=", ".join(games.names()))
    the_game = games.get(game)
    frozen = frozen_rules(the_game, preset, overrides)
    if not isinstance(seats, list | tuple) or not frozen.fewest <= len(seats) <= frozen.most:
        raise InputError("seats", f"seat {frozen.fewest} to {frozen.most} players",
                         "players_count", min=frozen.fewest, max=frozen.most)
    money = clean_stake(stake, currency)
    about = {"name": clean_session_name(name), "note": clean_session_note(note)}
    if date is not None:
        about["date"] = clean_session_date(date)
    if group is None:
        group = group_create(user=user, name=group_name or "")
    players = roster_players(group, seats, "seats")
    first = players[-1]  # the last seat deals first unless the table says otherwise
    if dealer is not None:
        by_name = {name_key(p.name): p for p in players}
        chosen = by_name.get(name_key(" ".join(str(dealer).split())))
        if chosen is None:
            raise InputError("dealer", "must be one of the seated players", "not_seated")
        first = chosen
    return session_seat(group=group, game=the_game, preset=frozen.preset,
                        rules=frozen.params, players=players, dealer=first, money=money,
                        user=user, about=about)


def session_seat(*, group: Group, game: games.Game, preset: str, rules: dict[str, Any],
                 players: Sequence[Player], dealer: Player,
                 money: tuple[Decimal, str] | None, user: Any,
                 about: Mapping[str, Any] | None = None) -> Session:
    """The session's rows once everything is checked (``session_start``; a tournament's
    tables): the session with its frozen rules, its seats in order and its start state."""
    session = Session.objects.create(
        group=group,
        game=game.NAME,
        preset=preset,
        rules=rules,
        first_dealer=dealer,
        stake=money[0] if money else None,
        currency=money[1] if money else "",
        created_by=acting_account(user),
        **(about or {}),
    )
    Seat.objects.bulk_create(
        Seat(session=session, player=p, position=i) for i, p in enumerate(players)
    )
    initial = game.start(session, [str(p.pk) for p in players])
    Session.objects.filter(pk=session.pk).update(state=initial)
    session.state = initial
    versions.know_group(session.pk, group.pk)
    return session


def clean_stake(stake: str | None, currency: str | None) -> tuple[Decimal, str] | None:
    """No stake, no money; a stake needs a currency and at most its minor unit's places."""
    if stake in (None, ""):
        return None
    code = (currency or "").strip().upper()
    if not code:
        raise InputError("currency", "is required with a stake", "missing")
    try:
        amount = parse_stake(str(stake), code)
    except RuleError as e:
        if e.code == "too_large":
            raise _stake_too_large() from e
        raise InputError.from_rule_error(e) from e
    if len(str(int(amount))) > STAKE_DIGITS:  # what the column holds, not only the referee
        raise _stake_too_large()
    return amount, code


#: Digits before the point that Session.stake holds (14 digits, 4 of them places).
STAKE_DIGITS = (Session._meta.get_field("stake").max_digits or 0) - (
    Session._meta.get_field("stake").decimal_places or 0)


def _stake_too_large() -> InputError:
    return InputError("stake", f"must have at most {STAKE_DIGITS} digits before the "
                      "decimal point", "too_many_digits", digits=STAKE_DIGITS)


def clean_session_name(value: object) -> str:
    """A session's name as stored: blanks folded, nothing invisible; "" for none. Kept as
    typed otherwise (it is no key: two sessions may share a name)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError("name", "must be text", "not_string")
    code = hidden_character(value)
    if code is not None:
        raise InputError("name", f"must not contain invisible or control characters "
                         f"({code})", "bad_character", char=code)
    cleaned = " ".join(value.split())
    if len(cleaned) > MAX_SESSION_NAME:
        raise InputError("name", f"must be at most {MAX_SESSION_NAME} characters",
                         "too_long", max=MAX_SESSION_NAME)
    return cleaned


def clean_session_note(value: object) -> str:
    """A session's note as stored: its lines as typed (line ends made plain, blanks at
    either end dropped), nothing invisible; "" for none."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError("note", "must be text", "not_string")
    code = hidden_character(value)
    if code is not None:
        raise InputError("note", f"must not contain invisible or control characters "
                         f"({code})", "bad_character", char=code)
    cleaned = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(cleaned) > MAX_SESSION_NOTE:
        raise InputError("note", f"must be at most {MAX_SESSION_NOTE} characters",
                         "too_long", max=MAX_SESSION_NOTE)
    return cleaned


def clean_session_date(value: object) -> date:
    """A session's day: a date, or its ISO text (``2025-11-23``)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    text = value.strip() if isinstance(value, str) else ""
    try:
        if len(text) == 10:  # YYYY-MM-DD, nothing shorter or longer that Python would take
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise InputError("date", "must be a date like 2025-11-23", "not_date")


def session_describe(*, session: Session, name: Any = UNCHANGED, date: Any = UNCHANGED,
                     note: Any = UNCHANGED) -> Session:
    """Give the session a name, a date and/or a note (the fields not given stay). Every
    field is checked before anything is written: one InputError names each bad one. A
    new version of the session (its pages show them; the ratings' seasons go by the
    date)."""
    changes: dict[str, Any] = {}
    problems: list[FieldProblem] = []
    for field, value, clean in (("name", name, clean_session_name),
                                ("date", date, clean_session_date),
                                ("note", note, clean_session_note)):
        if value is UNCHANGED:
            continue
        try:
            changes[field] = clean(value)
        except InputError as e:
            problems += e.problems
    if problems:
        raise InputError.of(problems)
    if not changes:
        return session
    with transaction.atomic():
        Session.objects.filter(pk=session.pk).update(**changes, version=F("version") + 1)
        session.refresh_from_db()
        versions.publish_version(session.pk, session.version)
    return session


def session_set_status(*, session: Session, status: str, user: Any = None) -> Session:
    """Close or reopen the session; a change of its status goes into its history
    (``SessionEvent``: who, when), setting the status it has already changes nothing."""
    if status not in Session.Status.values:
        raise InputError("status", "must be open or closed", "not_choice",
                         choices="open, closed")
    if status == Session.Status.OPEN and tables.in_closed_round(session):
        raise Conflict("round_closed")
    closed_at = timezone.now() if status == Session.Status.CLOSED else None
    with transaction.atomic():
        changed = Session.objects.filter(pk=session.pk).exclude(status=status).update(
            status=status, closed_at=closed_at, version=F("version") + 1
        )
        if changed:
            SessionEvent.objects.create(
                session=session, user=acting_account(user),
                action=(SessionEvent.Action.CLOSE if status == Session.Status.CLOSED
                        else SessionEvent.Action.REOPEN))
    session.refresh_from_db()
    if changed:
        versions.publish_version(session.pk, session.version)
    return session


# --- deals -------------------------------------------------------------------------------


def acting_account(user: Any) -> Any:
    """The account behind a change (None: nobody, or a table's phone by its code)."""
    if not getattr(user, "is_authenticated", False) or getattr(user, "pk", None) is None:
        return None
    return user


def _check_open_or_table(session: Session, locked: dealwrite.LockedSession) -> None:
    """Deals of a closed session may not be corrected, except at a tournament's table:
    its round's end closed it, and the director still corrects it (docs/tournaments.md)."""
    if locked.table_deals is None:
        _check_open(session)


def _check_open(session: Session) -> None:
    if session.status != Session.Status.OPEN:
        raise Conflict("session_closed")


def _check_writer(role: str | None) -> None:
    """May a user of ``role`` (None: not a member) record deals? A non-member learns
    nothing of the session (NotFound), a viewer may only look (PermissionDenied)."""
    if role is None:
        raise NotFound("no such session")
    if role not in WRITERS:
        raise PermissionDenied


#: A deal number or version, what a client may say it is writing: its least and most.
_GUARDS = {"number": (1, 1_000_000), "version": (1, None)}


def _guard_problem(name: str, value: object) -> FieldProblem | None:
    """What is wrong with a guard (coded; the edges word it), or None."""
    least, most = _GUARDS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        return FieldProblem(name, "not_int", "must be a whole number")
    if value < least:
        return FieldProblem(name, "too_small", f"must be at least {least}", {"min": least})
    if most is not None and value > most:
        return FieldProblem(name, "too_large", f"must be at most {most}", {"max": most})
    return None


def _checked(loaded: Loaded, data: object, **guards: object) -> dict[str, Any]:
    """The deal as stored (player ids), once the game has checked its shape and the
    guards are whole numbers; else one InputError naming every bad field."""
    game = games.of(loaded.session)
    problems: list[FieldProblem] = []
    deal: dict[str, Any] = {}
    try:
        deal = game.parse_deal(data)
    except InputError as e:
        problems += e.problems
    for name, value in guards.items():
        problem = None if value is None else _guard_problem(name, value)
        if problem is not None:
            problems.append(problem)
    if problems:
        raise InputError.of(problems)
    return game.normalize(loaded.names.deal_ids(deal))


def deal_record(
    *, session: Session | Loaded | int, user: Any, data: object, number: Any = None,
    answer: Callable[[Deal, Loaded], Mapping[str, Any]] | None = None,
) -> Deal:
    """Record the next deal (``data`` as typed: player names). ``number``, when given, is
    the deal number the client believes it records: if somebody else recorded it first →
    Conflict.

    ``session`` may be the session's id: then the user's right to record (an editor or
    owner of its group; NotFound for others, PermissionDenied for viewers) is checked on
    the locked row, read in the same statement that locks it. The write is then two
    statements between ``BEGIN`` and ``COMMIT`` on PostgreSQL (scorepad.dealwrite), the
    seats read with the lock.

    ``answer(deal, after)``, if given, runs after the write, inside the transaction
    (``after``: the deal's session as the write left it, with its seats): the cache
    entries it returns (an answer rendered for the new version) are written with the new
    version after the commit, in one round trip (versions.publish_version)."""
    if isinstance(session, int):
        stored = None
    else:
        loaded = Loaded.of(session)
        stored = _checked(loaded, data, number=number)
    with transaction.atomic():
        if stored is None and is_table(user):  # a table's phone, by its code
            locked = dealwrite.lock(int(session))  # type: ignore[arg-type]
            _check_writer(table_role(user, locked.session.pk))
            loaded = locked.loaded
            stored = _checked(loaded, data, number=number)
        elif stored is None:
            locked = dealwrite.lock(int(session), user)  # type: ignore[arg-type]
            _check_writer(locked.role)
            loaded = locked.loaded
            stored = _checked(loaded, data, number=number)
        else:
            locked = dealwrite.lock(loaded.session.pk)
        row_session = locked.session
        game = games.of(row_session)
        expected = locked.next_number
        if locked.table_deals is not None:  # a finished table says so, its round open or not
            tables.refuse_finished(row_session, locked.table_deals, expected)
        _check_open(row_session)
        if number is not None and number != expected:
            raise Conflict("number_taken", number=number, expected=expected)
        try:
            result, new_state = game.apply(row_session, loaded.seats, row_session.state,
                                           stored)
        except RulesBroken as e:
            raise RulesBroken(e.violations, expected) from e
        row = Deal(session=row_session, number=expected, kind=game.kind(stored), data=stored,
                   result=result, created_by=acting_account(user))
        dealwrite.record(locked, row, new_state, game.finished_game(result))
        after = Loaded(row_session, locked.names, row.number)
        versions.publish_version(row_session.pk, row_session.version,
                                 None if answer is None else answer(row, after),
                                 ANSWER_SECONDS)
        return row


#: Seconds an answer cached with a deal's new version (``deal_record``'s ``answer``) is
#: kept: as long as a rendered scoreboard (scorepad.cache.answers).
ANSWER_SECONDS = CACHE_SECONDS


def _replay_all(
    loaded: Loaded, session: Session, deals: Sequence[Deal],
    changed: Mapping[int, dict[str, Any] | None],
) -> tuple[list[tuple[Deal, dict[str, Any]]], dict[str, Any]]:
    """Replay the session with some deals changed (None: deleted); refuse if any deal,
    there or later, breaks a rule where it then stands."""
    run = games.of(session).replayer(session, loaded.seats)
    out: list[tuple[Deal, dict[str, Any]]] = []
    for row in deals:
        data = changed.get(row.number, row.data)
        if data is None:
            continue
        try:
            result = run.apply(data)
        except RulesBroken as e:
            raise RulesBroken(e.violations, row.number) from e
        out.append((row, result))
    return out, run.state()


def _save_replay(
    session: Session, replayed: Sequence[tuple[Deal, dict[str, Any]]], state: dict[str, Any]
) -> None:
    """Save what the replay made (scorepad.dealwrite) as the session's next version, and
    tell the polls of it once committed."""
    dealwrite.replayed(session, replayed, state)
    versions.publish_version(session.pk, session.version)


def deal_correct(
    *,
    session: Session | Loaded,
    user: Any,
    number: int,
    data: object,
    version: Any = None,
) -> Deal:
    """Correct deal ``number`` (``data`` as typed); everything after it is replayed.
    ``version`` (from the GET of that deal) guards against overwriting somebody else's
    correction."""
    loaded = Loaded.of(session)
    game = games.of(loaded.session)
    stored = _checked(loaded, data, version=version)
    with transaction.atomic():
        locked = dealwrite.lock(loaded.session.pk)
        row_session = locked.session
        _check_open_or_table(row_session, locked)
        deals = list(row_session.deals.order_by("number"))
        row = next((d for d in deals if d.number == number), None)
        if row is None:
            raise NotFound(f"deal {number}")
        if version is not None and version != row.version:
            raise Conflict("deal_changed", number=number, version=row.version)
        before = row.data
        replayed, state = _replay_all(loaded, row_session, deals, {number: stored})
        dealwrite.correct(row, stored, game.kind(stored))
        _save_replay(row_session, replayed, state)
        dealwrite.log(row_session, number, DealEvent.Action.UPDATE, before, row.data,
                      acting_account(user))
        if locked.table_deals is not None:
            tables.after_change(row_session)
        row.refresh_from_db()
        return row


def deal_delete(*, session: Session | Loaded, user: Any, number: int) -> None:
    """Remove deal ``number``; everything after it is replayed; the history keeps it."""
    loaded = Loaded.of(session)
    with transaction.atomic():
        locked = dealwrite.lock(loaded.session.pk)
        row_session = locked.session
        _check_open_or_table(row_session, locked)
        deals = list(row_session.deals.order_by("number"))
        row = next((d for d in deals if d.number == number), None)
        if row is None:
            raise NotFound(f"deal {number}")
        replayed, state = _replay_all(loaded, row_session, deals, {number: None})
        before = row.data
        dealwrite.delete(row)
        _save_replay(row_session, replayed, state)
        dealwrite.log(row_session, number, DealEvent.Action.DELETE, before, None,
                      acting_account(user))
        if locked.table_deals is not None:
            tables.after_change(row_session)


def session_replay(*, session: Session | Loaded) -> bool:
    """Replay every stored deal through the referee as it is now and save what changed
    (results, finished games, the running state): after the rules engine learned better,
    e.g. how a Muli scores players at home. Open or closed, the deals stay as recorded.
    True when anything changed; RulesBroken (with the deal's number) and nothing saved
    when a stored deal is refused now."""
    loaded = Loaded.of(session)
    with transaction.atomic():
        row_session = dealwrite.lock(loaded.session.pk).session
        deals = list(row_session.deals.order_by("number"))
        replayed, state = _replay_all(loaded, row_session, deals, {})
        if row_session.state == state and all(row.result == r for row, r in replayed):
            return False
        _save_replay(row_session, replayed, state)
        return True


# --- reading --------------------------------------------------------------------------------


def scoreboard_etag(session: Session, *parts: str) -> str:
    """Changes whenever anything on the scoreboard can (every write bumps the version)."""
    from .cache.answers import etag_for

    return etag_for(session.pk, session.version, *parts)


def next_number(session: Session | Loaded) -> int:
    """The number the next deal gets (not always deals + 1: a removed deal keeps its
    number in the history)."""
    if isinstance(session, Loaded):
        return session.next_number
    return (last_number(session) or 0) + 1


#: Finished games per page of a scoreboard (``games_page``): the scoreboard, and the
#: answer of every deal, carries the most recent ones (those the running state lists),
#: whatever the session's length.
GAMES_PER_PAGE = RECENT_GAMES


GAMES_PAGE_MAX = 1_000_000


def games_page_of(value: object) -> int:
    """The ``games_page`` a client asked for (1 when not given); InputError otherwise."""
    if value in (None, ""):
        return 1
    try:
        page = int(str(value))
    except ValueError:
        page = 0
    if not 1 <= page <= GAMES_PAGE_MAX:
        raise InputError("games_page", "must be a whole number from 1", "not_between",
                         min=1, max=GAMES_PAGE_MAX)
    return page


def _games_slice(total: int, page: int) -> slice:
    """Page ``page`` of ``total`` finished games: page 1 the most recent
    ``GAMES_PER_PAGE``, page 2 those before them, ... (each oldest first)."""
    end = max(total - (page - 1) * GAMES_PER_PAGE, 0)
    return slice(max(end - GAMES_PER_PAGE, 0), end)


def _page_games(board: dict[str, Any], page: int, total: int | None) -> None:
    """Say which page of the finished games the board lists (``total``: how many there
    are; None: the game keeps no list of them)."""
    if total is None:
        return
    board["games_total"] = total
    board["games_page"] = page
    board["games_pages"] = max(1, -(-total // GAMES_PER_PAGE))


def _with_games_page(session: Session, page: int) -> tuple[Session, int | None]:
    """The session as the board should read it: its state lists the most recent finished
    games (page 1); another page reads its games from their rows (one query). And how
    many games there are (None: the game keeps no list of them)."""
    state = session.state if isinstance(session.state, dict) else {}
    total = state.get("games_total")
    if total is None:
        return session, None
    if page == 1:
        return session, int(total)
    import copy

    view = copy.copy(session)
    page_rows = session.finished_games.order_by("number")[_games_slice(int(total), page)]
    view.state = {**state, "games": list(page_rows.values_list("summary", flat=True))}
    return view, int(total)


def scoreboard(session: Session | Loaded, names: Names | None = None,
               games_page: int = 1) -> dict[str, Any]:
    """The scoreboard the API answers (docs/api.md, "The scorepad API"), from the cached
    state: a constant number of queries; one page of the finished games (``games_page``)."""
    loaded = Loaded.of(session, names)
    now = loaded.state  # the number, the state and the version of one moment
    game = games.of(loaded.session)
    view, total = _with_games_page(loaded.session, games_page)
    board = game.board(view, loaded.names)
    _page_games(board, games_page, total)
    board |= {"status": loaded.session.status, "version": now.version,
              "next_number": now.next_number}
    if game.BALANCES_ALWAYS or loaded.session.stake is not None:
        board["balances"] = _balances(loaded, game)
    return board


def _balances(loaded: Loaded, game: games.Game) -> dict[str, str]:
    if loaded.session.stake is None:
        return {loaded.names.to_name(p): "0.00" for p in loaded.seats}
    balances = game.money(loaded.session, loaded.seats).balances
    return {loaded.names.to_name(p): str(balances[p]) for p in loaded.seats}


def settlement(session: Session | Loaded, names: Names | None = None) -> dict[str, Any]:
    """Who pays whom: balances (adding up to exactly zero), a plan of at most n − 1
    transfers, and the pair-by-pair amounts; all amounts as decimal strings."""
    loaded = Loaded.of(session, names)
    s, names = loaded.session, loaded.names
    out: dict[str, Any] = {
        "game": s.game,
        "stake": None if s.stake is None else str(stake_of(s)),
        "currency": s.currency or None,
    }
    if s.stake is None:
        zero = {names.to_name(p): "0.00" for p in loaded.seats}
        return out | {"balances": zero, "pairs": [], "transfers": []}
    game = games.of(s)
    money = game.money(s, loaded.seats)
    return out | game.settlement_details(s, names) | {
        "balances": {names.to_name(p): str(money.balances[p]) for p in loaded.seats},
        "pairs": [named_transfer(t, names) for t in money.pairs],
        "transfers": [named_transfer(t, names) for t in money.transfers],
    }
