"""A session as one request has read it, passed around explicitly.

Inside the referee a seated player is named by their player id (as text): renaming a
player changes no recorded deal. ``Names`` translates between the names people type and
those ids; ``Loaded`` is the session row with its seats (read once: seats never change
after the start) and, once somebody asked, what it stands at (``SessionState``: the next
deal's number, the running state and the version, of one moment). Views build it once
per request and hand it to the services and games; nothing is remembered on the row it
was given (the deal write's locking read brings the seats along, as a value of its own:
``dealwrite.LockedSession``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import OuterRef, Subquery

from referee.violations import Violation

from .cache import versions

if TYPE_CHECKING:
    from .models import Session


@dataclass(frozen=True)
class PlayerKeys:
    """The keys of a game's stored deals and results that hold players (``Names``
    translates them between the names typed and the ids stored): one player, a list of
    players, a mapping from players, or a list of tricks (``{"leader", "cards"}``)."""

    one: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    maps: tuple[str, ...] = ()
    tricks: tuple[str, ...] = ()

    def __or__(self, other: PlayerKeys) -> PlayerKeys:
        def union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
            return a + tuple(k for k in b if k not in a)

        return PlayerKeys(union(self.one, other.one), union(self.lists, other.lists),
                          union(self.maps, other.maps), union(self.tricks, other.tricks))


#: Every registered game's ``PLAYER_KEYS`` together, put here by the registry
#: (``scorepad.games``) whenever it reads its setting: this module sits below the games.
_installed: dict[str, PlayerKeys] = {}


def install_player_keys(keys: PlayerKeys) -> None:
    _installed["now"] = keys


def player_keys() -> PlayerKeys:
    """The registered games' player keys (the registry is read when Django starts)."""
    try:
        return _installed["now"]
    except KeyError:
        raise RuntimeError("the games' registry has not been read yet") from None


@dataclass(frozen=True)
class Names:
    """Translate between the names a user types and the player ids the referee sees."""

    by_id: Mapping[str, str]

    @classmethod
    def of(cls, session: Session) -> Names:
        """The seated players in seat order: from the shared cache (scorepad.cache.versions),
        else one query."""

        def read() -> dict[str, str]:
            seats = session.seats.select_related("player")
            return {str(s.player_id): s.player.name for s in seats}

        return cls(versions.names(session.pk, read))

    @property
    def seats(self) -> list[str]:
        """The seated players' ids in seat order."""
        return list(self.by_id)

    @property
    def by_name(self) -> dict[str, str]:
        return {name.lower(): pid for pid, name in self.by_id.items()}

    def to_id(self, name: str) -> str:
        """The id of a seated player's name; unknown names stay as they are (for the
        referee to report as ``unknown_player``)."""
        return self.by_name.get(" ".join(name.split()).lower(), name)

    def to_name(self, pid: str) -> str:
        return self.by_id.get(pid, pid)

    def _translate(self, data: Mapping[str, Any], one: Any) -> dict[str, Any]:
        keys = player_keys()
        out = dict(data)
        for key in keys.one:
            if isinstance(out.get(key), str):
                out[key] = one(out[key])
        for key in keys.lists:
            if isinstance(out.get(key), list):
                out[key] = [one(p) if isinstance(p, str) else p for p in out[key]]
        for key in keys.maps:
            if isinstance(out.get(key), dict):
                out[key] = {one(p): v for p, v in out[key].items()}
        for key in keys.tricks:
            if isinstance(out.get(key), list):
                out[key] = [self._trick(t, one) for t in out[key]]
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


_UNKNOWN: Any = object()


def last_number(session: Session) -> int | None:
    """The number of the session's last deal (None before the first): one query."""
    number = session.deals.order_by("-number").values_list("number", flat=True).first()
    return None if number is None else int(number)


@dataclass(frozen=True)
class SessionState:
    """What a session stands at, of one moment: the number its next deal gets, its
    running state and its row's version. Read one after the other, a deal recorded in
    between was in one and not in the others: a phone counting its deals from the number
    and the state (the scoreboard's ``data-scorer``) left that deal out, and a client
    sending the scoreboard's version back as its precondition was refused once."""

    next_number: int
    state: Any
    version: int


def state_now(session: Session) -> SessionState:
    """The session's state as the database holds it now, in one statement; the row's as
    it was when the session is gone."""
    deals = session.deals.model.objects.filter(session_id=OuterRef("pk"))
    row = (type(session).objects.filter(pk=session.pk)
           .annotate(last=Subquery(deals.order_by("-number").values("number")[:1]))
           .values_list("last", "state", "version").first())
    if row is None:
        return SessionState((last_number(session) or 0) + 1, session.state, session.version)
    number, state, version = row
    return SessionState(int(number or 0) + 1, state, int(version))


class Loaded:
    """A session row with its seats and, once asked, what it stands at (``state``).

    The seats are read when first asked for (one query) unless ``names`` are given.
    ``last_number`` may be given when the caller knows it already, with the row of the
    same moment (a list of sessions annotates it: one query for all; a write that just
    recorded a deal knows it); otherwise ``state`` asks the database once, in one
    statement, and remembers the answer here. From then on ``session`` is a copy of the
    row given carrying that state and version (the row given stays as it was), so
    whatever reads the state from the session reads the same moment.
    """

    def __init__(self, session: Session, names: Names | None = None,
                 last_number: int | None = _UNKNOWN) -> None:
        self.session = session
        self._names = names
        self._state: SessionState | None = None
        if last_number is not _UNKNOWN:
            self._state = SessionState(int(last_number or 0) + 1, session.state,
                                       session.version)

    @classmethod
    def of(cls, session: Session | Loaded, names: Names | None = None) -> Loaded:
        """The session as loaded (``names``: its seats, if known already)."""
        if isinstance(session, Loaded):
            return session
        return cls(session, names)

    @property
    def names(self) -> Names:
        if self._names is None:
            self._names = Names.of(self.session)
        return self._names

    @property
    def seats(self) -> list[str]:
        return self.names.seats

    @property
    def state(self) -> SessionState:
        """What the session stands at: its next deal's number, its running state and its
        version, of one moment (read once)."""
        if self._state is None:
            self._state = now = state_now(self.session)
            self.session = copy.copy(self.session)
            self.session.state, self.session.version = now.state, now.version
        return self._state

    @property
    def next_number(self) -> int:
        """The number the next deal gets: not always deals + 1, since a removed deal's
        number stays with it in the history."""
        return self.state.next_number

    def with_row(self, session: Session, last_number: int | None = _UNKNOWN) -> Loaded:
        """The same seats on a newer copy of the row (after a write)."""
        return Loaded(session, self._names, last_number)


@dataclass(frozen=True)
class DealRow:
    """A stored deal as looking back reads it."""

    number: int
    kind: str
    data: Mapping[str, Any]
    result: Mapping[str, Any]


@dataclass(frozen=True)
class SessionRecord:
    """A session with its seats (player ids as text, seat order) and all its deals, as
    the statistics, the paper sheet and the charts read it (``stats.load``)."""

    session: Session
    seats: tuple[str, ...]
    names: Mapping[str, str]
    deals: tuple[DealRow, ...]
