"""Season test data: evenings of each game with a known outcome, a finished tournament, and
a season over them (docs/tournaments.md, "Seasons")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from scorepad import services
from scorepad.models import Group, Season, Session, Tournament
from scorepad.seasons import services as seasons
from scorepad.tournaments import services as tour

from .tournament_play import drawn, finish_game, record, seats, sweep, tournament

DAY = dt.date(2026, 3, 1)


def day(n: int) -> dt.date:
    return DAY + dt.timedelta(days=n)


def season(group: Group, who: Any, **fields: Any) -> Season:
    given = {"name": "Jahreswertung 2026", "game": "mulatschak", "start": "2026-01-01",
             "end": "2026-12-31", "events": "both", **fields}
    return seasons.season_create(group, who, given)


def evening(group: Group, who: Any, winners: list[str], *, at: dt.date = DAY,
            names: tuple[str, ...] = ("Anna", "Bert", "Cilli", "Dominik"),
            then: str | None = None, close: bool = True, game: str = "mulatschak",
            preset: str = "geiser") -> Session:
    """A Geiser evening: a game won by each of ``winners`` in turn (two sweeps each);
    ``then``: one more sweep by that player (the last game unfinished)."""
    session = services.session_start(group=group, user=who, preset=preset, overrides=None,
                                     seats=list(names), dealer=names[-1], game=game)
    services.session_describe(session=session, date=at)
    for winner in winners:
        finish_game(session, who, winner)
    if then is not None:
        record(session, who, sweep(session, then))
    if close:
        services.session_set_status(session=session, status=Session.Status.CLOSED)
    session.refresh_from_db()
    return session


def finished_tournament(group: Group, who: Any, winners: list[str], *, at: dt.date = DAY,
                        players: int = 8, finish: bool = True,
                        withdrawn: tuple[str, ...] = ()) -> Tournament:
    """A one-round Geiser tournament of ``players`` at tables of four, each table's game
    won by the first of ``winners`` seated there (else by its first seat); ``withdrawn``:
    players registered besides them who withdraw before round 1."""
    made = tournament(group, who, players=players, rounds=1, date=at.isoformat())
    for name in withdrawn:
        tour.entrant_register(tournament=made, name=name)
        tour.entrant_withdraw(tournament=made, name=name)
    the_round = drawn(made, who)
    for table in the_round.tables.select_related("session"):
        seated = seats(table.session)
        winner = next((w for w in winners if w in seated), seated[0])
        finish_game(table.session, who, winner)
    tour.round_close(tournament=made, number=the_round.number)
    if finish:
        tour.tournament_change(tournament=made, status=Tournament.Status.FINISHED)
    made.refresh_from_db()
    return made
