"""Use cases of the scorepad: load → referee → save, each one atomic.

The HTML views and the API call these functions and nothing else to change data, so a
rule lives in exactly one place (the referee) and every write goes through one path.

Inside the referee a seated player is named by their player id (as text): renaming a
player changes no recorded deal. Names come back in only at the edges.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from referee import tally
from referee.deal import DealResult, deal_from_dict, deal_to_dict, score_deal
from referee.money import parse_stake
from referee.muller_matz import muller_matz_rules
from referee.mura import mura_rules
from referee.rules import MulatschakRules, mulatschak_rules
from referee.session import (
    DealOutcome,
    GameSummary,
    IllegalDeal,
    SessionState,
    apply,
    pending_multiplier,
    replay,
    start,
    table_for,
)
from referee.violations import RuleError, Violation

from . import fastpoll
from .models import (
    Deal,
    DealEvent,
    Group,
    IdempotencyKey,
    Invite,
    Membership,
    Player,
    Removal,
    Seat,
    Session,
)


class ServiceError(Exception):
    """A use case refused: nothing was changed."""


class InputError(ServiceError):
    """Malformed or impossible input (HTTP 400), naming the field."""

    def __init__(self, field: str, message: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code
        self.params = params

    @classmethod
    def from_rule_error(cls, error: RuleError, prefix: str = "") -> InputError:
        field = f"{prefix}.{error.field}" if prefix else error.field
        return cls(field, error.message, error.code, **error.params)


class RulesBroken(ServiceError):
    """The deal breaks a rule (HTTP 422); ``number`` is the deal where it does."""

    def __init__(self, violations: Sequence[Violation], number: int | None = None) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = tuple(violations)
        self.number = number


class Conflict(ServiceError):
    """Somebody else changed the session first (HTTP 409)."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


# --- groups and rosters -------------------------------------------------------------


MAX_NAME = 40
#: Unicode categories a name must not contain: controls, invisible formatting (zero-width
#: spaces, bidi overrides, soft hyphens) and lone surrogates. Blanks are folded to one space.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _clean_name(name: object, field: str) -> str:
    """A player's or group's name as stored: NFKC, blanks folded, nothing invisible."""
    if not isinstance(name, str):
        raise InputError(field, "must be a name", "not_name")
    normal = unicodedata.normalize("NFKC", name)
    for char in normal:
        if not char.isspace() and unicodedata.category(char) in HIDDEN_CATEGORIES:
            code = f"U+{ord(char):04X}"
            raise InputError(field, f"must not contain invisible or control characters "
                             f"({code})", "bad_character", char=code)
    cleaned = " ".join(normal.split())
    if not cleaned:
        raise InputError(field, "must be a name", "not_name")
    if len(cleaned) > MAX_NAME:
        raise InputError(field, f"must be at most {MAX_NAME} characters", "too_long",
                         max=MAX_NAME)
    return cleaned


def name_key(name: str) -> str:
    """What two names must share to be the same name (Unicode caseless matching:
    "Straße" is "STRASSE", "Ａnna" is "anna")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _name_taken(group: Group, name: str, but: int | None = None) -> bool:
    key = name_key(name)
    return any(name_key(other) == key for other in
               group.players.exclude(pk=but).values_list("name", flat=True))


@transaction.atomic
def group_create(*, user: Any, name: str) -> Group:
    group = Group.objects.create(name=_clean_name(name, "name"))
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    return group


def player_add(*, group: Group, name: str) -> Player:
    cleaned = _clean_name(name, "name")
    if _name_taken(group, cleaned):
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned)
    try:
        with transaction.atomic():
            return Player.objects.create(group=group, name=cleaned)
    except IntegrityError as e:  # a concurrent add of the same name
        raise InputError("name", "is already on the roster", "name_taken", name=cleaned) from e


def player_rename(*, player: Player, name: str) -> Player:
    cleaned = _clean_name(name, "name")
    if _name_taken(player.group, cleaned, but=player.pk):
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


def _already_linked(user: Any, name: str) -> InputError:
    username = user.get_username()
    return InputError("user", f"{username} is already {name} in this group",
                      "already_linked", username=username, name=name)


def _roster_players(group: Group, names: Sequence[str], field: str) -> list[Player]:
    """The roster's players for these names, adding the new ones (case-insensitive match)."""
    cleaned = [_clean_name(n, f"{field}.{i}") for i, n in enumerate(names)]
    if len({name_key(n) for n in cleaned}) != len(cleaned):
        raise InputError(field, "a name is seated twice", "seated_twice")
    existing = {name_key(p.name): p for p in group.players.all()}
    out = []
    for name in cleaned:
        player = existing.get(name_key(name))
        out.append(player if player is not None else player_add(group=group, name=name))
    return out


def member_set(*, group: Group, user: Any, role: str, by: Any = None) -> Membership:
    """Add a member or change their role; a group keeps at least one owner. ``by``: the
    owner asking, checked again under the group's lock (PermissionDenied if no longer)."""
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    rank = {Membership.Role.VIEWER: 0, Membership.Role.EDITOR: 1, Membership.Role.OWNER: 2}
    with transaction.atomic():
        _lock_group(group.pk, by)
        current = Membership.objects.select_for_update().filter(group=group, user=user).first()
        if current is not None and current.role == Membership.Role.OWNER and role != "owner":
            _keep_an_owner(group, user)
        if current is not None and rank[role] < rank[current.role]:
            _removed(group, user)
        membership, _ = Membership.objects.update_or_create(
            group=group, user=user, defaults={"role": role}
        )
        return membership


def member_remove(*, group: Group, user: Any, by: Any = None) -> None:
    """Remove a member (same rules and ``by`` as member_set); older invitations no longer
    let them in."""
    with transaction.atomic():
        _lock_group(group.pk, by)
        current = Membership.objects.select_for_update().filter(group=group, user=user).first()
        if current is None:
            raise InputError("username", "is not a member of this group", "not_member")
        if current.role == Membership.Role.OWNER:
            _keep_an_owner(group, user)
        current.delete()
        _removed(group, user)
        # Whoever leaves a group takes their name with them: no statistics follow.
        Player.objects.filter(group=group, user=user).update(user=None)


def _lock_group(group_id: int, owner: Any = None) -> None:
    """Membership changes of one group take turns (the group's row lock on PostgreSQL;
    SQLite's IMMEDIATE transactions take turns anyway): two owners removing or demoting
    each other at once cannot both see the other one still there. ``owner``, if given,
    must still be an owner once the lock is held (the access check ran before it)."""
    Group.objects.select_for_update().filter(pk=group_id).values_list("pk").first()
    if owner is not None and not Membership.objects.filter(
            group_id=group_id, user=owner, role=Membership.Role.OWNER).exists():
        raise PermissionDenied


def _removed(group: Group, user: Any) -> None:
    """Remember when the member lost access, so that older invitations stay closed to them."""
    Removal.objects.update_or_create(group=group, user=user,
                                     defaults={"at": timezone.now()})


def _keep_an_owner(group: Group, leaving: Any) -> None:
    others = Membership.objects.filter(group=group, role=Membership.Role.OWNER).exclude(
        user=leaving
    )
    if not others.exists():
        raise InputError("role", "a group needs at least one owner", "last_owner")


# --- sessions -------------------------------------------------------------------------


def session_rules(session: Session) -> MulatschakRules:
    """The Mulatschak rules frozen into the session when it started."""
    return mulatschak_rules(session.preset, session.rules)


def seat_ids(session: Session) -> list[str]:
    """The seated players' ids in seat order (asked once per session object: seats never
    change after the start)."""
    known = session.__dict__.get("_seat_ids")
    if known is None:
        known = [str(pid) for pid in session.seats.values_list("player_id", flat=True)]
        session.__dict__["_seat_ids"] = known
    return list(known)


@transaction.atomic
def _game_rules(game: str, preset: str, overrides: Mapping[str, object] | None
                ) -> tuple[str, dict[str, Any], int, int]:
    """The frozen rules of a new session: (preset name, parameters, fewest, most players)."""
    try:
        if game == Session.Game.MULATSCHAK:
            rules = mulatschak_rules(preset, overrides or {})
            return rules.name, rules.as_params(), rules.players_min, rules.players_max
        if game == Session.Game.MURA:
            mura = mura_rules(overrides or {})
            return "mura", dict(mura.as_params()), mura.players, mura.players
        matz = muller_matz_rules(overrides or {})
        return "muller_matz", dict(matz.as_params()), matz.players_min, matz.players_max
    except RuleError as e:
        raise InputError.from_rule_error(e, "rules") from e


def session_start(
    *,
    group: Group,
    user: Any,
    preset: str,
    overrides: Mapping[str, object] | None,
    seats: Sequence[str],
    dealer: str | None = None,
    game: str = Session.Game.MULATSCHAK,
    stake: str | None = None,
    currency: str | None = None,
) -> Session:
    """Start a session: rules frozen, players seated in the order of play (Mulatschak
    clockwise, Mura counter-clockwise), the first dealer, and an optional stake."""
    if game not in Session.Game.values:
        raise InputError("game", "must be mulatschak, mura or muller_matz", "not_choice",
                         choices=", ".join(Session.Game.values))
    name, params, fewest, most = _game_rules(game, preset, overrides)
    if not fewest <= len(seats) <= most:
        raise InputError("seats", f"seat {fewest} to {most} players", "players_count",
                         min=fewest, max=most)
    money = _stake(stake, currency)
    players = _roster_players(group, seats, "seats")
    first = players[-1]  # the last seat deals first unless the table says otherwise
    if dealer is not None:
        by_name = {name_key(p.name): p for p in players}
        chosen = by_name.get(name_key(" ".join(str(dealer).split())))
        if chosen is None:
            raise InputError("dealer", "must be one of the seated players", "not_seated")
        first = chosen
    session = Session.objects.create(
        group=group,
        game=game,
        preset=name,
        rules=params,
        first_dealer=first,
        stake=money[0] if money else None,
        currency=money[1] if money else "",
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    Seat.objects.bulk_create(
        Seat(session=session, player=p, position=i) for i, p in enumerate(players)
    )
    initial = game_of(session).start(session, [str(p.pk) for p in players])
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


# --- state <-> JSON ---------------------------------------------------------------------


def state_to_json(state: SessionState) -> dict[str, Any]:
    return {
        "game_number": state.game_number,
        "scores": dict(state.scores),
        "dealer": state.dealer,
        "collapses": state.collapses,
        "previous_stayed_home": sorted(state.previous_stayed_home),
        "game_over": state.game_over,
        "winners": list(state.winners),
        "games": [
            {"number": g.number, "final_scores": dict(g.final_scores), "winners": list(g.winners)}
            for g in state.games
        ],
        "deals": state.deals,
    }


def state_from_json(data: Mapping[str, Any]) -> SessionState:
    return SessionState(
        game_number=data["game_number"],
        scores=dict(data["scores"]),
        dealer=data["dealer"],
        collapses=data["collapses"],
        previous_stayed_home=frozenset(data["previous_stayed_home"]),
        game_over=data["game_over"],
        winners=tuple(data["winners"]),
        games=tuple(
            GameSummary(g["number"], dict(g["final_scores"]), tuple(g["winners"]))
            for g in data["games"]
        ),
        deals=data["deals"],
    )


def outcome_to_json(outcome: DealOutcome) -> dict[str, Any]:
    r = outcome.result
    return {
        "dealer": outcome.dealer,
        "game_number": outcome.game_number,
        "scores_before": dict(outcome.scores_before),
        "collapses_before": outcome.collapses_before,
        "multiplier": r.multiplier,
        "factors": [str(f) for f in r.factors],
        "deltas": dict(r.deltas),
        "base": dict(r.base),
        "reasons": {p: str(v) for p, v in r.reasons.items()},
        "scores_after": dict(r.scores_after),
        "declarer_made": r.declarer_made,
        "game_over": r.game_over,
        "winners": list(r.winners),
    }


# --- names <-> ids at the edge -----------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """Translate between the names a user types and the player ids the referee sees."""

    by_id: Mapping[str, str]

    @classmethod
    def of(cls, session: Session) -> Names:
        seats = session.seats.select_related("player")
        names = cls({str(s.player_id): s.player.name for s in seats})
        session.__dict__.setdefault("_seat_ids", list(names.by_id))
        return names

    @property
    def by_name(self) -> dict[str, str]:
        return {name.lower(): pid for pid, name in self.by_id.items()}

    def to_id(self, name: str) -> str:
        """The id of a seated player's name; unknown names stay as they are (for the
        referee to report as ``unknown_player``)."""
        return self.by_name.get(" ".join(name.split()).lower(), name)

    def to_name(self, pid: str) -> str:
        return self.by_id.get(pid, pid)

    #: Keys of recorded deals and results that name one player, list players, or map
    #: players to something (every game family).
    ONE = ("declarer", "muli_breaker", "dealer", "loser")
    LISTS = ("stayed_home", "winners", "finish_order", "order")
    MAPS = ("tricks", "exchanged", "deltas", "base", "reasons", "scores_before",
            "scores_after", "figures", "results", "mura_after", "zeros_after", "losses_after")

    def _translate(self, data: Mapping[str, Any], one: Any) -> dict[str, Any]:
        out = dict(data)
        for key in self.ONE:
            if isinstance(out.get(key), str):
                out[key] = one(out[key])
        for key in self.LISTS:
            if isinstance(out.get(key), list):
                out[key] = [one(p) if isinstance(p, str) else p for p in out[key]]
        for key in self.MAPS:
            if isinstance(out.get(key), dict):
                out[key] = {one(p): v for p, v in out[key].items()}
        if isinstance(out.get("trick_cards"), list):
            out["trick_cards"] = [self._trick(t, one) for t in out["trick_cards"]]
        return out

    @staticmethod
    def _trick(trick: Any, one: Any) -> Any:
        if not isinstance(trick, Mapping) or not isinstance(trick.get("cards"), Mapping):
            return trick  # malformed: the referee names the problem
        leader = trick.get("leader")
        return {"leader": one(leader) if isinstance(leader, str) else leader,
                "cards": {one(p): c for p, c in trick["cards"].items()}}

    def deal_ids(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A deal object as typed (names) → as stored (ids)."""
        return self._translate(data, self.to_id)

    def deal_names(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A stored deal or result (ids) → as shown (names)."""
        return self._translate(data, self.to_name)

    def violation(self, v: Violation) -> Violation:
        params = {
            k: self.to_name(x) if isinstance(x, str) else x for k, x in v.params.items()
        }
        return Violation.of(v.code, None if v.player is None else self.to_name(v.player),
                            **params)


# --- deals -------------------------------------------------------------------------------


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _locked(session: Session) -> Session:
    """The session row, locked for this transaction where the database can (PostgreSQL);
    SQLite serializes writers with IMMEDIATE transactions instead."""
    locked = Session.objects.select_for_update().get(pk=session.pk)
    if "_seat_ids" in session.__dict__:
        locked.__dict__["_seat_ids"] = session.__dict__["_seat_ids"]
    return locked


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
    session.__dict__.pop("last_number", None)
    fastpoll.publish_version(session.pk, session.version)


def _log(session: Session, number: int, action: str, before: Any, after: Any, user: Any) -> None:
    """Append to the session's history, in the transaction of the change itself."""
    DealEvent.objects.create(
        session=session, deal_number=number, action=action, before=before, after=after,
        user=_user(user),
    )


def scoreboard_etag(session: Session, *parts: str) -> str:
    """Changes whenever anything on the scoreboard can (every write bumps the version)."""
    from .conditional import etag_for

    return etag_for(session.pk, session.version, *parts)


def next_number(session: Session) -> int:
    """The number the next deal gets. A list of sessions reads it with the sessions
    (``last_number`` annotated: one query for all); a write that just recorded a deal
    knows it."""
    if "last_number" not in session.__dict__:  # remembered until the next write (_bump)
        session.__dict__["last_number"] = (
            session.deals.order_by("-number").values_list("number", flat=True).first())
    return int(session.__dict__["last_number"] or 0) + 1


def deal_record(
    *, session: Session, user: Any, data: Mapping[str, Any], number: int | None = None
) -> Deal:
    """Record the next deal (``data`` with player ids). ``number``, when given, is the deal
    number the client believes it records: if somebody else recorded it first → Conflict."""
    game = game_of(session)
    stored = game.normalize(data)
    with transaction.atomic():
        session = _locked(session)
        _check_open(session)
        expected = next_number(session)
        if number is not None and number != expected:
            raise Conflict("number_taken", number=number, expected=expected)
        try:
            result, new_state = game.apply(session, seat_ids(session), session.state, stored)
        except RulesBroken as e:
            raise RulesBroken(e.violations, expected) from e
        try:  # no savepoint: a clash leaves this transaction at once, rolled back whole
            row = Deal.objects.create(
                session=session,
                number=expected,
                kind=game.kind(stored),
                data=stored,
                result=result,
                created_by=_user(user),
            )
        except IntegrityError as e:
            raise Conflict("number_taken", number=expected, expected=expected + 1) from e
        _bump(session, new_state)
        _log(session, expected, DealEvent.Action.CREATE, None, row.data, user)
        session.__dict__["last_number"] = expected
        return row


def deal_preview(*, session: Session, data: Mapping[str, Any]) -> DealResult:
    """What the next deal would do (``data`` with player ids), without saving anything."""
    rules = session_rules(session)
    state = state_from_json({**session.state, "games": []})
    return score_deal(table_for(rules, seat_ids(session), state), deal_from_dict(data))


def correction_preview(*, session: Session, number: int, data: Mapping[str, Any]) -> DealResult:
    """What deal ``number`` would do if it were recorded like this, where it stands."""
    rules = session_rules(session)
    deals = list(session.deals.filter(number__lt=number).order_by("number"))
    result = replay(
        rules, seat_ids(session), str(session.first_dealer_id),
        [deal_from_dict(d.data) for d in deals],
    )
    return score_deal(table_for(rules, seat_ids(session), result.state), deal_from_dict(data))


def _replay_all(
    session: Session, deals: Sequence[Deal], changed: Mapping[int, dict[str, Any] | None]
) -> tuple[list[tuple[Deal, dict[str, Any]]], dict[str, Any]]:
    """Replay the session with some deals changed (None: deleted); refuse if any deal,
    there or later, breaks a rule where it then stands."""
    game = game_of(session)
    run = game.runner(session, seat_ids(session))
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


class _JsonRunner:
    """Replays deals through a game's ``apply`` on JSON states (small for Mura and Müller
    Matz, whose states do not grow)."""

    def __init__(self, game: Any, session: Session, seats: Sequence[str]) -> None:
        self.game, self.session, self.seats = game, session, seats
        self._state = game.start(session, seats)

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        result, self._state = self.game.apply(self.session, self.seats, self._state, data)
        return dict(result)

    def state(self) -> dict[str, Any]:
        return dict(self._state)


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
    session: Session,
    user: Any,
    number: int,
    data: Mapping[str, Any],
    version: int | None = None,
) -> Deal:
    """Correct deal ``number``; everything after it is replayed. ``version`` (from the GET
    of that deal) guards against overwriting somebody else's correction."""
    game = game_of(session)
    stored = game.normalize(data)
    with transaction.atomic():
        session = _locked(session)
        _check_open(session)
        deals = list(session.deals.order_by("number"))
        row = next((d for d in deals if d.number == number), None)
        if row is None:
            raise Deal.DoesNotExist
        if version is not None and version != row.version:
            raise Conflict("deal_changed", number=number, version=row.version)
        before = row.data
        replayed, state = _replay_all(session, deals, {number: stored})
        rows = Deal.objects.filter(pk=row.pk, version=row.version).update(
            data=stored, kind=game.kind(stored), version=F("version") + 1
        )
        if rows != 1:
            raise Conflict("deal_changed", number=number)
        row.data, row.kind, row.version = stored, game.kind(stored), row.version + 1
        _save_replay(session, replayed, state)
        _log(session, number, DealEvent.Action.UPDATE, before, row.data, user)
        row.refresh_from_db()
        return row


def deal_delete(*, session: Session, user: Any, number: int) -> None:
    """Remove deal ``number``; everything after it is replayed; the history keeps it."""
    with transaction.atomic():
        session = _locked(session)
        _check_open(session)
        deals = list(session.deals.order_by("number"))
        row = next((d for d in deals if d.number == number), None)
        if row is None:
            raise Deal.DoesNotExist
        replayed, state = _replay_all(session, deals, {number: None})
        before = row.data
        row.delete()
        _save_replay(session, replayed, state)
        _log(session, number, DealEvent.Action.DELETE, before, None, user)


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


INVITE_MAX_DAYS = 30
INVITE_MAX_USES = 100


class InviteGone(ServiceError):
    """The invitation is used up, expired or revoked, or was made before this user was
    removed from the group (or demoted): a new one is needed."""


def invite_create(*, group: Group, user: Any, role: str, days: int = INVITE_DAYS,
                  uses: int = 1) -> Invite:
    """A new invitation link for ``uses`` people, open for ``days`` days."""
    if role not in Membership.Role.values:
        raise InputError("role", "must be owner, editor or viewer", "not_choice",
                         choices="owner, editor, viewer")
    for field, value, most in (("days", days, INVITE_MAX_DAYS), ("uses", uses, INVITE_MAX_USES)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
            raise InputError(field, f"must be a whole number from 1 to {most}", "not_between",
                             min=1, max=most)
    return Invite.objects.create(
        group=group, token=new_token(), role=role, created_by=_user(user),
        expires_at=timezone.now() + timedelta(days=days), max_uses=uses,
    )


def _open(invites: Any) -> Any:
    return invites.filter(revoked_at__isnull=True, expires_at__gt=timezone.now(),
                          uses__lt=F("max_uses"))


def open_invites(group: Group) -> Any:
    """The group's invitations that can still let somebody in."""
    return _open(group.invites.all())


def invite_revoke(*, group: Group, invite_id: int) -> None:
    open_invites(group).filter(pk=invite_id).update(revoked_at=timezone.now())


def invite_by_token(token: str) -> Invite:
    """An open invite; Invite.DoesNotExist for unknown, expired, revoked or used-up tokens."""
    if not token or len(token) > 64:
        raise Invite.DoesNotExist
    return _open(Invite.objects.select_related("group")).get(token=token)


def invite_usable_by(invite: Invite, user: Any) -> bool:
    """False if ``user`` was removed from the group (or demoted) after the invite was
    made: an old link does not undo a removal."""
    return not Removal.objects.filter(group_id=invite.group_id, user=user,
                                      at__gte=invite.created_at).exists()


def invite_accept(*, invite: Invite, user: Any) -> Membership:
    """Join with the invite's role, using up one of its uses; a member keeps a higher role
    they already have (and uses nothing up). InviteGone when the invite is used up,
    expired or revoked by now, or older than the user's removal from the group."""
    rank = {Membership.Role.VIEWER: 0, Membership.Role.EDITOR: 1, Membership.Role.OWNER: 2}
    with transaction.atomic():
        _lock_group(invite.group_id)
        current = Membership.objects.filter(group_id=invite.group_id, user=user).first()
        if current is not None and rank[current.role] >= rank[invite.role]:
            return current
        if not invite_usable_by(invite, user):
            raise InviteGone("removed after the invite was made")
        taken = _open(Invite.objects.filter(pk=invite.pk)).update(uses=F("uses") + 1)
        if not taken:  # the last use went to somebody else meanwhile, or it was revoked
            raise InviteGone("used up, expired or revoked")
        membership, _ = Membership.objects.update_or_create(
            group_id=invite.group_id, user=user, defaults={"role": invite.role}
        )
        return membership


# --- idempotency -------------------------------------------------------------------------


class KeyReused(ServiceError):
    """The Idempotency-Key was already used for a different request."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    replayed: bool = False


def fingerprint(*parts: object) -> str:
    import hashlib
    import json

    text = json.dumps([str(p) if not isinstance(p, dict | list) else p for p in parts],
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def once(*, user: Any, key: str, print_: str, run: Callable[[], Answer]) -> Answer:
    """Run a write at most once per (user, key): a repeat of the same request gets the
    first answer again, even when both arrive at the same time.

    The key is claimed in the same transaction as the write: a concurrent twin waits on
    the unique constraint (PostgreSQL) or the write lock (SQLite), then finds the answer.
    A write that fails (an exception) leaves no key behind, so a retry runs it again.
    """
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyKey.objects.create(
                    user=user, key=key, fingerprint=print_, status=0, response=None
                )
        except IntegrityError:
            record = IdempotencyKey.objects.get(user=user, key=key)
            if record.fingerprint != print_:
                raise KeyReused(key) from None
            return Answer(record.status, record.response, replayed=True)
        answer = run()
        record.status, record.response = answer.status, answer.body
        record.save(update_fields=["status", "response"])
        return answer


# --- games: how each family turns a recorded deal into a new state --------------------------


class _MulatschakRunner:
    """Replays Mulatschak deals on the referee's own state, converting to JSON only at the
    end: the state lists every finished game, so a JSON round trip per deal would make a
    correction cost grow with the square of the session's length."""

    def __init__(self, session: Session, seats: Sequence[str]) -> None:
        self.rules, self.seats = session_rules(session), seats
        self._state = start(self.rules, seats, str(session.first_dealer_id))

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            outcome, self._state = apply(self.rules, self.seats, self._state,
                                         deal_from_dict(data))
        except IllegalDeal as e:
            raise RulesBroken(e.violations) from e
        return outcome_to_json(outcome)

    def state(self) -> dict[str, Any]:
        return state_to_json(self._state)


class MulatschakGame:
    """Deals as in RULES.md §2; the state is referee.session's SessionState as JSON."""

    def runner(self, session: Session, seats: Sequence[str]) -> _MulatschakRunner:
        return _MulatschakRunner(session, seats)

    def normalize(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return deal_to_dict(deal_from_dict(data))

    def kind(self, data: Mapping[str, Any]) -> str:
        return str(data["kind"])

    def start(self, session: Session, seats: Sequence[str]) -> dict[str, Any]:
        return state_to_json(start(session_rules(session), seats, str(session.first_dealer_id)))

    def apply(
        self, session: Session, seats: Sequence[str], state: Mapping[str, Any],
        data: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        # The finished games only ever get appended to: keep them out of the round trip,
        # so that recording a deal costs the same however many games the session has.
        games = list(state.get("games", []))
        try:
            outcome, new = apply(session_rules(session), seats,
                                 state_from_json({**state, "games": []}), deal_from_dict(data))
        except IllegalDeal as e:
            raise RulesBroken(e.violations) from e
        new_json = state_to_json(new)
        new_json["games"] = games + new_json["games"]
        return outcome_to_json(outcome), new_json


@contextmanager
def _tallied() -> Iterator[None]:
    """A Mura or Müller Matz record through referee.tally: what it refuses as against the
    rules becomes RulesBroken (422), what it cannot read an InputError (400)."""
    try:
        yield
    except tally.IllegalRecord as e:
        raise RulesBroken(e.violations) from e
    except RuleError as e:
        raise InputError.from_rule_error(e) from e


class MuraGame:
    """A deal is ``{"tricks", "figures"}`` or ``{"trick_cards"}`` (RULES.md §3)."""

    def runner(self, session: Session, seats: Sequence[str]) -> _JsonRunner:
        return _JsonRunner(self, session, seats)

    def normalize(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if data.get("trick_cards") is not None:
            return {"trick_cards": [dict(t) for t in data["trick_cards"]]}
        return {"tricks": dict(data.get("tricks") or {}),
                "figures": dict(data.get("figures") or {})}

    def kind(self, data: Mapping[str, Any]) -> str:
        return "cards" if "trick_cards" in data else "counts"

    def start(self, session: Session, seats: Sequence[str]) -> dict[str, Any]:
        return _mura_json(tally.mura_start(seats, str(session.first_dealer_id)))

    def apply(
        self, session: Session, seats: Sequence[str], state: Mapping[str, Any],
        data: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        before = tally.MuraState(dict(state["mura"]), dict(state["zeros"]), state["dealer"],
                                 state["deals"])
        with _tallied():
            result, after = tally.mura_apply(seats, before, data)
        return (
            {"dealer": before.dealer,
             "results": {p: r.as_dict() for p, r in result.results.items()},
             "mura_after": dict(after.mura), "zeros_after": dict(after.zeros)},
            _mura_json(after),
        )


def _mura_json(state: tally.MuraState) -> dict[str, Any]:
    return {"mura": dict(state.mura), "zeros": dict(state.zeros), "dealer": state.dealer,
            "deals": state.deals}


class MatzGame:
    """A game is ``{"finish_order": [...]}`` or ``{"loser": player}`` (RULES.md §4)."""

    def runner(self, session: Session, seats: Sequence[str]) -> _JsonRunner:
        return _JsonRunner(self, session, seats)

    def normalize(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if data.get("finish_order") is not None:
            return {"finish_order": list(data["finish_order"])}
        return {"loser": data.get("loser")}

    def kind(self, data: Mapping[str, Any]) -> str:
        return "order" if "finish_order" in data else "loser"

    def start(self, session: Session, seats: Sequence[str]) -> dict[str, Any]:
        state = tally.matz_start(seats)
        return {"losses": dict(state.losses), "games": 0}

    def apply(
        self, session: Session, seats: Sequence[str], state: Mapping[str, Any],
        data: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        before = tally.MatzState(dict(state["losses"]), state["games"])
        with _tallied():
            result, after = tally.matz_apply(seats, before, data)
        return (
            {"loser": result.loser, "order": list(result.order), "game_number": after.games,
             "losses_after": dict(after.losses)},
            {"losses": dict(after.losses), "games": after.games},
        )


GAMES: dict[str, Any] = {
    Session.Game.MULATSCHAK: MulatschakGame(),
    Session.Game.MURA: MuraGame(),
    Session.Game.MULLER_MATZ: MatzGame(),
}


def game_of(session: Session) -> Any:
    return GAMES[session.game]


# --- reading --------------------------------------------------------------------------------


def scoreboard(session: Session, names: Names | None = None) -> dict[str, Any]:
    """The scoreboard of API.md, from the cached state: a constant number of queries."""
    names = names or Names.of(session)
    if session.game == Session.Game.MURA:
        return _mura_board(session, names)
    if session.game == Session.Game.MULLER_MATZ:
        return _matz_board(session, names)
    rules = session_rules(session)
    state = state_from_json({**session.state, "games": []})  # the games are read as JSON
    multiplier, factors = pending_multiplier(rules, state)
    order = list(names.by_id)
    board = {
        "game_number": state.game_number,
        "scores": {names.to_name(p): state.scores[p] for p in order},
        "next_dealer": names.to_name(state.dealer),
        "pending_multiplier": multiplier,
        "pending_factors": list(factors),
        "game_over": state.game_over,
        "winners": [names.to_name(p) for p in state.winners],
        "games": [
            {
                "number": g["number"],
                "final_scores": {names.to_name(p): g["final_scores"][p] for p in order},
                "winners": [names.to_name(p) for p in g["winners"]],
            }
            for g in session.state.get("games", [])
        ],
        "deals": state.deals,
    }
    return _with_status_and_money(session, names, board)


def _mura_board(session: Session, names: Names) -> dict[str, Any]:
    state = session.state
    order = list(names.by_id)
    per = session.rules.get("zeros_per_mura", 9)
    board = {
        "mura": {names.to_name(p): state["mura"][p] for p in order},
        "zeros": {names.to_name(p): state["zeros"][p] for p in order},
        "zeros_to_next_mura": {names.to_name(p): per - state["zeros"][p] % per for p in order},
        "next_dealer": names.to_name(state["dealer"]),
        "deals": state["deals"],
    }
    return _with_status_and_money(session, names, board)


def _matz_board(session: Session, names: Names) -> dict[str, Any]:
    from referee.muller_matz import packs_for

    state = session.state
    order = list(names.by_id)
    board = {
        "losses": {names.to_name(p): state["losses"][p] for p in order},
        "games_played": state["games"],
        "packs": packs_for(len(order)),
    }
    return _with_status_and_money(session, names, board)


def _with_status_and_money(session: Session, names: Names, board: dict[str, Any]
                           ) -> dict[str, Any]:
    # the number the next deal gets: not always deals + 1, since a removed deal's
    # number stays with it in the history
    board |= {"status": session.status, "version": session.version,
              "next_number": next_number(session)}
    if session.stake is not None or session.game != Session.Game.MULATSCHAK:
        # API.md lists balances for Mura and Müller Matz: all zero without a stake
        board["balances"] = settlement(session, names)["balances"]
    return board


def settlement(session: Session, names: Names | None = None) -> dict[str, Any]:
    """Who pays whom: balances (adding up to exactly zero), a plan of at most n − 1
    transfers, and for Mura the pair-by-pair amounts; all amounts as decimal strings."""
    from referee.money import Penalty, settle, transfer_plan

    names = names or Names.of(session)
    order = list(names.by_id)
    out: dict[str, Any] = {
        "game": session.game,
        "stake": None if session.stake is None else str(_quantized(session)),
        "currency": session.currency or None,
    }
    if session.stake is None:
        zero = {names.to_name(p): "0.00" for p in order}
        return out | {"balances": zero, "pairs": [], "transfers": []}
    stake, currency = _quantized(session), session.currency
    if session.game == Session.Game.MURA:
        state = session.state
        penalties = {p: Penalty(state["mura"][p], state["zeros"][p]) for p in order}
        result = settle(stake, currency, penalties,
                        zeros_per_mura=session.rules.get("zeros_per_mura", 9))
        body = result.as_dict()
        out["penalties"] = {names.to_name(p): {"mura": penalties[p].mura,
                                               "zeros": penalties[p].zeros} for p in order}
        out["zeros_per_mura"] = session.rules.get("zeros_per_mura", 9)
        return out | {
            "balances": {names.to_name(p): v for p, v in body["balances"].items()},
            "pairs": [_named(t, names) for t in body["pairs"]],
            "transfers": [_named(t, names) for t in body["transfers"]],
        }
    if session.game == Session.Game.MULLER_MATZ:
        state = session.state
        balances = tally.matz_balances(tally.MatzState(state["losses"], state["games"]),
                                       stake, currency)
        pairs: list[dict[str, str]] = []
    else:
        games = state_from_json(session.state).games
        payments = [
            pay for g in games
            for pay in tally.game_payments(g.final_scores, g.winners, stake, currency)
        ]
        balances = tally.balances_of(payments, order, currency)
        pairs = [{"from": a, "to": b, "amount": str(x)} for a, b, x in payments]
        out["games"] = len(games)
    return out | {
        "balances": {names.to_name(p): str(balances[p]) for p in order},
        "pairs": [_named(t, names) for t in pairs],
        "transfers": [_named(t.as_dict(), names) for t in transfer_plan(balances)],
    }


def _quantized(session: Session) -> Decimal:
    from referee.money import minor_unit

    assert session.stake is not None
    return Decimal(session.stake).quantize(Decimal(1).scaleb(-minor_unit(session.currency)))


def _named(transfer: Mapping[str, str], names: Names) -> dict[str, str]:
    return {"from": names.to_name(transfer["from"]), "to": names.to_name(transfer["to"]),
            "amount": transfer["amount"]}
