"""Use cases of a tournament (docs/tournaments.md): make one, register and withdraw players,
draw a round, close it, end the tournament; and what the ranking, the director's page and
the screen read. Each write is atomic and raises the tournament's version (the ranking's
ETag); the tables are ordinary sessions (``services.session_seat``), whose deals go
through ``services`` as any session's.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from .. import games, rosters, services, sharing
from ..cache import backend, screens, table_codes
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
from . import formats
from . import tables as table_rules
from .prizes import Prize, awards, money, pot, remainder
from .ranking import (
    LOT,
    Entry,
    Format,
    Standing,
    TableResult,
    in_category,
    lot_order,
    prize_order,
    ranking,
)

#: The most rounds a tournament may have, and deals a round may last.
MAX_ROUNDS = 50
MAX_DEALS = 1000
TOURNAMENT_NAME_MAX = 80


class TablesUnfinished(Conflict):
    """A round cannot close while these tables play on, or (with ``confirm_results``)
    while these finished tables' results are not confirmed (unless forced)."""

    def __init__(self, tables: Sequence[int], unconfirmed: Sequence[int] = ()) -> None:
        if tables:
            super().__init__("tables_unfinished", tables=", ".join(map(str, tables)))
        else:
            super().__init__("tables_unconfirmed", tables=", ".join(map(str, unconfirmed)))
        self.tables = list(tables)
        self.unconfirmed = list(unconfirmed)


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


#: The format fields (docs/tournaments.md, "Tournament formats"): optional when making a
#: tournament, changed only while it is registering.
FORMAT_FIELDS = ("scoring", "rank_points", "tiebreaks", "final_tables", "confirm_results",
                 "date", "entry_fee", "currency", "prizes")


def _formats(given: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any]:
    """The format fields ``given`` (each optional) checked and made what the tournament
    keeps, against ``current`` (what it has, or the defaults): ``combined`` scoring needs
    ``rank_points``. InputError naming the first wrong field."""
    out: dict[str, Any] = {}
    if "scoring" in given:
        out["scoring"] = _choice(given["scoring"], "scoring", Tournament.Scoring.values)
    if "rank_points" in given:
        out["rank_points"] = ([] if given["rank_points"] is None
                              else formats.clean_rank_points(given["rank_points"]))
    if "tiebreaks" in given:
        out["tiebreaks"] = formats.clean_tiebreaks(given["tiebreaks"])
    if "final_tables" in given:
        out["final_tables"] = formats.clean_final_tables(given["final_tables"])
    if "confirm_results" in given:
        out["confirm_results"] = formats.clean_flag(given["confirm_results"],
                                                    "confirm_results")
    if "date" in given:
        out["date"] = services.clean_session_date(given["date"])
    if "entry_fee" in given:
        out["entry_fee"] = formats.clean_fee(given["entry_fee"])
    if "currency" in given:
        out["currency"] = formats.clean_currency(given["currency"])
    if "prizes" in given:
        out["prizes"] = ([] if given["prizes"] is None
                         else formats.clean_prizes(given["prizes"]))
    after = {**current, **out}
    if after["scoring"] == Tournament.Scoring.COMBINED and not after["rank_points"]:
        raise InputError("rank_points", "is required with combined scoring",
                         "rank_points_needed")
    return out


def _format_defaults() -> dict[str, Any]:
    return {f: Tournament._meta.get_field(f).get_default() for f in FORMAT_FIELDS}


@transaction.atomic
def tournament_create(*, group: Group, user: Any, name: object, game: object,
                      preset: str | None = None, overrides: Mapping[str, object] | None = None,
                      rounds: object, round_ends: object, deals_per_round: object = None,
                      table_size: object, scoring: object, draw: object,
                      stake: str | None = None, currency: str | None = None,
                      **choices: Any) -> Tournament:
    """A tournament of the group: rules frozen as a session's, every choice checked;
    ``choices``: the format fields (``FORMAT_FIELDS``), each optional."""
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
    unknown = set(choices) - set(FORMAT_FIELDS)
    assert not unknown, f"not a format field: {unknown}"
    money_now = services.clean_stake(stake, currency)
    given = {**choices, "scoring": scoring}
    if currency not in (None, ""):
        given["currency"] = money_now[1] if money_now else currency
    kept = {**_format_defaults(), **_formats(given, _format_defaults())}
    _draw = _choice(draw, "draw", Tournament.Draw.values)
    return Tournament.objects.create(
        group=group, name=cleaned, game=the_game.NAME, preset=frozen.preset,
        rules=frozen.params, seats_fewest=frozen.fewest, seats_most=frozen.most,
        rounds=count, round_ends=ends, deals_per_round=per_round,
        table_size=size, draw=_draw, stake=money_now[0] if money_now else None,
        screen_token=sharing.new_token(), created_by=services.acting_account(user),
        **kept,
    )


def needs_lot(tournament: Tournament) -> bool:
    """Does the tournament draw lots (and show them)? When a tie-break is by lot, when
    it has a final, or when it has prizes."""
    return (LOT in (tournament.tiebreaks or []) or tournament.final_tables > 0
            or bool(tournament.prizes))


def format_of(tournament: Tournament) -> Format:
    return Format(tournament.scoring, formats.rank_points_exact(tournament.rank_points or []),
                  tuple(tournament.tiebreaks or ()))


def _locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for this transaction (its writes take turns)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.version += 1
    publish_versions(Tournament.objects.filter(pk=tournament.pk))


def publish_versions(tournaments: Any) -> None:
    """After the commit of a write that raised the versions of ``tournaments`` (a
    queryset): the screens' polls learn them from the shared cache (``cache.screens``)."""
    screens.publish(lambda: tournaments.values_list("screen_token", "version"))


def _registration_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished")
    if tournament.round_set.count() >= tournament.rounds:
        raise Conflict("registration_closed")


def _entrant(tournament: Tournament, name: object) -> Entrant:
    """The registered player of that name (capitals and spelling variants aside), or
    InputError naming ``name``."""
    cleaned = rosters.clean_name(name, "name")
    key = rosters.name_key(cleaned)
    entrant = next((e for e in tournament.entrants.select_related("player")
                    if rosters.name_key(e.player.name) == key), None)
    if entrant is None:
        raise InputError("name", f"{cleaned} is not registered", "not_registered",
                         name=cleaned)
    return entrant


def entrant_register(*, tournament: Tournament, name: object,
                     category: Any = rosters.UNCHANGED,
                     rng: random.Random | None = None) -> Entrant:
    """Register a player (a roster name of the group, added if new) with the next start
    number; open until the last round is drawn. ``category`` (given): the roster
    player's category (None: none). A latecomer after round 1 draws their lot now, where
    the tournament draws lots."""
    cleaned = rosters.clean_name(name, "name")
    if category is not rosters.UNCHANGED:
        category = rosters.clean_category(category)
    with transaction.atomic():
        locked = _locked(tournament)
        _registration_open(locked)
        key = rosters.name_key(cleaned)
        if any(rosters.name_key(n) == key for n in
               locked.entrants.values_list("player__name", flat=True)):
            raise InputError("name", f"{cleaned} is already registered",
                             "already_registered", name=cleaned)
        player = rosters.roster_players(locked.group, [cleaned], "name")[0]
        if category is not rosters.UNCHANGED:
            rosters.player_change(player=player, category=category or None)
        last = locked.entrants.aggregate(n=Max("number"))["n"] or 0
        entrant = Entrant.objects.create(tournament=locked, player=player, number=last + 1)
        if needs_lot(locked) and locked.round_set.exists():
            _latecomer_lot(locked, entrant, rng or random.SystemRandom())
        _bump(locked)
        tournament.version = locked.version
        return entrant


def _latecomer_lot(tournament: Tournament, entrant: Entrant, rng: random.Random) -> None:
    """A latecomer's lot: a place among the lots drawn so far, at random (the others
    keep their order)."""
    drawn = tournament.entrants.filter(lot__isnull=False).exclude(pk=entrant.pk).count()
    lot = rng.randint(1, drawn + 1)
    tournament.entrants.filter(lot__gte=lot).update(lot=F("lot") + 1)
    Entrant.objects.filter(pk=entrant.pk).update(lot=lot)
    entrant.lot = lot


def _draw_lots(tournament: Tournament, rng: random.Random) -> None:
    """The draw by lot of every registered player who has none yet (round 1)."""
    waiting = list(tournament.entrants.filter(lot__isnull=True).order_by("number"))
    if not waiting:
        return
    rng.shuffle(waiting)
    after = tournament.entrants.aggregate(n=Max("lot"))["n"] or 0
    for index, entrant in enumerate(waiting, 1):
        entrant.lot = after + index
    Entrant.objects.bulk_update(waiting, ["lot"])


def entrant_withdraw(*, tournament: Tournament, name: object) -> Entrant:
    """Withdraw a registered player: their results stay, they are not drawn again."""
    with transaction.atomic():
        locked = _locked(tournament)
        entrant = _entrant(locked, name)
        if not entrant.withdrawn:
            Entrant.objects.filter(pk=entrant.pk).update(withdrawn=True)
            entrant.withdrawn = True
            _bump(locked)
        return entrant


def entrant_change(*, tournament: Tournament, name: object,
                   category: Any = rosters.UNCHANGED, paid: Any = rosters.UNCHANGED
                   ) -> Entrant:
    """Mark a registered player as paid (or not), or set their roster player's category
    (None: none); at any time."""
    if category is not rosters.UNCHANGED:
        category = rosters.clean_category(category)
    if paid is not rosters.UNCHANGED:
        paid = formats.clean_flag(paid, "paid")
    with transaction.atomic():
        locked = _locked(tournament)
        entrant = _entrant(locked, name)
        if category is not rosters.UNCHANGED:
            entrant.player = rosters.player_change(player=entrant.player,
                                                   category=category or None)
        if paid is not rosters.UNCHANGED and paid != entrant.paid:
            Entrant.objects.filter(pk=entrant.pk).update(paid=paid)
            entrant.paid = paid
        _bump(locked)
        return entrant


def entrant_remove(*, tournament: Tournament, name: object) -> None:
    """Take back a registration (a mistyped name): only a player who has not been drawn
    to a table yet (Conflict otherwise: withdraw them). The roster keeps the name."""
    with transaction.atomic():
        locked = _locked(tournament)
        entrant = _entrant(locked, name)
        if Seat.objects.filter(player_id=entrant.player_id,
                               session__tournament_table__round__tournament=locked).exists():
            raise Conflict("entrant_played", name=entrant.player.name)
        entrant.delete()
        if entrant.lot is not None:
            locked.entrants.filter(lot__gt=entrant.lot).update(lot=F("lot") - 1)
        _bump(locked)


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
    are drawn"); round 1 draws the lots too, where the tournament needs them. After the
    last round, the final, if the tournament has one (``final_draw``). Conflict while a
    round is open, once every round is drawn, or when the players cannot be seated."""
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
            if locked.final_tables and not any(r.final for r in drawn):
                return _final_draw(locked, user, rng, len(drawn) + 1)
            raise Conflict("all_rounds_drawn", rounds=locked.rounds)
        entrants = list(locked.entrants.filter(withdrawn=False).select_related("player"))
        sizes = drawing.table_sizes(len(entrants), locked.table_size, locked.seats_fewest,
                                    locked.seats_most)
        if sizes is None:
            raise Conflict("cannot_seat", players=len(entrants), size=locked.table_size)
        if not drawn and needs_lot(locked):
            _draw_lots(locked, rng)
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
        return _seat_round(locked, entrants, plan, user, rng, len(drawn) + 1)


def _seat_round(locked: Tournament, entrants: Sequence[Entrant], plan: Sequence[Sequence[int]],
                user: Any, rng: random.Random, number: int, final: bool = False
                ) -> TournamentRound:
    """Make the round's tables (entrant ids by table): a session each, seats and the
    first dealer at random."""
    game = games.get(locked.game)
    new_round = TournamentRound.objects.create(tournament=locked, number=number, final=final)
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
    publish_versions(Tournament.objects.filter(pk=locked.pk))
    return new_round


def _final_draw(locked: Tournament, user: Any, rng: random.Random, number: int
                ) -> TournamentRound:
    """The final (docs/tournaments.md, "The final"): the first ``final_tables`` ×
    ``table_size`` players of the ranking who have not withdrawn (a tie across that cut
    decided by lot), the best ``table_size`` at table 1, the next at table 2, and so on;
    as many tables as there are players for. Conflict with fewer players than a table."""
    entrants = {str(e.player_id): e for e in
                locked.entrants.filter(withdrawn=False).select_related("player")}
    by_lot = sorted(standings(locked), key=lot_order)
    order = [entrants[line.entry.player] for line in
             sorted(by_lot, key=lambda line: line.key, reverse=True)
             if line.entry.player in entrants]
    size = locked.table_size
    count = min(locked.final_tables, len(order) // size)
    if count == 0:
        raise Conflict("final_too_few", players=len(order), size=size)
    plan = [[e.pk for e in order[i * size:(i + 1) * size]] for i in range(count)]
    return _seat_round(locked, order, plan, user, rng, number, final=True)


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
        unconfirmed = ([t.number for t in rows if results[t.pk]["finished"]
                        and not table_rules.is_confirmed(t)]
                       if locked.confirm_results else [])
        if (open_tables or unconfirmed) and not force:
            raise TablesUnfinished(open_tables, unconfirmed)
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
                      screen_hides_rounds: object = None, name: object = None,
                      **choices: Any) -> Tournament:
    """End the tournament (``status: "finished"``, once no round is open), hide the last
    closed rounds from the screen, rename it, or change its formats (``choices``: the
    format fields given; only while it is registering, else Conflict)."""
    with transaction.atomic():
        locked = _locked(tournament)
        changes: dict[str, Any] = {}
        if name is not None:
            changes["name"] = _name(name)
        if screen_hides_rounds is not None:
            changes["screen_hides_rounds"] = _count(screen_hides_rounds,
                                                    "screen_hides_rounds", 0, locked.rounds)
        if choices:
            unknown = set(choices) - set(FORMAT_FIELDS)
            assert not unknown, f"not a format field: {unknown}"
            current = {f: getattr(locked, f) for f in FORMAT_FIELDS}
            changes |= _formats(choices, current)
            if locked.status != Tournament.Status.REGISTERING:
                raise Conflict("formats_fixed")
            if "currency" in changes and not changes["currency"] and locked.stake is not None:
                raise InputError("currency", "is required with a stake", "missing")
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
            publish_versions(Tournament.objects.filter(pk=locked.pk))
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


def table_confirm(*, session_id: int, player: object) -> TournamentTable:
    """A seated player confirms their finished table's result (docs/tournaments.md,
    "Confirming a table's result"): InputError naming ``player`` for a name not seated
    there (checked first), Conflict while the table is not finished, NotFound for a
    session that is no tournament's table. The table's session gets a new version (its
    page says so), the tournament too."""
    with transaction.atomic():
        session = Session.objects.select_for_update().filter(pk=session_id).first()
        table = (TournamentTable.objects.select_related("round__tournament")
                 .filter(session_id=session_id).first())
        if session is None or table is None:
            raise NotFound(f"table of session {session_id}")
        table.session = session
        seated = list(session.seats.order_by("position").values_list("player__name",
                                                                      flat=True))
        key = rosters.name_key(player) if isinstance(player, str) else None
        name = next((n for n in seated if rosters.name_key(n) == key), None)
        if name is None:
            raise InputError("player", "is not seated at this table", "not_seated_here",
                             name=str(player)[:MAX_NAME])
        tournament = table.round.tournament
        if not table_rules.is_finished(table, tournament.deals_per_round or 0):
            raise Conflict("table_not_finished", table=table.number)
        now = timezone.now()
        TournamentTable.objects.filter(pk=table.pk).update(confirmed_by=name,
                                                           confirmed_at=now)
        table.confirmed_by, table.confirmed_at = name, now
        Session.objects.filter(pk=session_id).update(version=F("version") + 1)
        services.versions.publish_versions(lambda: Session.objects.filter(
            pk=session_id).values_list("pk", "version"))
        Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
        publish_versions(Tournament.objects.filter(pk=tournament.pk))
        return table


def table_of_session(session_id: int) -> TournamentTable | None:
    return (TournamentTable.objects.select_related("round__tournament")
            .filter(session_id=session_id).first())


# --- reading ---------------------------------------------------------------------------------


def _entries(tournament: Tournament) -> list[Entry[str]]:
    return [Entry(str(player_id), name, number, lot, category, withdrawn)
            for player_id, name, number, lot, category, withdrawn in
            tournament.entrants.order_by("number").values_list(
                "player_id", "player__name", "number", "lot", "player__category",
                "withdrawn")]


@dataclass(frozen=True)
class Closed:
    """The closed rounds a ranking counts (less the hidden ones): how many, the
    qualifying rounds' tables and the final's."""

    rounds: int
    tables: list[TableResult[str]]
    final: list[TableResult[str]]


def closed_results(tournament: Tournament, hide: int = 0) -> Closed:
    """The closed rounds' results, leaving out the last ``hide`` closed rounds: one
    query, no deal read."""
    rows = list(TournamentTable.objects.filter(
        round__tournament=tournament, round__status=TournamentRound.Status.CLOSED)
        .values_list("round__number", "round__final", "number", "result"))
    closed = sorted({r for r, _f, _n, _res in rows})
    kept = set(closed[:max(len(closed) - hide, 0)])
    results = [(final, TableResult(r, n, table_rules.decode(res.get("scores") or {})))
               for r, final, n, res in rows if r in kept]
    return Closed(len(kept), [t for final, t in results if not final],
                  [t for final, t in results if final])


def standings(tournament: Tournament, hide: int = 0) -> list[Standing[str]]:
    """The ranking, best first, with its places: the final's order once it is closed.
    The one function the ranking, the prizes and the seasons read."""
    closed = closed_results(tournament, hide)
    return ranking(_entries(tournament), closed.tables, format_of(tournament), closed.final)


def _pot(tournament: Tournament) -> Decimal:
    return pot(tournament.entry_fee, tournament.entrants.filter(paid=True).count())


def prize_awards(tournament: Tournament, lines: Sequence[Standing[str]]) -> list[Any]:
    """Each prize with its worth now and who wins it as the ranking stands."""
    return awards([Prize.of(p) for p in tournament.prizes or []], prize_order(lines),
                  _pot(tournament))


def ranking_json(tournament: Tournament, hide: int = 0, category: str | None = None
                 ) -> dict[str, Any]:
    """The ranking of the closed rounds (less the last ``hide``), as the API answers it;
    every entry with what its position wins now (``prize``); ``category``: that
    category's players alone, each with their place in it."""
    closed = closed_results(tournament, hide)
    lines = ranking(_entries(tournament), closed.tables, format_of(tournament), closed.final)
    won = {id(a.winner): a.as_json(name=False) for a in prize_awards(tournament, lines)
           if a.winner is not None}
    show_lot = needs_lot(tournament)
    out = []
    for line in lines:
        entry = line.as_json(lot=show_lot)
        entry["prize"] = won.get(id(line))
        out.append(entry)
    if category:
        key = rosters.category_key(category)
        places = {id(line): place for place, line in
                  in_category(lines, key, rosters.category_key)}
        out = [{**entry, "place": places[id(line)]}
               for line, entry in zip(lines, out, strict=True) if id(line) in places]
    return {"rounds_closed": closed.rounds, "ranking": out}


def prizes_json(tournament: Tournament) -> dict[str, Any]:
    """``GET …/prizes``: the pot, each prize (its winner's name once the tournament is
    finished) and what is left of the pot."""
    lines = standings(tournament)
    given = prize_awards(tournament, lines)
    of_pot = _pot(tournament)
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "entry_fee": None if tournament.entry_fee is None else money(tournament.entry_fee),
        "currency": tournament.currency or None,
        "paid_players": tournament.entrants.filter(paid=True).count(),
        "pot": money(of_pot),
        "prizes": [{**a.as_json(name=True), **({} if finished else {"name": None})}
                   for a in given],
        "pot_remainder": money(remainder(of_pot, given)),
    }


def categories_of(tournament: Tournament) -> list[str]:
    """The categories of the tournament's players (one spelling each), sorted."""
    seen: dict[str, str] = {}
    for category in tournament.entrants.exclude(player__category="").values_list(
            "player__category", flat=True):
        seen.setdefault(rosters.category_key(category), category)
    return sorted(seen.values(), key=rosters.category_key)


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
    confirmed_by: str | None  # who confirmed its result (None: nobody yet)


def live_tables(tournament: Tournament, the_round: TournamentRound,
                sessions: Collection[int] | None = None) -> list[LiveTable]:
    """Every table of the round (only those of ``sessions``, if given) with its progress
    (deals, finished, round scores), from its session's running state: a query for the
    tables and one for their seats."""
    tables = the_round.tables.select_related("session", "session__first_dealer")
    if sessions is not None:
        tables = tables.filter(session_id__in=sessions)
    rows = list(tables.order_by("number"))
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
                             session.state, table_rules.confirmation(table)[0]))
    return out


def ranking_etag(pk: int, version: int, category: str | None = None) -> str:
    """The ranking's ETag: its tournament's version (every change that can move the
    ranking or its prizes raises it) and the category asked for."""
    part = ("-c" + hashlib.sha256(rosters.category_key(category).encode()).hexdigest()[:16]
            if category else "")
    return f'"t{pk}-v{version}-ranking{part}"'


def screen_ranking_key(tournament: Tournament, *parts: str) -> str:
    """What the screen's ranking part is rendered from: the closed rounds' kept results,
    the name and the status, each of which raises the tournament's version (no other
    query). A key on the server alone: the screen's ETag is of what it shows
    (``cache.answers.shown``)."""
    return _ranking_key(tournament.pk, tournament.version, parts)


def _ranking_key(pk: int, version: int, parts: tuple[str, ...]) -> str:
    return "-".join([f"t{pk}", f"v{version}", "ranking", *parts])


def _live_key(pk: int, version: int, live: int, tables: int, parts: tuple[str, ...]) -> str:
    return "-".join([f"t{pk}", f"v{version}", f"s{live}x{tables}", "live", *parts])


def screen_ranking_key_cached(token: str, *parts: str) -> str | None:
    """``screen_ranking_key`` from the shared cache alone, without a query; None when the
    cache does not know the tournament's version (``cache.screens``)."""
    from ..ids import is_token

    found = screens.known(token) if is_token(token) else None
    return None if found is None else _ranking_key(found.pk, found.version, parts)


def screen_remember(tournament: Tournament) -> None:
    """Tell the shared cache what the screen's token stands for at the tournament's
    version (one query: the open round's sessions), so that the next polls of both parts
    need no query (``cache.screens``)."""
    if not backend.shared():
        return
    rows = list(TournamentTable.objects.filter(
        round__tournament=tournament, round__status=TournamentRound.Status.OPEN)
        .values_list("session_id", "session__version"))
    screens.raise_sessions(rows)
    screens.remember(tournament.screen_token, tournament.pk, tournament.version,
                     [session_id for session_id, _v in rows])


def screen_live_key(token: str, *parts: str) -> str | None:
    """What the screen's live part (the open round's tables) is rendered from: the
    tournament's version (a round drawn or closed, a result entered, rounds hidden) and
    the number and summed versions of the open round's sessions (every deal, correction
    or undo raises one of them, and versions only grow, so the sum moves with each). From
    the shared cache without a query when it knows them all (``cache.screens``), else one
    query (two, filling the cache, once per version of the tournament). A key on the
    server alone, as ``screen_ranking_key``. None: no such screen."""
    from django.db.models import Count, Q, Sum

    from ..ids import is_token

    if not is_token(token):
        return None
    found = screens.known(token)
    if found is not None and found.sessions is not None:
        live = screens.live_sum(found.sessions)
        if live is not None:
            return _live_key(found.pk, found.version, live, len(found.sessions), parts)
    is_open = Q(round_set__status=TournamentRound.Status.OPEN)
    row = (Tournament.objects.filter(screen_token=token)
           .annotate(live=Sum("round_set__tables__session__version", filter=is_open),
                     tables=Count("round_set__tables", filter=is_open))
           .values_list("pk", "version", "live", "tables").first())
    if row is None:
        return None
    pk, version, live, tables = row
    if backend.shared():
        screen_remember(Tournament(pk=pk, version=version, screen_token=token))
    return _live_key(pk, version, live or 0, tables, parts)


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


def table_for_code(code: str, session_id: int | None) -> table_codes.Table | None:
    """``table_by_code`` for the API's table code on ``session_id``'s pages: from the
    shared cache while the session's version is the one read with the code
    (``cache.table_codes``), else one query (which tells the cache); None: no open table
    has that code."""
    from ..ids import is_token

    if not is_token(code):
        return None
    if session_id is not None:
        found = table_codes.cached(code, session_id)
        if found is not None:
            return found
    row = (TournamentTable.objects
           .filter(code=code, round__status=TournamentRound.Status.OPEN)
           .exclude(round__tournament__status=Tournament.Status.FINISHED)
           .values_list("pk", "session_id", "number", "round__tournament__created_by_id",
                        "session__version").first())
    if row is None:
        return None
    found = table_codes.Table(*row)
    table_codes.remember(code, found)
    return found


def tournament_by_screen(token: str) -> Tournament | None:
    from ..ids import is_token

    if not is_token(token):
        return None
    return Tournament.objects.filter(screen_token=token).first()


def entrant_json(entrant: Entrant, show_lot: bool) -> dict[str, Any]:
    out = {"name": entrant.player.name, "number": entrant.number,
           "withdrawn": entrant.withdrawn, "category": entrant.player.category or None,
           "paid": entrant.paid}
    if show_lot:
        out["lot"] = entrant.lot
    return out


def players_of(tournament: Tournament) -> list[dict[str, Any]]:
    show_lot = needs_lot(tournament)
    return [entrant_json(e, show_lot)
            for e in tournament.entrants.select_related("player").order_by("number")]


def drawn_players(tournament: Tournament) -> set[str]:
    """The names of the players drawn to a table of the tournament (one query)."""
    return set(Seat.objects.filter(session__tournament_table__round__tournament=tournament)
               .values_list("player__name", flat=True))


def roster_names(tournament: Tournament) -> list[str]:
    """The group's roster names not registered yet (offered at the door)."""
    taken = set(tournament.entrants.values_list("player_id", flat=True))
    return [p.name for p in Player.objects.filter(group_id=tournament.group_id)
            .exclude(pk__in=taken).order_by("name")]


__all__ = ["MAX_NAME", "TablesUnfinished"]
