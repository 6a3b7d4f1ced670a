"""Use cases of the scorepad: load → referee → save, each one atomic.

The HTML views, the API and the importer call these functions and nothing else to change
data, so a rule lives in exactly one place (the referee) and every write goes through one
path. Every use case checks what it is given (a malformed deal is an InputError naming
the field, never a KeyError) and refuses with a domain error (``scorepad.errors``); what a
refusal looks like (a 400, a 422, a form error) is decided at the edge.

Deals come in as typed (player names) and are stored by player id, so renaming a player
changes no recorded deal; ``Loaded`` (the session with its seats) translates. Whatever
differs between games is asked of the session's game module (``scorepad.games``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils import timezone
from rest_framework.exceptions import ValidationError as FieldValidationError

from referee.money import parse_stake
from referee.violations import RuleError

from . import fastpoll, games
from .errors import (
    Conflict,
    FieldProblem,
    InputError,
    KeyReused,
    NotFound,
    RulesBroken,
    ServiceError,
    flatten,
)
from .fields import StrictIntegerField
from .games.base import named_transfer, stake_of
from .loaded import Loaded, Names, last_number
from .models import Deal, DealEvent, Group, Invite, Membership, Player, Seat, Session

__all__ = [  # the domain errors and the loaded session, for the callers' convenience
    "Conflict", "InputError", "KeyReused", "Loaded", "Names", "NotFound", "RulesBroken",
    "ServiceError",
]


# --- accounts --------------------------------------------------------------------------------


def account_register(*, username: str, password: str) -> Any:
    """A new account: the username by Django's rules and free (whatever its case), the
    password by the password validators."""
    User = get_user_model()
    try:
        User._meta.get_field("username").run_validators(username)
    except DjangoValidationError as e:
        raise _worded("username", e) from e
    if User.objects.filter(username__iexact=username).exists():
        raise InputError("username", "is taken", "username_taken")
    try:
        password_validation.validate_password(password, User(username=username))
    except DjangoValidationError as e:
        raise _worded("password", e) from e
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError as e:  # a twin of this request came first
        raise InputError("username", "is taken", "username_taken") from e


def account_token(*, user: Any) -> str:
    """The account's API token, made on first asking."""
    from rest_framework.authtoken.models import Token

    token, _created = Token.objects.get_or_create(user=user)
    return str(token.key)


def _worded(field: str, error: DjangoValidationError) -> InputError:
    """Django's validators speak the user's language already."""
    return InputError.of(FieldProblem(field, "invalid", str(m), worded=True)
                         for m in error.messages)


# --- groups and rosters -------------------------------------------------------------


MAX_NAME = 40


def clean_name(name: object, field: str) -> str:
    """A roster name as typed: spaces collapsed, at most MAX_NAME characters."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(field, "must be a name", "not_name")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME:
        raise InputError(field, f"must be at most {MAX_NAME} characters", "too_long",
                         max=MAX_NAME)
    return cleaned


@transaction.atomic
def group_create(*, user: Any, name: str) -> Group:
    group = Group.objects.create(name=clean_name(name, "name"))
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    return group


def player_add(*, group: Group, name: str) -> Player:
    cleaned = clean_name(name, "name")
    if group.players.filter(name__iexact=cleaned).exists():
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned)
    try:
        with transaction.atomic():
            return Player.objects.create(group=group, name=cleaned)
    except IntegrityError as e:  # a concurrent add of the same name
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned) from e


def player_rename(*, player: Player, name: str) -> Player:
    cleaned = clean_name(name, "name")
    clash = player.group.players.filter(name__iexact=cleaned).exclude(pk=player.pk)
    if clash.exists():
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(name=cleaned)
            # Scoreboards show names: their ETags must change too.
            Session.objects.filter(seats__player=player).update(version=F("version") + 1)
            fastpoll.publish_versions(lambda: Session.objects.filter(
                seats__player=player).values_list("pk", "version").distinct())
    except IntegrityError as e:
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned) from e
    player.name = cleaned
    return player


def player_link(*, player: Player, user: Any | None) -> Player:
    """Link the roster player to a member's account ("this is me"), or unlink it (None).

    An account stands behind at most one player of a group (the database says so too);
    who may link whom is asked first (``access.check_link``).
    """
    if user is not None:
        if not Membership.objects.filter(group_id=player.group_id, user=user).exists():
            raise InputError("user", "is not a member of this group", "not_member")
        other = (Player.objects.filter(group_id=player.group_id, user=user)
                 .exclude(pk=player.pk).first())
        if other is not None:
            raise _already_linked(user, other.name)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(user=user)
    except IntegrityError as e:  # a concurrent link of the same account
        raise _already_linked(user, "?") from e
    player.user = user
    return player


#: Leaves a field of ``player_change`` as it is.
UNCHANGED: Any = object()


@transaction.atomic
def player_change(*, player: Player, name: Any = UNCHANGED, user: Any = UNCHANGED) -> Player:
    """Rename the player and/or link them to an account (None: unlink), all or nothing."""
    if name is not UNCHANGED:
        player = player_rename(player=player, name=name)
    if user is not UNCHANGED:
        player = player_link(player=player, user=user)
    return player


def _already_linked(user: Any, name: str) -> InputError:
    username = user.get_username()
    return InputError("user", f"{username} is already {name} in this group",
                      "already_linked", username=username, name=name)


def _roster_players(group: Group, names: Sequence[str], field: str) -> list[Player]:
    """The roster's players for these names, adding the new ones (case-insensitive match)."""
    cleaned = [clean_name(n, f"{field}.{i}") for i, n in enumerate(names)]
    if len({n.lower() for n in cleaned}) != len(cleaned):
        raise InputError(field, "a name is seated twice", "seated_twice")
    existing = {
        p.lower_name: p
        for p in group.players.annotate(lower_name=Lower("name")).filter(
            lower_name__in=[n.lower() for n in cleaned]
        )
    }
    out = []
    for name in cleaned:
        player = existing.get(name.lower())
        out.append(player if player is not None else player_add(group=group, name=name))
    return out


def member_set(*, group: Group, user: Any, role: str) -> Membership:
    """Add a member or change their role; a group keeps at least one owner."""
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    with transaction.atomic():
        current = Membership.objects.select_for_update().filter(group=group, user=user).first()
        if current is not None and current.role == Membership.Role.OWNER and role != "owner":
            _keep_an_owner(group, user)
        membership, _ = Membership.objects.update_or_create(
            group=group, user=user, defaults={"role": role}
        )
        return membership


def member_remove(*, group: Group, user: Any) -> None:
    with transaction.atomic():
        current = Membership.objects.select_for_update().filter(group=group, user=user).first()
        if current is None:
            raise InputError("username", "is not a member of this group", "not_member")
        if current.role == Membership.Role.OWNER:
            _keep_an_owner(group, user)
        current.delete()
        # Whoever leaves a group takes their name with them: no statistics follow.
        Player.objects.filter(group=group, user=user).update(user=None)


def _keep_an_owner(group: Group, leaving: Any) -> None:
    others = Membership.objects.filter(group=group, role=Membership.Role.OWNER).exclude(
        user=leaving
    )
    if not others.exists():
        raise InputError("role", "a group needs at least one owner", "last_owner")


# --- sessions -------------------------------------------------------------------------


def _rules_of(game: games.Game, preset: str | None, overrides: Mapping[str, object] | None
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
    game: str = games.DEFAULT,
    stake: str | None = None,
    currency: str | None = None,
) -> Session:
    """Start a session: rules frozen, players seated in the order of play (Mulatschak
    clockwise, Mura counter-clockwise), the first dealer, and an optional stake. With
    ``group_name`` instead of a ``group``, a new group of ``user``'s is made for it. All
    or nothing: a refusal leaves no group, no roster name and no session behind."""
    if not isinstance(game, str) or game not in games.GAMES:
        raise InputError("game", "must be one of " + ", ".join(games.names()), "not_choice",
                         choices=", ".join(games.names()))
    the_game = games.get(game)
    frozen = _rules_of(the_game, preset, overrides)
    if not isinstance(seats, list | tuple) or not frozen.fewest <= len(seats) <= frozen.most:
        raise InputError("seats", f"seat {frozen.fewest} to {frozen.most} players",
                         "players_count", min=frozen.fewest, max=frozen.most)
    money = _stake(stake, currency)
    if group is None:
        group = group_create(user=user, name=group_name or "")
    players = _roster_players(group, seats, "seats")
    first = players[-1]  # the last seat deals first unless the table says otherwise
    if dealer is not None:
        by_name = {p.name.lower(): p for p in players}
        chosen = by_name.get(" ".join(str(dealer).split()).lower())
        if chosen is None:
            raise InputError("dealer", "must be one of the seated players", "not_seated")
        first = chosen
    session = Session.objects.create(
        group=group,
        game=game,
        preset=frozen.preset,
        rules=frozen.params,
        first_dealer=first,
        stake=money[0] if money else None,
        currency=money[1] if money else "",
        created_by=_user(user),
    )
    Seat.objects.bulk_create(
        Seat(session=session, player=p, position=i) for i, p in enumerate(players)
    )
    initial = the_game.start(session, [str(p.pk) for p in players])
    Session.objects.filter(pk=session.pk).update(state=initial)
    session.state = initial
    return session


def _stake(stake: str | None, currency: str | None) -> tuple[Decimal, str] | None:
    """No stake, no money; a stake needs a currency and at most its minor unit's places."""
    if stake in (None, ""):
        return None
    code = (currency or "").strip().upper()
    if not code:
        raise InputError("currency", "is required with a stake", "missing")
    try:
        return parse_stake(str(stake), code), code
    except RuleError as e:
        raise InputError.from_rule_error(e) from e


def session_set_status(*, session: Session, status: str) -> Session:
    if status not in Session.Status.values:
        raise InputError("status", "must be open or closed", "not_choice",
                         choices="open, closed")
    closed_at = timezone.now() if status == Session.Status.CLOSED else None
    Session.objects.filter(pk=session.pk).update(
        status=status, closed_at=closed_at, version=F("version") + 1
    )
    session.refresh_from_db()
    fastpoll.publish_version(session.pk, session.version)
    return session


# --- deals -------------------------------------------------------------------------------


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _locked(session: Session) -> Session:
    """The session row, locked for this transaction where the database can (PostgreSQL);
    SQLite serializes writers with IMMEDIATE transactions instead."""
    return Session.objects.select_for_update().get(pk=session.pk)


def _check_open(session: Session) -> None:
    if session.status != Session.Status.OPEN:
        raise Conflict("session_closed")


def _bump(session: Session, state: dict[str, Any]) -> None:
    """Save the new state; fail if anybody changed the session since we read it."""
    rows = Session.objects.filter(pk=session.pk, version=session.version).update(
        state=state, version=F("version") + 1
    )
    if rows != 1:
        raise Conflict("session_changed")
    session.version += 1
    session.state = state
    fastpoll.publish_version(session.pk, session.version)


def _log(session: Session, number: int, action: str, before: Any, after: Any, user: Any) -> None:
    """Append to the session's history, in the transaction of the change itself."""
    DealEvent.objects.create(
        session=session, deal_number=number, action=action, before=before, after=after,
        user=_user(user),
    )


#: A deal number or version: what a client may say it is writing.
_GUARDS = {"number": StrictIntegerField(min_value=1, max_value=1_000_000),
           "version": StrictIntegerField(min_value=1)}


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
        if value is not None:
            try:
                _GUARDS[name].run_validation(value)
            except FieldValidationError as e:
                problems += flatten(e.detail, name)
    if problems:
        raise InputError.of(problems)
    return game.normalize(loaded.names.deal_ids(deal))


def deal_record(
    *, session: Session | Loaded, user: Any, data: object, number: Any = None
) -> Deal:
    """Record the next deal (``data`` as typed: player names). ``number``, when given, is
    the deal number the client believes it records: if somebody else recorded it first →
    Conflict."""
    loaded = Loaded.of(session)
    game = games.of(loaded.session)
    stored = _checked(loaded, data, number=number)
    with transaction.atomic():
        row_session = _locked(loaded.session)
        _check_open(row_session)
        expected = loaded.with_row(row_session).next_number
        if number is not None and number != expected:
            raise Conflict("number_taken", number=number, expected=expected)
        try:
            result, new_state = game.apply(row_session, loaded.seats, row_session.state,
                                           stored)
        except RulesBroken as e:
            raise RulesBroken(e.violations, expected) from e
        try:  # no savepoint: a clash leaves this transaction at once, rolled back whole
            row = Deal.objects.create(
                session=row_session,
                number=expected,
                kind=game.kind(stored),
                data=stored,
                result=result,
                created_by=_user(user),
            )
        except IntegrityError as e:
            raise Conflict("number_taken", number=expected, expected=expected + 1) from e
        _bump(row_session, new_state)
        _log(row_session, expected, DealEvent.Action.CREATE, None, row.data, user)
        return row


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
    session: Session, replayed: Iterable[tuple[Deal, dict[str, Any]]], state: dict[str, Any]
) -> None:
    changed = []
    for row, result in replayed:
        if row.result != result:
            row.result = result
            changed.append(row)
    Deal.objects.bulk_update(changed, ["result"], batch_size=500)
    _bump(session, state)


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
        row_session = _locked(loaded.session)
        _check_open(row_session)
        deals = list(row_session.deals.order_by("number"))
        row = next((d for d in deals if d.number == number), None)
        if row is None:
            raise NotFound(f"deal {number}")
        if version is not None and version != row.version:
            raise Conflict("deal_changed", number=number, version=row.version)
        before = row.data
        replayed, state = _replay_all(loaded, row_session, deals, {number: stored})
        rows = Deal.objects.filter(pk=row.pk, version=row.version).update(
            data=stored, kind=game.kind(stored), version=F("version") + 1
        )
        if rows != 1:
            raise Conflict("deal_changed", number=number)
        row.data, row.kind, row.version = stored, game.kind(stored), row.version + 1
        _save_replay(row_session, replayed, state)
        _log(row_session, number, DealEvent.Action.UPDATE, before, row.data, user)
        row.refresh_from_db()
        return row


def deal_delete(*, session: Session | Loaded, user: Any, number: int) -> None:
    """Remove deal ``number``; everything after it is replayed; the history keeps it."""
    loaded = Loaded.of(session)
    with transaction.atomic():
        row_session = _locked(loaded.session)
        _check_open(row_session)
        deals = list(row_session.deals.order_by("number"))
        row = next((d for d in deals if d.number == number), None)
        if row is None:
            raise NotFound(f"deal {number}")
        replayed, state = _replay_all(loaded, row_session, deals, {number: None})
        before = row.data
        row.delete()
        _save_replay(row_session, replayed, state)
        _log(row_session, number, DealEvent.Action.DELETE, before, None, user)


# --- reading --------------------------------------------------------------------------------


def scoreboard_etag(session: Session, *parts: str) -> str:
    """Changes whenever anything on the scoreboard can (every write bumps the version)."""
    from .conditional import etag_for

    return etag_for(session.pk, session.version, *parts)


def next_number(session: Session | Loaded) -> int:
    """The number the next deal gets (not always deals + 1: a removed deal keeps its
    number in the history)."""
    if isinstance(session, Loaded):
        return session.next_number
    return (last_number(session) or 0) + 1


def scoreboard(session: Session | Loaded, names: Names | None = None) -> dict[str, Any]:
    """The scoreboard of API.md, from the cached state: a constant number of queries."""
    loaded = Loaded.of(session, names)
    game = games.of(loaded.session)
    board = game.board(loaded.session, loaded.names)
    board |= {"status": loaded.session.status, "version": loaded.session.version,
              "next_number": loaded.next_number}
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


# --- sharing: watch links and invites ---------------------------------------------------

#: 32 bytes from ``secrets``: 256 bits, far beyond guessing (NOTES.md asks for 128+).
TOKEN_BYTES = 32
INVITE_DAYS = 7


def new_token() -> str:
    import secrets

    return secrets.token_urlsafe(TOKEN_BYTES)


def watch_link_create(*, session: Session) -> str:
    """The session's watch token, made now if it has none."""
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if not locked.watch_token:
            locked.watch_token = new_token()
            Session.objects.filter(pk=locked.pk).update(watch_token=locked.watch_token)
    session.watch_token = locked.watch_token
    return str(locked.watch_token)


def watch_link_revoke(*, session: Session) -> None:
    Session.objects.filter(pk=session.pk).update(watch_token=None)
    session.watch_token = None
    fastpoll.bump(fastpoll.watch_key(session.pk))


def session_by_watch_token(token: str) -> Session:
    """The session a watch link shows; Session.DoesNotExist for unknown or revoked ones."""
    if not token or len(token) > 64:
        raise Session.DoesNotExist
    return Session.objects.select_related("group").get(watch_token=token)


def watch_version(token: str) -> tuple[int, int] | None:
    """(session id, version) of a watch link's session in one small query; None for
    unknown or revoked tokens (a polled watch board needs no more before its 304)."""
    if not token or len(token) > 64:
        return None
    row = Session.objects.filter(watch_token=token).values_list("pk", "version").first()
    return None if row is None else (int(row[0]), int(row[1]))


def invite_create(*, group: Group, user: Any, role: str, days: int = INVITE_DAYS) -> Invite:
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    if not 1 <= days <= 30:
        raise InputError("days", "must be from 1 to 30", "too_large", max=30)
    return Invite.objects.create(
        group=group, token=new_token(), role=role, created_by=_user(user),
        expires_at=timezone.now() + timedelta(days=days),
    )


def open_invites(group: Group) -> Any:
    return group.invites.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())


def invite_revoke(*, group: Group, invite_id: int) -> None:
    open_invites(group).filter(pk=invite_id).update(revoked_at=timezone.now())


def invite_by_token(token: str) -> Invite:
    """An open invite; Invite.DoesNotExist for unknown, expired or revoked tokens."""
    if not token or len(token) > 64:
        raise Invite.DoesNotExist
    return Invite.objects.select_related("group").get(
        token=token, revoked_at__isnull=True, expires_at__gt=timezone.now()
    )


def invite_accept(*, invite: Invite, user: Any) -> Membership:
    """Join with the invite's role; a member keeps a higher role they already have."""
    rank = {Membership.Role.VIEWER: 0, Membership.Role.EDITOR: 1, Membership.Role.OWNER: 2}
    with transaction.atomic():
        current = Membership.objects.filter(group=invite.group, user=user).first()
        if current is not None and rank[current.role] >= rank[invite.role]:
            return current
        membership, _ = Membership.objects.update_or_create(
            group=invite.group, user=user, defaults={"role": invite.role}
        )
        return membership


