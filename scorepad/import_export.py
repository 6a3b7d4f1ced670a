"""Export, import and backup: a session, a group or the whole instance as one JSON file.

The file names players by their *names* (never database ids) and carries everything needed
to reproduce a session exactly: game, preset and frozen rules, seats in order, the first
dealer, stake and currency, status, every deal as recorded (with its number and version)
and the whole change history. README.md ("Export, import and backups") describes the format
and what stays compatible.

Importing is a replay: every deal goes through the same shape checks and the same game
module (``scorepad.games``) as live recording, so the referee rejects an illegal deal
exactly as it would at the table. Every problem is reported with its place in
the file (a JSON-pointer-like path such as ``session/deals/4/data/tricks/Anna``); one
problem and nothing is written (one transaction).
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from . import dealwrite, games, rosters, services, sharing
from .fields import MAX_NAME, hidden_character
from .games.base import stake_of
from .messages import input_error_message, violation_message
from .models import (
    Deal,
    DealEvent,
    Entrant,
    Group,
    Membership,
    Player,
    Session,
    Tournament,
    TournamentRound,
    TournamentTable,
)

FORMAT = "schreiber"
VERSION = 1
KINDS = ("session", "group", "backup")

#: A file larger than this is refused before it is read (the API and the upload form).
MAX_BYTES: int = getattr(settings, "SCHREIBER_IMPORT_MAX_BYTES", 5 * 1024 * 1024)
MAX_SESSIONS = 10_000
MAX_DEALS = 5_000
MAX_EVENTS = 20_000
MAX_ROSTER = 1_000
MAX_MEMBERS = 1_000
MAX_USERS = 100_000


# --- problems ------------------------------------------------------------------------------

INVALID, RULES, CONFLICT = "invalid", "rules", "conflict"


@dataclass(frozen=True)
class Problem:
    path: str
    code: str
    message: str
    category: str = INVALID

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class ImportRejected(services.ServiceError):
    """The file was refused; nothing was changed. ``category``: ``invalid`` for a
    malformed file, ``rules`` when only the referee objected, ``conflict`` when it was
    imported already (or the group is not empty)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems[:5]))
        self.problems = tuple(problems)

    @property
    def category(self) -> str:
        categories = {p.category for p in self.problems}
        if INVALID in categories:
            return INVALID
        return RULES if RULES in categories else CONFLICT


@dataclass
class _Problems:
    items: list[Problem] = field(default_factory=list)

    def add(self, path: str, code: str, message: str, category: str = INVALID) -> None:
        self.items.append(Problem(path, code, message, category))

    def input_error(self, path: str, error: services.InputError) -> None:
        for problem in error.problems:
            where = "/".join([path, *problem.field.split(".")]) if problem.field else path
            self.add(where, problem.code, input_error_message(problem))

    def __bool__(self) -> bool:
        return bool(self.items)


def _join(path: str, *parts: object) -> str:
    return "/".join([path, *(str(p) for p in parts)]) if path else "/".join(map(str, parts))


# --- export --------------------------------------------------------------------------------


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def _envelope(kind: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "kind": kind,
            "exported_at": _when(timezone.now())}


def session_json(session: Session, names: services.Names | None = None) -> dict[str, Any]:
    """One session as the file holds it (names, not ids)."""
    names = names or services.Names.of(session)
    board = services.scoreboard(session, names)
    board.pop("version", None)
    events = DealEvent.objects.filter(session=session).select_related("user")
    return {
        "uid": str(session.uid),
        "game": session.game,
        "preset": session.preset,
        "rules": session.rules,
        "seats": list(names.by_id.values()),
        "first_dealer": names.to_name(str(session.first_dealer_id)),
        "stake": None if session.stake is None else str(stake_of(session)),
        "currency": session.currency or None,
        "status": session.status,
        "name": session.name,
        "date": session.date.isoformat(),
        "note": session.note,
        "created_at": _when(session.created_at),
        "closed_at": _when(session.closed_at),
        "deals": [
            {"number": d.number, "version": d.version, "kind": d.kind,
             "data": names.deal_names(d.data),
             "created_at": _when(d.created_at), "updated_at": _when(d.updated_at)}
            for d in session.deals.order_by("number")
        ],
        "history": [
            {"deal_number": e.deal_number, "action": e.action, "user": e.who,
             "at": _when(e.at), "imported": e.imported,
             "before": names.deal_names(e.before) if e.before is not None else None,
             "after": names.deal_names(e.after) if e.after is not None else None}
            for e in events
        ],
        "scoreboard": board,
    }


def session_export(session: Session) -> dict[str, Any]:
    # "group": where it came from, where a bare file sent back to the API goes
    return _envelope("session") | {"group": session.group_id, "session": session_json(session)}


def group_json(group: Group, *, links: bool = False) -> dict[str, Any]:
    """The group as the file holds it; ``links`` (backups only: account data) adds which
    roster player is which member's account."""
    sessions = group.sessions.annotate(last_number=Max("deals__number")).order_by(
        "created_at", "id")
    extra = {} if not links else {"links": [
        {"player": name, "username": username}
        for name, username in group.players.exclude(user=None)
        .order_by(Lower("name"), "id").values_list("name", "user__username")
    ]}
    return {
        "name": group.name,
        "roster": list(group.players.order_by(Lower("name"), "id").values_list("name",
                                                                                 flat=True)),
        "members": [
            {"username": m.user.get_username(), "role": m.role}
            for m in group.memberships.select_related("user").order_by("user__username")
        ],
        "sessions": [session_json(s) for s in sessions],
        "tournaments": [tournament_json(t) for t in group.tournaments.order_by("created_at",
                                                                               "id")],
    } | extra


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    """A tournament as the file holds it: its choices, players and rounds; each table
    names its session by uid (the session itself is among the group's sessions)."""
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
        "players": [{"name": name, "number": number, "withdrawn": withdrawn}
                    for name, number, withdrawn in tournament.entrants.order_by("number")
                    .values_list("player__name", "number", "withdrawn")],
        "round_list": [
            {"number": r.number, "status": r.status, "forced": r.forced,
             "closed_at": _when(r.closed_at),
             "tables": [{"table": t.number, "session": str(t.session.uid)}
                        | _slip_json(t)
                        for t in r.tables.select_related("session").order_by("number")]}
            for r in tournament.round_set.order_by("number")],
    }


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


def group_export(group: Group) -> dict[str, Any]:
    return _envelope("group") | {"group": group_json(group)}


def backup_export() -> dict[str, Any]:
    """Every account (with its password hash) and every group: a whole instance."""
    User = get_user_model()
    users = [
        {"username": u.get_username(), "email": u.email, "password": u.password,
         "first_name": u.first_name, "last_name": u.last_name, "is_active": u.is_active,
         "is_staff": u.is_staff, "is_superuser": u.is_superuser,
         "date_joined": _when(u.date_joined), "last_login": _when(u.last_login)}
        for u in User.objects.order_by("username")
    ]
    groups = [group_json(g, links=True) for g in Group.objects.order_by("created_at", "id")]
    return _envelope("backup") | {"users": users, "groups": groups}


def export_filename(kind: str, pk: int, ext: str) -> str:
    return f"schreiber-{kind}-{pk}-{timezone.now():%Y%m%d}.{ext}"


# --- CSV: one row per deal, as players write it on paper --------------------------------------


def _cell(value: object) -> object:
    """Text that a spreadsheet would run as a formula is quoted with an apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def session_csv(session: Session) -> str:
    names = services.Names.of(session)
    out = io.StringIO()
    writer = csv.writer(out)
    rows = games.of(session).csv_rows(names, list(session.deals.order_by("number")))
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


# --- import: reading the file -------------------------------------------------------------------


def read_file(raw: bytes, *, limit: int | None = None) -> Any:
    """The JSON in an uploaded file or request body; ImportRejected if longer than
    ``limit`` (default ``MAX_BYTES``; ``0``: no limit) or not JSON."""
    limit = MAX_BYTES if limit is None else limit
    if limit and len(raw) > limit:
        raise too_large()
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ImportRejected([Problem("", "not_json", _("The file is not JSON."))]) from None


def too_large() -> ImportRejected:
    """The refusal of a file over ``MAX_BYTES``."""
    megabytes = f"{round(MAX_BYTES / (1024 * 1024), 1):g}"
    return ImportRejected([Problem("", "too_large", _("The file is larger than %(mb)s MB.")
                                   % {"mb": megabytes})])


def _check_envelope(data: Any, kinds: Sequence[str], problems: _Problems) -> str | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        problems.add("format", "not_schreiber", _("This is not a Schreiber export file."))
        return None
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problems.add("version", "invalid", _("must be a whole number"))
        return None
    if version > VERSION:
        problems.add("version", "too_new",
                     _("This file was written by a newer Schreiber (format version "
                       "%(version)s); this one reads up to version %(known)s.")
                     % {"version": version, "known": VERSION})
        return None
    kind = data.get("kind")
    if kind not in kinds:
        problems.add("kind", "wrong_kind",
                     _("must be one of: %(kinds)s") % {"kinds": ", ".join(kinds)})
        return None
    before = len(problems.items)
    _scan_texts(data, "", problems)
    return None if len(problems.items) > before else str(kind)


def _text_fault(value: str) -> tuple[str, str] | None:
    """(code, message) if the text holds a NUL or a lone surrogate: refused exactly as the
    API's text fields refuse them (neither can be stored: PostgreSQL rejects NUL, and no
    database takes half a surrogate pair)."""
    for check in (ProhibitNullCharactersValidator(), ProhibitSurrogateCharactersValidator()):
        try:
            check(value)
        except (DjangoValidationError, DRFValidationError) as e:
            return str(check.code), " ".join(_messages(e))
    return None


def _messages(error: Exception) -> list[str]:
    if isinstance(error, DjangoValidationError):
        return [str(m) for m in error.messages]
    detail = getattr(error, "detail", [])
    return [str(m) for m in (detail if isinstance(detail, list) else [detail])]


def _scan_texts(value: Any, path: str, problems: _Problems) -> None:
    """Every text of the file, keys too, is one a database can store (with its path)."""
    if isinstance(value, str):
        fault = _text_fault(value)
        if fault is not None:
            problems.add(path, *fault)
    elif isinstance(value, dict):
        for key, item in value.items():
            where = _join(path, key) if isinstance(key, str) and not _text_fault(key) \
                else _join(path, "?")
            if isinstance(key, str):
                _scan_texts(key, where, problems)
            _scan_texts(item, where, problems)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _scan_texts(item, _join(path, i), problems)


def _must_dict(value: Any, path: str, problems: _Problems) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems.add(path, "not_object", _("must be an object"))
        return None
    return value


def _must_list(value: Any, path: str, problems: _Problems, most: int) -> list[Any] | None:
    if not isinstance(value, list):
        problems.add(path, "not_list", _("must be a list"))
        return None
    if len(value) > most:
        problems.add(path, "too_many", _("has more than %(max)s entries") % {"max": most})
        return None
    return value


def _text(value: Any, path: str, problems: _Problems, *, null: bool = False,
          most: int = 200) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or len(value) > most:
        problems.add(path, "not_text",
                     _("must be a text of at most %(max)s characters") % {"max": most})
        return None
    fault = _text_fault(value)
    if fault is not None:
        problems.add(path, *fault)
        return None
    return value


def _int(value: Any, path: str, problems: _Problems, least: int = 1) -> int | None:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= 10**9:
        problems.add(path, "not_number",
                     _("must be a whole number of at least %(min)s") % {"min": least})
        return None
    return value


def _time(value: Any, path: str, problems: _Problems, *, null: bool = False
          ) -> datetime | None:
    if value is None and null:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well-formed but impossible, such as the 31st of February
        parsed = None
    if parsed is None or not 1900 <= parsed.year <= 9000:
        problems.add(path, "not_datetime", _("must be a date and time (ISO 8601)"))
        return None
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)


# --- import: one session ---------------------------------------------------------------------


@dataclass
class _Context:
    """Where the sessions go and how the history's users are found."""

    group: Group
    #: A session already in the group (same uid) comes in as a copy with a new uid
    #: instead of being refused (the API's bare "take it back").
    copy: bool = False
    #: The sessions made, in order.
    made: list[Session] = field(default_factory=list)
    #: Restoring a backup: history users are the restored accounts (found by username);
    #: an import instead keeps the username as text and marks every event imported.
    users: Mapping[str, Any] | None = None


def _import_session(obj: Any, path: str, ctx: _Context, problems: _Problems) -> None:
    body = _must_dict(obj, path, problems)
    if body is None:
        return
    before = len(problems.items)
    uid = _uid(body.get("uid"), _join(path, "uid"), problems)
    game = body.get("game")
    if not isinstance(game, str) or game not in games.names():
        problems.add(_join(path, "game"), "not_choice",
                     _("must be one of: %(choices)s") % {"choices": ", ".join(games.names())})
    preset = _text(body.get("preset"), _join(path, "preset"), problems, most=30)
    rules = _must_dict(body.get("rules"), _join(path, "rules"), problems)
    seats = _must_list(body.get("seats"), _join(path, "seats"), problems, 12)
    if seats is not None:
        for i, name in enumerate(seats):
            _text(name, _join(path, "seats", i), problems, most=MAX_NAME)
    dealer = _text(body.get("first_dealer"), _join(path, "first_dealer"), problems, most=80)
    stake = _text(body.get("stake"), _join(path, "stake"), problems, null=True, most=40)
    currency = _text(body.get("currency"), _join(path, "currency"), problems, null=True, most=3)
    status = body.get("status")
    if status not in Session.Status.values:
        problems.add(_join(path, "status"), "not_choice", _("must be open or closed"))
    created_at = _time(body.get("created_at"), _join(path, "created_at"), problems)
    closed_at = _time(body.get("closed_at"), _join(path, "closed_at"), problems, null=True)
    deals = _must_list(body.get("deals"), _join(path, "deals"), problems, MAX_DEALS)
    history = _must_list(body.get("history"), _join(path, "history"), problems, MAX_EVENTS)
    about = _about(body, path, problems)  # files from before these fields have none
    if len(problems.items) > before:
        return
    assert seats is not None and deals is not None and history is not None
    if ctx.group.sessions.filter(uid=uid).exists():
        if not ctx.copy:
            problems.add(_join(path, "uid"), "already_imported",
                         _("This session was imported into this group already."), CONFLICT)
            return
        uid = uuid.uuid4()
    try:
        session = services.session_start(
            group=ctx.group, user=None, preset=str(preset), overrides=rules, seats=seats,
            dealer=dealer, game=str(game), stake=stake, currency=currency,
        )
    except services.InputError as e:
        problems.input_error(path, e)
        return
    session.uid = uid
    ctx.made.append(session)
    _replay_deals(session, deals, _join(path, "deals"), problems)
    _import_history(session, history, _join(path, "history"), ctx, problems)
    assert created_at is not None
    Session.objects.filter(pk=session.pk).update(
        uid=uid, status=status, created_at=created_at,
        closed_at=closed_at if status == Session.Status.CLOSED else None,
        **({"date": timezone.localdate(created_at)} | about),
    )


def _about(body: dict[str, Any], path: str, problems: _Problems) -> dict[str, Any]:
    """The session's name, date and note as the file gives them (each optional), checked
    as the services check them."""
    about: dict[str, Any] = {}
    for key, clean in (("name", services.clean_session_name),
                       ("date", services.clean_session_date),
                       ("note", services.clean_session_note)):
        if body.get(key) is None:
            continue
        try:
            about[key] = clean(body[key])
        except services.InputError as e:
            problems.input_error(path, e)
    return about


def _uid(value: Any, path: str, problems: _Problems) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        problems.add(path, "not_uuid", _("must be a UUID"))
        return uuid.uuid4()


def _replay_deals(session: Session, deals: list[Any], path: str, problems: _Problems) -> None:
    """Every deal through the game adapter, in order; an illegal one is reported and left
    out (later deals are still checked, against the state without it)."""
    game = games.of(session)
    names = services.Names.of(session)
    seats = names.seats
    state = session.state
    rows: list[Deal] = []
    last = 0
    for i, item in enumerate(deals):
        where = _join(path, i)
        deal = _must_dict(item, where, problems)
        if deal is None:
            continue
        number = _int(deal.get("number"), _join(where, "number"), problems)
        version = _int(deal.get("version", 1), _join(where, "version"), problems)
        created = _time(deal.get("created_at"), _join(where, "created_at"), problems)
        updated = _time(deal.get("updated_at", deal.get("created_at")),
                        _join(where, "updated_at"), problems)
        data = _must_dict(deal.get("data"), _join(where, "data"), problems)
        if number is not None and number <= last:
            problems.add(_join(where, "number"), "not_increasing",
                         _("deal numbers must increase (after %(last)s)") % {"last": last})
        if None in (number, version, created, updated, data):
            continue
        assert number is not None and data is not None
        last = number
        try:  # the deal's fields checked exactly as for a deal recorded at the table
            stored = game.normalize(names.deal_ids(game.parse_deal(data)))
            result, new_state = game.apply(session, seats, state, stored)
        except services.InputError as e:
            problems.input_error(_join(where, "data"), e)
            continue
        except services.RulesBroken as e:
            for v in e.violations:
                problems.add(_join(where, "data"), v.code,
                             _("deal %(number)s: %(message)s")
                             % {"number": number,
                                "message": violation_message(names.violation(v),
                                                            game.WORDING)}, RULES)
            continue
        state = new_state
        rows.append(Deal(session=session, number=number, kind=game.kind(stored), data=stored,
                         result=result, version=version, created_at=created,
                         updated_at=updated))
    if problems:
        return
    dealwrite.imported(session, rows, state)


def _import_history(session: Session, history: list[Any], path: str, ctx: _Context,
                    problems: _Problems) -> None:
    names = services.Names.of(session)
    rows: list[DealEvent] = []
    for i, item in enumerate(history):
        where = _join(path, i)
        event = _must_dict(item, where, problems)
        if event is None:
            continue
        number = _int(event.get("deal_number"), _join(where, "deal_number"), problems)
        action = event.get("action")
        if action not in DealEvent.Action.values:
            problems.add(_join(where, "action"), "not_choice",
                         _("must be create, update or delete"))
        who = _text(event.get("user"), _join(where, "user"), problems, null=True, most=150)
        at = _time(event.get("at"), _join(where, "at"), problems)
        sides = {}
        for side in ("before", "after"):
            value = event.get(side)
            if value is not None and not isinstance(value, dict):
                problems.add(_join(where, side), "not_object", _("must be an object or null"))
            sides[side] = names.deal_ids(value) if isinstance(value, dict) else None
        if problems:
            continue
        imported = bool(event.get("imported", False))
        user = None
        if ctx.users is not None and who is not None:
            user = ctx.users.get(who)
        else:
            imported = True
        rows.append(DealEvent(session=session, deal_number=number, action=action,
                              before=sides["before"], after=sides["after"], at=at,
                              user=user, imported=imported,
                              imported_user="" if user is not None else (who or "")))
    if problems:
        return
    dealwrite.imported_history(rows)


# --- import: the use cases -------------------------------------------------------------------


def _run(work: Callable[[_Problems], Any]) -> Any:
    """Run an import in one transaction; any problem and everything is rolled back."""
    problems = _Problems()
    with transaction.atomic():
        out = work(problems)
        if problems:
            raise ImportRejected(problems.items)
    return out


def session_import(*, group: Group, data: Any, copy: bool = False) -> Session:
    """A session file into ``group``: roster names are added where missing; refused if the
    group holds this session (its ``uid``) already, unless ``copy`` (then a new uid)."""

    def work(problems: _Problems) -> Session | None:
        if _check_envelope(data, ["session"], problems) is None:
            return None
        ctx = _Context(group, copy=copy)
        _import_session(data.get("session"), "session", ctx, problems)
        if problems or not ctx.made:
            return None
        return Session.objects.get(pk=ctx.made[0].pk)

    session: Session = _run(work)
    return session


def group_import(*, group: Group, data: Any) -> list[Session]:
    """A group file into an existing group that has no sessions yet: its roster and every
    session. Memberships in the file are not granted (only a restore does that)."""

    def work(problems: _Problems) -> list[Session]:
        if _check_envelope(data, ["group"], problems) is None:
            return []
        body = _must_dict(data.get("group"), "group", problems)
        if body is None:
            return []
        if group.sessions.exists():
            problems.add("group", "not_empty",
                         _("A group file can only be imported into a group without sessions."),
                         CONFLICT)
            return []
        _import_group_body(body, "group", _Context(group), problems)
        return list(group.sessions.order_by("created_at", "id"))

    out: list[Session] = _run(work)
    return out


def _import_group_body(body: dict[str, Any], path: str, ctx: _Context,
                       problems: _Problems) -> None:
    roster = _must_list(body.get("roster", []), _join(path, "roster"), problems, MAX_ROSTER)
    sessions = _must_list(body.get("sessions"), _join(path, "sessions"), problems, MAX_SESSIONS)
    if roster is None or sessions is None:
        return
    taken = {rosters.name_key(n) for n in ctx.group.players.values_list("name", flat=True)}
    for i, name in enumerate(roster):
        try:
            cleaned = rosters.clean_name(name, "name")
        except services.InputError as e:
            problems.add(_join(path, "roster", i), e.code, input_error_message(e))
            continue
        if rosters.name_key(cleaned) not in taken:
            Player.objects.create(group=ctx.group, name=cleaned)
            taken.add(rosters.name_key(cleaned))
    for i, item in enumerate(sessions):
        _import_session(item, _join(path, "sessions", i), ctx, problems)
    tournaments = _must_list(body.get("tournaments", []), _join(path, "tournaments"), problems,
                             MAX_SESSIONS)
    if tournaments is None or problems:
        return
    for i, item in enumerate(tournaments):
        _import_tournament(item, _join(path, "tournaments", i), ctx, problems)


def _import_tournament(obj: Any, path: str, ctx: _Context, problems: _Problems) -> None:
    """A tournament of a group file: made again through its use case (its choices checked
    as when it was made), its players and rounds as the file has them, each table on the
    session of its uid that this import made; each closed round's results made again
    from its tables' deals (docs/tournaments.md). New table codes and a new screen link."""
    from .tournaments import services as tour
    from .tournaments import tables as table_rules

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
    try:
        made = tour.tournament_create(
            group=ctx.group, user=None, name=body.get("name"), game=body.get("game"),
            preset=body.get("preset") if isinstance(body.get("preset"), str) else None,
            overrides=rules, rounds=body.get("rounds"), round_ends=body.get("round_ends"),
            deals_per_round=body.get("deals_per_round"), table_size=body.get("table_size"),
            scoring=body.get("scoring"), draw=body.get("draw"), stake=body.get("stake"),
            currency=body.get("currency"))
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
        Entrant.objects.create(tournament=made, player=player, number=number,
                               withdrawn=entry.get("withdrawn") is True)
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
                code=sharing.new_token())
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


def sniff_kind(data: Any) -> str | None:
    """``session`` or ``group`` for a file the upload form takes, else None."""
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if kind in ("session", "group") else None


# --- backups: the whole instance --------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    users: int
    users_kept: int
    groups: int
    sessions: int


def instance_is_empty() -> bool:
    return not (Group.objects.exists() or get_user_model().objects.exists())


def backup_restore(*, data: Any, merge: bool = False) -> Restored:
    """A backup file into this instance. Without ``merge`` the database must be empty;
    with it, every group is added as a new group and accounts that exist already (by
    username) are kept as they are."""

    def work(problems: _Problems) -> Restored:
        if _check_envelope(data, ["backup"], problems) is None:
            return Restored(0, 0, 0, 0)
        if not merge and not instance_is_empty():
            problems.add("", "not_empty",
                         _("The database already has groups or accounts."), CONFLICT)
            return Restored(0, 0, 0, 0)
        users, kept = _restore_users(data.get("users"), problems)
        groups = _must_list(data.get("groups"), "groups", problems, MAX_SESSIONS)
        if groups is None or problems:
            return Restored(0, 0, 0, 0)
        sessions = 0
        for i, item in enumerate(groups):
            path = _join("groups", i)
            body = _must_dict(item, path, problems)
            if body is None:
                continue
            name = _text(body.get("name"), _join(path, "name"), problems, most=80)
            if not name or not name.strip():
                continue
            hidden = hidden_character(name)  # as rosters.clean_name refuses
            if hidden is not None:
                e = services.InputError("name", "bad character", "bad_character", char=hidden)
                problems.add(_join(path, "name"), e.code, input_error_message(e))
                continue
            group = Group.objects.create(name=" ".join(name.split()))
            _restore_members(group, body.get("members", []), _join(path, "members"), users,
                             problems)
            _import_group_body(body, path, _Context(group, users=users), problems)
            _restore_links(group, body.get("links", []), _join(path, "links"), users,
                           problems)
            sessions += group.sessions.count()
        return Restored(len(users) - kept, kept, len(groups), sessions)

    out: Restored = _run(work)
    return out


def _restore_users(value: Any, problems: _Problems) -> tuple[dict[str, Any], int]:
    User = get_user_model()
    items = _must_list(value, "users", problems, MAX_USERS)
    out: dict[str, Any] = {}
    kept = 0
    for i, item in enumerate(items or []):
        where = _join("users", i)
        row = _must_dict(item, where, problems)
        if row is None:
            continue
        username = _text(row.get("username"), _join(where, "username"), problems, most=150)
        password = _text(row.get("password"), _join(where, "password"), problems, most=128)
        email = _text(row.get("email", ""), _join(where, "email"), problems, most=254)
        joined = _time(row.get("date_joined"), _join(where, "date_joined"), problems)
        last = _time(row.get("last_login"), _join(where, "last_login"), problems, null=True)
        if not username or password is None or username in out:
            if username in out:
                problems.add(_join(where, "username"), "duplicate", _("appears twice"))
            continue
        existing = User.objects.filter(username=username).first()
        if existing is not None:
            out[username] = existing
            kept += 1
            continue
        if problems:
            continue
        out[username] = User.objects.create(
            username=username, password=password, email=email or "",
            first_name=str(row.get("first_name") or "")[:150],
            last_name=str(row.get("last_name") or "")[:150],
            is_active=row.get("is_active") is not False,
            is_staff=row.get("is_staff") is True,
            is_superuser=row.get("is_superuser") is True,
            date_joined=joined, last_login=last,
        )
    return out, kept


def _restore_members(group: Group, value: Any, path: str, users: Mapping[str, Any],
                     problems: _Problems) -> None:
    items = _must_list(value, path, problems, MAX_MEMBERS)
    seen = set()
    for i, item in enumerate(items or []):
        where = _join(path, i)
        row = _must_dict(item, where, problems)
        if row is None:
            continue
        username = row.get("username")
        user = users.get(username) if isinstance(username, str) else None
        if user is None or username in seen:
            problems.add(_join(where, "username"), "unknown_user",
                         _("names no account of this backup, or one twice"))
            continue
        seen.add(username)
        if row.get("role") not in Membership.Role.values:
            problems.add(_join(where, "role"), "not_choice",
                         _("must be owner, editor or viewer"))
            continue
        Membership.objects.create(group=group, user=user, role=row["role"])


def _restore_links(group: Group, value: Any, path: str, users: Mapping[str, Any],
                   problems: _Problems) -> None:
    """Which roster player is which member (backups from before links have none)."""
    items = _must_list(value, path, problems, MAX_ROSTER)
    roster = {rosters.name_key(p.name): p for p in group.players.all()}
    members = set(group.memberships.values_list("user_id", flat=True))
    taken_players, taken_users = set(), set()
    for i, item in enumerate(items or []):
        where = _join(path, i)
        row = _must_dict(item, where, problems)
        if row is None:
            continue
        name, username = row.get("player"), row.get("username")
        player = roster.get(rosters.name_key(name)) if isinstance(name, str) else None
        user = users.get(username) if isinstance(username, str) else None
        if player is None or player.pk in taken_players:
            problems.add(_join(where, "player"), "unknown_player",
                         _("names nobody on the group's roster, or somebody twice"))
            continue
        if user is None or user.pk not in members or user.pk in taken_users:
            problems.add(_join(where, "username"), "unknown_user",
                         _("names no member of this group, or one twice"))
            continue
        taken_players.add(player.pk)
        taken_users.add(user.pk)
        Player.objects.filter(pk=player.pk).update(user=user)
