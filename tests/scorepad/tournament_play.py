"""Tournament test data: a director, their group, a tournament, players, and deals that
finish a table (a Geiser game ends in two deals; Mura deals as counts)."""

from __future__ import annotations

import random
from typing import Any

from scorepad import services
from scorepad.models import Session, Tournament, TournamentRound
from scorepad.tournaments import services as tour

NAMES = ["Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz", "Gerti", "Hans", "Ida",
         "Josef", "Karl", "Lisi", "Maria", "Nora", "Otto", "Paula", "Resi", "Sepp",
         "Toni", "Uschi"]


def tournament(group: Any, user: Any, players: int = 16, **kw: Any) -> Tournament:
    args: dict[str, Any] = {"name": "Preisschnapsen", "game": kw.pop("game", None) or
                            services.games.for_tournaments()[0],
                            "preset": "geiser", "rounds": 3, "round_ends": "game",
                            "table_size": 4, "scoring": "placement", "draw": "random"}
    args.update(kw)
    made = tour.tournament_create(group=group, user=user, **args)
    for name in NAMES[:players]:
        tour.entrant_register(tournament=made, name=name)
    made.refresh_from_db()
    return made


def drawn(t: Tournament, user: Any, seed: int = 1) -> TournamentRound:
    return tour.round_draw(tournament=t, user=user, rng=random.Random(seed))


def seats(session: Session) -> list[str]:
    return list(services.Names.of(session).by_id.values())


def record(session: Session, user: Any, data: dict[str, Any]) -> Any:
    names = services.Names.of(session)
    return services.deal_record(session=session, user=user, data=names.deal_ids(data))


def sweep(session: Session, winner: str) -> dict[str, Any]:
    """A Geiser deal: ``winner`` declares 4 in hearts and takes all five tricks (−10,
    everybody else +10): two of them end the game."""
    tricks = dict.fromkeys(seats(session), 0)
    tricks[winner] = 5
    return {"kind": "played", "declarer": winner, "bid": 4, "trump": "hearts",
            "tricks": tricks, "stayed_home": []}


def finish_game(session: Session, user: Any, winner: str) -> None:
    record(session, user, sweep(session, winner))
    record(session, user, sweep(session, winner))


def mura_deal(session: Session, figures: dict[str, int]) -> dict[str, Any]:
    """Two tricks each, ``figures`` by name (a player with fewer than three: two mura)."""
    return {"tricks": dict.fromkeys(seats(session), 2), "figures": figures}
