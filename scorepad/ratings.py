"""Ratings across a season: per group and game family, who is the strongest player of the
table and how each one's form runs (docs/using.md, "Ratings across a season").

The rating is a published model of the ``openskill`` library, never maths of our own:
Weng and Lin's Bayesian approximation with the Bradley-Terry model over every pair of
players (``BradleyTerryFull``). Every finished game of the season, as its game package
places its players (``Game.placings``), is one match in which each player is a team of
one. The full pairing treats players who share a place as a draw between them and beats
everybody placed below them; the library's Plackett-Luce model instead rated two joint
winners below the third of the same game (a game that only names its loser has everybody
else share the first place), so it is not the one used. The rating
shown is the library's conservative ``ordinal()`` (μ − 3σ): 0 for a player without a
game, rising as they place well.

Ratings are derived data, like every statistic here: computed from the stored deals in
the order the games were played (by the session's date, then when it was started), from
a fresh start at the season's first day. A correction replays its session (new results,
a new version), so nothing is kept that it could leave stale; the computed answer is
kept in the cache under the versions and dates of the sessions it was computed from
(any change to one of them, or a new or removed session, is another key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from openskill.models import BradleyTerryFull

from . import games, stats
from .cache import backend
from .models import Group, Player, Session

#: The library and model, as the API names them (``model``) and docs/rules.md describes.
LIBRARY = "openskill"
MODEL = "BradleyTerryFull"
MODEL_NAME = f"{LIBRARY} {MODEL}"
#: A player's ``trend``: the rating's change over their last this many games.
TREND_GAMES = 5
#: Seconds a computed answer is kept (its key names every session's version: a change
#: is a new key, so this only bounds what an idle group keeps).
CACHE_SECONDS = 3600


def _model() -> BradleyTerryFull:
    return BradleyTerryFull()


@dataclass
class PlayerRating:
    """One player's rating after the season's games so far."""

    player: str  # player id
    mu: float
    sigma: float
    games: int = 0
    #: The rating (ordinal) after each of the player's games: (the game's index in the
    #: season, rating).
    history: list[tuple[int, float]] = field(default_factory=list)

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def trend(self) -> float:
        """The change over the last ``TREND_GAMES`` games (from 0 before the first)."""
        if not self.history:
            return 0.0
        before = (self.history[-TREND_GAMES - 1][1] if len(self.history) > TREND_GAMES
                  else 0.0)
        return self.history[-1][1] - before


@dataclass(frozen=True)
class Ratings:
    """A group's ratings in one game family over a season: every rated player (by id),
    and the date of each of the season's games (their index is ``history``'s)."""

    game: str
    since: date | None
    players: dict[str, PlayerRating]
    dates: tuple[date, ...]

    def ordered(self) -> list[PlayerRating]:
        """Highest rating first; equal ratings by more games, then by player id."""
        return sorted(self.players.values(),
                      key=lambda r: (-r.rating, -r.games, int(r.player)))


def compute(records: Sequence[stats.SessionRecord], game: str,
            since: date | None = None) -> Ratings:
    """The ratings from these sessions of one family (played in this order), from
    nothing: each finished game rates its players by their places."""
    model = _model()
    players: dict[str, PlayerRating] = {}
    dates: list[date] = []
    family = games.get(game)
    for record in records:
        for placing in family.placings(record):
            if len(placing) < 2:
                continue
            order = list(placing)
            for pid in order:
                if pid not in players:
                    fresh = model.rating()
                    players[pid] = PlayerRating(pid, fresh.mu, fresh.sigma)
            teams = [[model.create_rating([players[p].mu, players[p].sigma])]
                     for p in order]
            rated = model.rate(teams, ranks=[placing[p] for p in order])
            index = len(dates)
            dates.append(record.session.date)
            for pid, team in zip(order, rated, strict=True):
                row = players[pid]
                row.mu, row.sigma = team[0].mu, team[0].sigma
                row.games += 1
                row.history.append((index, row.rating))
    return Ratings(game, since, players, tuple(dates))


def _sessions(group: Group | int, game: str, since: date | None) -> Any:
    rows = Session.objects.filter(group=group, game=game)
    if since is not None:
        rows = rows.filter(date__gte=since)
    return rows.order_by("date", "created_at", "id")


def _key(group_id: int, game: str, since: date | None, stamps: Sequence[Any]) -> str:
    text = repr((MODEL_NAME, group_id, game, since, list(stamps)))
    return "ratings:" + hashlib.sha256(text.encode()).hexdigest()[:40]


def group_ratings(group: Group, game: str, since: date | None = None, *,
                  fresh: bool = False) -> Ratings:
    """The group's ratings in ``game``'s family from ``since`` on (None: all time): from
    the cache when it has them for exactly these sessions as they are now (one small
    query), else computed and kept. ``fresh``: computed, whatever the cache has."""
    sessions = _sessions(group, game, since)
    stamps = list(sessions.values_list("pk", "version", "date", "status"))
    key = _key(group.pk, game, since, stamps)
    if not fresh:
        kept = backend.get(key)
        if isinstance(kept, Ratings):
            return kept
    ratings = compute(stats.load(sessions), game, since)
    backend.put(key, ratings, CACHE_SECONDS)
    return ratings


def families(group: Group) -> list[games.Game]:
    """The game families the group has sessions of, in the registry's order."""
    played = set(Session.objects.filter(group=group).values_list("game", flat=True)
                 .distinct())
    return [game for game in games.registered() if game.NAME in played]


def table(ratings: Ratings, names: dict[str, str]) -> list[dict[str, Any]]:
    """The answer's rows (``names``: player id → name), highest rating first."""
    return [{"player": names.get(r.player, "?"), "player_id": int(r.player),
             "rating": round(r.rating, 2), "games": r.games, "trend": round(r.trend, 2),
             "mu": round(r.mu, 4), "sigma": round(r.sigma, 4)}
            for r in ratings.ordered()]


def names_of(group: Group) -> dict[str, str]:
    return {str(pk): name for pk, name in Player.objects.filter(group=group)
            .values_list("pk", "name")}
