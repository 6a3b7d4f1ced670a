"""Use cases of a tournament (docs/tournaments.md): make one, register and withdraw players,
draw a round, close it, end the tournament; and what the ranking, the director's page and
the screen read. Each write is atomic and raises the tournament's version (the ranking's
ETag); the tables are ordinary sessions (``services.session_seat``), whose deals go
through ``services`` as any session's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from .. import games, rosters, services, sharing
from ..errors import Conflict, InputError, NotFound
from ..fields import MAX_NAME
from ..models import (
    Entrant,
    Group,
    Player,
    Seat,
    Session,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from . import draw as drawing
from . import tables as table_rules
from .ranking import Entry, Standing, TableResult, ranking

#: The most rounds a tournament may have, and deals a round may last.
MAX_ROUNDS = 50
MAX_DEALS = 1000
TOURNAMENT_NAME_MAX = 80


class TablesUnfinished(Conflict):
    """A round cannot close while these tables play on (unless forced)."""

    def __init__(self, tables: Sequence[int]) -> None:
        super().__init__("tables_unfinished", tables=", ".join(map(str, tables)))
        self.tables = list(tables)


def _count(value: object, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InputError(field, f"must be a whole number from {low} to {high}", "not_between",
                         min=low, max=high)
    return value


def _choice(value: object, field: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise InputError(field, "must be one of " + ", ".join(choices), "not_choice",
                         choices=", ".join(choices))
    return str(value)


def _name(value: object) -> str:
    cleaned = rosters.clean_name(value, "name")
    return cleaned[:TOURNAMENT_NAME_MAX]


@transaction.atomic
def tournament_create(*, group: Group, user: Any, name: object, game: object,
                      preset: str | None = None, overrides: Mapping[str, object] | None = None,
                      rounds: object, round_ends: object, deals_per_round: object = None,
                      table_size: object, scoring: object, draw: object,
                      stake: str | None = None, currency: str | None = None) -> Tournament:
    """A tournament of the group: rules frozen as a session's, every choice checked."""
    cleaned = _name(name)
    the_game = games.get(_choice(game, "game", games.for_tournaments()))
    play = the_game.TOURNAMENT
    assert play is not None
    frozen = services.frozen_rules(the_game, preset, overrides)
    count = _count(rounds, "rounds", 1, MAX_ROUNDS)
    ends = _choice(round_ends, "round_ends", Tournament.RoundEnds.values)
    if ends == Tournament.RoundEnds.GAME and not play.ends_with_game:
        raise InputError("round_ends", "must be deals for this game", "needs_deals")
    per_round = (_count(deals_per_round, "deals_per_round", 1, MAX_DEALS)
                 if ends == Tournament.RoundEnds.DEALS else None)
    size = _count(table_size, "table_size", frozen.fewest, frozen.most)
    money = services.clean_stake(stake, currency)
    return Tournament.objects.create(
        group=group, name=cleaned, game=the_game.NAME, preset=frozen.preset,
        rules=frozen.params, seats_fewest=frozen.fewest, seats_most=frozen.most,
        rounds=count, round_ends=ends, deals_per_round=per_round,
        table_size=size, scoring=_choice(scoring, "scoring", Tournament.Scoring.values),
        draw=_choice(draw, "draw", Tournament.Draw.values),
        stake=money[0] if money else None, currency=money[1] if money else "",
        screen_token=sharing.new_token(), created_by=services.acting_account(user),
    )


def _locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for this transaction (its writes take turns)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.version += 1


def _registration_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished")
    if tournament.round_set.count() >= tournament.rounds:
        raise Conflict("registration_closed")


def entrant_register(*, tournament: Tournament, name: object) -> Entrant:
    """Register a player (a roster name of the group, added if new) with the next start
    number; open until the last round is drawn."""
    cleaned = rosters.clean_name(name, "name")
    with transaction.atomic():
        locked = _locked(tournament)
        _registration_open(locked)
        key = rosters.name_key(cleaned)
        if any(rosters.name_key(n) == key for n in
               locked.entrants.values_list("player__name", flat=True)):
            raise InputError("name", "is already registered", "already_registered",
                             name=cleaned)
        player = rosters.roster_players(locked.group, [cleaned], "name")[0]
        last = locked.entrants.aggregate(n=Max("number"))["n"] or 0
        entrant = Entrant.objects.create(tournament=locked, player=player, number=last + 1)
        _bump(locked)
        tournament.version = locked.version
        return entrant


def entrant_withdraw(*, tournament: Tournament, name: object) -> Entrant:
    """Withdraw a registered player: their results stay, they are not drawn again."""
    cleaned = rosters.clean_name(name, "name")
    with transaction.atomic():
        locked = _locked(tournament)
        key = rosters.name_key(cleaned)
        entrant = next((e for e in locked.entrants.select_related("player")
                        if rosters.name_key(e.player.name) == key), None)
        if entrant is None:
            raise InputError("name", "is not registered", "not_registered", name=cleaned)
        if not entrant.withdrawn:
            Entrant.objects.filter(pk=entrant.pk).update(withdrawn=True)
            entrant.withdrawn = True
            _bump(locked)
        return entrant


# --- drawing and closing rounds --------------------------------------------------------------


def _earlier_tables(tournament: Tournament) -> list[list[int]]:
    """Every earlier table's players (entrant ids by player)."""
    by_player = dict(tournament.entrants.values_list("player_id", "pk"))
    seats = (Seat.objects.filter(session__tournament_table__round__tournament=tournament)
             .values_list("session_id", "player_id"))
    grouped: dict[int, list[int]] = {}
    for session_id, player_id in seats:
        if player_id in by_player:
            grouped.setdefault(session_id, []).append(by_player[player_id])
    return list(grouped.values())


def round_draw(*, tournament: Tournament, user: Any,
               rng: random.Random | None = None) -> TournamentRound:
    """Draw the next round: every registered, not withdrawn player at a table (a new
    session each), seats and first dealers at random (docs/tournaments.md, "How tables
    are drawn"). Conflict while a round is open, once every round is drawn, or when the
    players cannot be seated."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.status == Tournament.Status.FINISHED:
            raise Conflict("tournament_finished")
        drawn = list(locked.round_set.all())
        if any(r.status == TournamentRound.Status.OPEN for r in drawn):
            raise Conflict("round_open", number=next(
                r.number for r in drawn if r.status == TournamentRound.Status.OPEN))
        if len(drawn) >= locked.rounds:
            raise Conflict("all_rounds_drawn", rounds=locked.rounds)
        game = games.get(locked.game)
        entrants = list(locked.entrants.filter(withdrawn=False).select_related("player"))
        sizes = drawing.table_sizes(len(entrants), locked.table_size, locked.seats_fewest,
                                    locked.seats_most)
        if sizes is None:
            raise Conflict("cannot_seat", players=len(entrants), size=locked.table_size)
        met = drawing.meetings(_earlier_tables(locked))
        ids = [e.pk for e in entrants]
        if locked.draw == Tournament.Draw.SWISS and drawn:
            lines = standings(locked)
            active = set(ids)
            by_player = {e.player_id: e.pk for e in entrants}
            order = [(by_player[int(line.entry.player)], line.key) for line in lines
                     if int(line.entry.player) in by_player
                     and by_player[int(line.entry.player)] in active]
            plan = drawing.draw_swiss(order, sizes, met, rng)
        else:
            plan = drawing.draw_random(ids, sizes, met, rng)
        number = len(drawn) + 1
        new_round = TournamentRound.objects.create(tournament=locked, number=number)
        by_id = {e.pk: e.player for e in entrants}
        money = (locked.stake, locked.currency) if locked.stake is not None else None
        for index, table in enumerate(plan, 1):
            seats, dealer = drawing.seat(table, rng)
            players = [by_id[e] for e in seats]
            session = services.session_seat(
                group=locked.group, game=game, preset=locked.preset, rules=locked.rules,
                players=players, dealer=by_id[dealer], money=money, user=user)
            TournamentTable.objects.create(round=new_round, number=index, session=session,
                                           code=sharing.new_token())
        Tournament.objects.filter(pk=locked.pk).update(
            version=F("version") + 1, status=Tournament.Status.PLAYING)
        return new_round


def _round(tournament: Tournament, number: object) -> TournamentRound:
    found = (tournament.round_set.filter(number=number).first()
             if isinstance(number, int) else None)
    if found is None:
        raise NotFound(f"round {number}")
    return found


def round_close(*, tournament: Tournament, number: int, force: bool = False
                ) -> TournamentRound:
    """End round ``number``: every table finished (else TablesUnfinished), or ``force``
    (each table stands as it is). Its tables' sessions close to new deals and their codes
    end; each table's result is kept for the ranking."""
    with transaction.atomic():
        locked = _locked(tournament)
        the_round = _round(locked, number)
        if the_round.status == TournamentRound.Status.CLOSED:
            raise Conflict("round_closed", number=number)
        limit = locked.deals_per_round or 0
        rows = list(the_round.tables.select_related("session").order_by("number"))
        results = {t.pk: t.result if table_rules.from_slip(t) else
                   table_rules.result_now(t, limit) for t in rows}
        open_tables = [t.number for t in rows if not results[t.pk]["finished"]]
        if open_tables and not force:
            raise TablesUnfinished(open_tables)
        for table in rows:
            TournamentTable.objects.filter(pk=table.pk).update(result=results[table.pk])
        now = timezone.now()
        TournamentRound.objects.filter(pk=the_round.pk).update(
            status=TournamentRound.Status.CLOSED, closed_at=now, forced=bool(open_tables))
        sessions = [t.session_id for t in rows]
        Session.objects.filter(pk__in=sessions).update(
            status=Session.Status.CLOSED, closed_at=now, version=F("version") + 1)
        services.versions.publish_versions(lambda: Session.objects.filter(
            pk__in=sessions).values_list("pk", "version"))
        _bump(locked)
        the_round.refresh_from_db()
        return the_round


def tournament_change(*, tournament: Tournament, status: object = None,
                      screen_hides_rounds: object = None, name: object = None) -> Tournament:
    """End the tournament (``status: "finished"``, once no round is open), hide the last
    closed rounds from the screen, or rename it."""
    with transaction.atomic():
        locked = _locked(tournament)
        changes: dict[str, Any] = {}
        if name is not None:
            changes["name"] = _name(name)
        if screen_hides_rounds is not None:
            changes["screen_hides_rounds"] = _count(screen_hides_rounds,
                                                    "screen_hides_rounds", 0, locked.rounds)
        if status is not None:
            _choice(status, "status", [Tournament.Status.FINISHED])
            if locked.status != Tournament.Status.FINISHED:
                open_round = locked.round_set.filter(
                    status=TournamentRound.Status.OPEN).first()
                if open_round is not None:
                    raise Conflict("round_open", number=open_round.number)
                changes |= {"status": Tournament.Status.FINISHED,
                            "finished_at": timezone.now()}
        if changes:
            Tournament.objects.filter(pk=locked.pk).update(version=F("version") + 1,
                                                           **changes)
        locked.refresh_from_db()
        return locked


def table_result_enter(*, tournament: Tournament, round_number: object,
                       table_number: object, figures: Mapping[str, Mapping[str, object]],
                       user: Any) -> TournamentTable:
    """A table's result from its paper score slip (docs/tournaments.md, "A table without a
    phone"): ``figures`` gives each of the game's slip columns a whole number per seated
    player (``{column: {player id: number}}``); the game makes the round scores of them
    as of a table's last deal. Kept as the table's result (who entered it, and when,
    beside it) whether its round is open or closed; the ranking follows. InputError
    naming ``<column>.<player id>`` for a missing or impossible figure: nothing kept."""
    with transaction.atomic():
        locked = _locked(tournament)
        the_round = _round(locked, round_number)
        table = (the_round.tables.select_related("session", "round")
                 .filter(number=table_number).first()
                 if isinstance(table_number, int) else None)
        if table is None:
            raise NotFound(f"table {table_number}")
        table_rules.result_store(table, table_rules.slip_result(
            table.session, figures, getattr(user, "pk", None), getattr(user, "username", ""),
            timezone.now().isoformat()))
        return table


# --- reading ---------------------------------------------------------------------------------


def _entries(tournament: Tournament) -> list[Entry[str]]:
    return [Entry(str(player_id), name, number) for player_id, name, number in
            tournament.entrants.order_by("number").values_list("player_id", "player__name",
                                                                  "number")]


def closed_results(tournament: Tournament, hide: int = 0) -> tuple[int, list[TableResult[str]]]:
    """(closed rounds counted, their tables' results), leaving out the last ``hide``
    closed rounds: one query, no deal read."""
    rows = list(TournamentTable.objects.filter(
        round__tournament=tournament, round__status=TournamentRound.Status.CLOSED)
        .values_list("round__number", "number", "result"))
    closed = sorted({r for r, _n, _res in rows})
    kept = set(closed[:max(len(closed) - hide, 0)])
    return len(kept), [TableResult(r, n, table_rules.decode(res.get("scores") or {}))
                       for r, n, res in rows if r in kept]


def standings(tournament: Tournament, hide: int = 0) -> list[Standing[str]]:
    _count_closed, results = closed_results(tournament, hide)
    return ranking(_entries(tournament), results, tournament.scoring)


def ranking_json(tournament: Tournament, hide: int = 0) -> dict[str, Any]:
    """The ranking of the closed rounds (less the last ``hide``), as the API answers it."""
    closed, results = closed_results(tournament, hide)
    lines = ranking(_entries(tournament), results, tournament.scoring)
    return {"rounds_closed": closed, "ranking": [line.as_json() for line in lines]}


@dataclass(frozen=True)
class LiveTable:
    """A table of a round as it stands: its session's state, read now."""

    table: TournamentTable
    seats: list[str]  # names in seat order
    dealer: str
    deals: int
    finished: bool
    scores: dict[str, Fraction]  # by name: the round score as it stands
    board: Mapping[str, Any]


def live_tables(tournament: Tournament, the_round: TournamentRound) -> list[LiveTable]:
    """Every table of the round with its progress (deals, finished, round scores), from
    its session's running state: a query for the tables and one for their seats."""
    rows = list(the_round.tables.select_related("session", "session__first_dealer")
                .order_by("number"))
    seats: dict[int, list[tuple[str, str]]] = {}
    for session_id, player_id, name in (Seat.objects.filter(
            session_id__in=[t.session_id for t in rows]).order_by("position")
            .values_list("session_id", "player_id", "player__name")):
        seats.setdefault(session_id, []).append((str(player_id), name))
    limit = tournament.deals_per_round or 0
    out = []
    for table in rows:
        session = table.session
        seated = seats.get(session.pk, [])
        play = table_rules.play_of(session)
        if table.result and (the_round.status == TournamentRound.Status.CLOSED
                             or table_rules.from_slip(table)):
            scores = table_rules.decode(table.result.get("scores") or {})
            finished, deals = bool(table.result["finished"]), int(table.result["deals"])
        else:
            scores = play.score_now(session, [p for p, _n in seated], session.state)
            finished = table_rules.finished_by_state(session, session.state, limit)
            deals = play.deals(session.state)
        names = dict(seated)
        out.append(LiveTable(table, [n for _p, n in seated],
                             names.get(str(session.first_dealer_id), ""), deals, finished,
                             {names[p]: v for p, v in scores.items() if p in names},
                             session.state))
    return out


def screen_ranking_key(tournament: Tournament, *parts: str) -> str:
    """What the screen's ranking part is rendered from: the closed rounds' kept results,
    the name and the status, each of which raises the tournament's version (no other
    query). A key on the server alone: the screen's ETag is of what it shows
    (``cache.answers.shown``)."""
    return "-".join([f"t{tournament.pk}", f"v{tournament.version}", "ranking", *parts])


def screen_live_key(token: str, *parts: str) -> str | None:
    """What the screen's live part (the open round's tables) is rendered from, in one
    query: the tournament's version (a round drawn or closed, a result entered, rounds
    hidden) and the number and summed versions of the open round's sessions (every deal,
    correction or undo raises one of them, and versions only grow, so the sum moves with
    each). A key on the server alone, as ``screen_ranking_key``. None: no such screen."""
    from django.db.models import Count, Q, Sum

    from ..ids import is_token

    if not is_token(token):
        return None
    is_open = Q(round_set__status=TournamentRound.Status.OPEN)
    row = (Tournament.objects.filter(screen_token=token)
           .annotate(live=Sum("round_set__tables__session__version", filter=is_open),
                     tables=Count("round_set__tables", filter=is_open))
           .values_list("pk", "version", "live", "tables").first())
    if row is None:
        return None
    pk, version, live, tables = row
    return "-".join([f"t{pk}", f"v{version}", f"s{live or 0}x{tables}", "live", *parts])


def drawn_from_hidden(tournament: Tournament, the_round: TournamentRound) -> bool:
    """Were ``the_round``'s tables drawn from standings the screen hides? A Swiss draw
    seats by the standings of every round closed before it, so while the screen hides
    closed rounds (all of them before the open round), the open round's seating would
    tell them: the screen shows its tables without names (docs/tournaments.md, "The
    screen")."""
    return (tournament.draw == Tournament.Draw.SWISS and tournament.screen_hides_rounds > 0
            and the_round.number > 1)


def table_by_code(code: str) -> TournamentTable | None:
    """The table a phone's code names while its round is open; None otherwise."""
    from ..ids import is_token

    if not is_token(code):
        return None
    return (TournamentTable.objects.select_related("round__tournament")
            .filter(code=code, round__status=TournamentRound.Status.OPEN)
            .exclude(round__tournament__status=Tournament.Status.FINISHED).first())


def tournament_by_screen(token: str) -> Tournament | None:
    from ..ids import is_token

    if not is_token(token):
        return None
    return Tournament.objects.filter(screen_token=token).first()


def players_of(tournament: Tournament) -> list[dict[str, Any]]:
    return [{"name": name, "number": number, "withdrawn": withdrawn}
            for name, number, withdrawn in tournament.entrants.order_by("number")
            .values_list("player__name", "number", "withdrawn")]


def roster_names(tournament: Tournament) -> list[str]:
    """The group's roster names not registered yet (offered at the door)."""
    taken = set(tournament.entrants.values_list("player_id", flat=True))
    return [p.name for p in Player.objects.filter(group_id=tournament.group_id)
            .exclude(pk__in=taken).order_by("name")]


__all__ = ["MAX_NAME", "TablesUnfinished"]
