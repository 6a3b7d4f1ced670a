"""Import: a session file or a group file into a group, replayed deal by deal."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import dealwrite, games, rosters, services
from ..fields import MAX_NAME
from ..messages import input_error_message, violation_message
from ..models import Deal, DealEvent, Group, Player, Session
from .fileformat import (
    CONFLICT,
    MAX_DEALS,
    MAX_EVENTS,
    MAX_ROSTER,
    MAX_SESSIONS,
    RULES,
    ImportRejected,
    _check_envelope,
    _Context,
    _int,
    _join,
    _must_dict,
    _must_list,
    _Problems,
    _text,
    _time,
    _uid,
)
from .seasons import _import_season
from .tournaments import _import_tournament

# --- import: one session ---------------------------------------------------------------------


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


def _import_categories(value: Any, path: str, ctx: _Context, problems: _Problems) -> None:
    """Roster players' categories: ``[{"player": name, "category": text}]`` (an older
    file has none); a name not on the roster is a problem."""
    items = _must_list(value, path, problems, MAX_ROSTER)
    by_key = {rosters.name_key(p.name): p for p in ctx.group.players.all()}
    for i, item in enumerate(items or []):
        where = _join(path, i)
        entry = _must_dict(item, where, problems)
        if entry is None:
            continue
        name = entry.get("player")
        player = by_key.get(rosters.name_key(name)) if isinstance(name, str) else None
        if player is None:
            problems.add(_join(where, "player"), "not_found", _("is not on the roster"))
            continue
        try:
            cleaned = rosters.clean_category(entry.get("category"))
        except services.InputError as e:
            problems.add(_join(where, "category"), e.code, input_error_message(e))
            continue
        Player.objects.filter(pk=player.pk).update(category=cleaned)


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
    _import_categories(body.get("categories", []), _join(path, "categories"), ctx, problems)
    for i, item in enumerate(sessions):
        _import_session(item, _join(path, "sessions", i), ctx, problems)
    tournaments = _must_list(body.get("tournaments", []), _join(path, "tournaments"), problems,
                             MAX_SESSIONS)
    if tournaments is None or problems:
        return
    for i, item in enumerate(tournaments):
        _import_tournament(item, _join(path, "tournaments", i), ctx, problems)
    seasons = _must_list(body.get("seasons", []), _join(path, "seasons"), problems,
                         MAX_SESSIONS)
    for i, item in enumerate(seasons or []):
        _import_season(item, _join(path, "seasons", i), ctx, problems)


