"""A session as one request has read it, passed around explicitly.

Inside the referee a seated player is named by their player id (as text): renaming a
player changes no recorded deal. ``Names`` translates between the names people type and
those ids; ``Loaded`` is the session row with its seats (read once: seats never change
after the start) and, once somebody asked, the number of its last deal. Views build it
once per request and hand it to the services and games; nothing is remembered on the
row itself (the deal write's locking read brings the seats along, as a value of its own:
``dealwrite.LockedSession``).
"""

from __future__ import annotations

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


def last_number_and_state(session: Session) -> tuple[int | None, Any]:
    """The number of the session's last deal and its running state, read in one statement,
    so of one moment: read one after the other, a deal recorded in between was in the
    number and not in the state, and a phone counting its deals from both (the
    scoreboard's ``data-scorer``) left that deal out. The row's state as it was when the
    session is gone."""
    deals = session.deals.model.objects.filter(session_id=OuterRef("pk"))
    row = (type(session).objects.filter(pk=session.pk)
           .annotate(last=Subquery(deals.order_by("-number").values("number")[:1]))
           .values_list("last", "state").first())
    if row is None:
        return last_number(session), session.state
    number, state = row
    return (None if number is None else int(number)), state


class Loaded:
    """A session row with its seats and, once asked, its last deal number.

    The seats are read when first asked for (one query) unless ``names`` are given.
    ``last_number`` may be given when the caller knows it already (a list of sessions
    annotates it: one query for all; a write that just recorded a deal knows it);
    otherwise ``next_number`` asks the database once and remembers the answer here.
    """

    def __init__(self, session: Session, names: Names | None = None,
                 last_number: int | None = _UNKNOWN) -> None:
        self.session = session
        self._names = names
        self._last = last_number

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
    def next_number(self) -> int:
        """The number the next deal gets: not always deals + 1, since a removed deal's
        number stays with it in the history."""
        if self._last is _UNKNOWN:
            # with the state of the same moment (the row may have been read before a deal)
            self._last, self.session.state = last_number_and_state(self.session)
        return int(self._last or 0) + 1

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
