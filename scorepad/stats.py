"""Looking back: statistics of players and sessions, derived from the stored deals.

Every figure is computed from what the replay stored on each deal (``Deal.data``: what
was recorded; ``Deal.result``: what the referee made of it) — there is no separately
maintained counter, so a correction, which replays the session, changes the statistics
with it. Money comes from the same referee functions the settlement uses.

Definitions (README, "Looking back"):

- A *player* is a roster Player of one group: "all their sessions" means all sessions of
  that player's group in which they had a seat. A member can link a player to their
  account ("this is me", one player per account and group); a *person's* figures are
  those of all their linked players, in the groups they are still a member of, counted
  over all those sessions together (rates from the summed counts).
- Mulatschak: ``deals_played`` counts played deals the player took part in (not staying
  home); ``stayed_home`` the played deals they stayed home from. ``points`` is the sum of
  the player's score changes (lower is better: scores count down to 0), and
  ``points_per_deal`` divides it by the played deals the player was seated at (played or
  stayed home). ``games`` are finished games (a deal ended them) at the player's table,
  ``wins`` the ones the player won (a tie shares the win). A bid of 5 is the Muli.
  ``hearts_deals``: played deals with hearts trump the player took part in.
  ``biggest_multiplier_survived``: the largest multiplier of a deal the player declared
  and made (null if never); ``biggest_multiplier_played``: the largest of any deal the
  player took part in.
- Mura: ``mura`` and ``zeros`` are the totals over the player's deals.
- Müller Matz: ``mm_losses`` counts the games the player lost (was the Müller Matz);
  ``wins`` there counts games the player finished first (only when a finishing order was
  recorded).
- Money: per currency, the sum of the player's session balances (decimal strings).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.db.models.functions import Lower

from referee import tally
from referee.money import Penalty, minor_unit, settle

from .models import Deal, Player, Seat, Session

MULI = 5
BID_KEYS = ("1", "2", "3", "4", "muli")


@dataclass(frozen=True)
class DealRow:
    number: int
    kind: str
    data: Mapping[str, Any]
    result: Mapping[str, Any]


@dataclass(frozen=True)
class SessionRecord:
    """A session with its seats (player ids as text, seat order) and its deals."""

    session: Session
    seats: tuple[str, ...]
    names: Mapping[str, str]
    deals: tuple[DealRow, ...]


def load(sessions: QuerySet[Session]) -> list[SessionRecord]:
    """The sessions with seats and deals: three queries, however many sessions."""
    rows = list(
        sessions.select_related("group").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by(
                "position"))
        )
    )
    by_session: dict[int, list[DealRow]] = defaultdict(list)
    deals = (
        Deal.objects.filter(session__in=[s.pk for s in rows])
        .order_by("session_id", "number")
        .values_list("session_id", "number", "kind", "data", "result")
    )
    for session_id, number, kind, data, result in deals:
        by_session[session_id].append(DealRow(number, kind, data, result))
    out = []
    for s in rows:
        seats = list(s.seats.all())
        out.append(SessionRecord(
            session=s,
            seats=tuple(str(seat.player_id) for seat in seats),
            names={str(seat.player_id): seat.player.name for seat in seats},
            deals=tuple(by_session[s.pk]),
        ))
    return out


# --- per session -------------------------------------------------------------------------


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


def session_balances(record: SessionRecord) -> dict[str, Decimal] | None:
    """Each seated player's money for the session (None without a stake), from the deals."""
    s = record.session
    if s.stake is None:
        return None
    stake, currency = Decimal(s.stake), s.currency
    stake = stake.quantize(Decimal(1).scaleb(-minor_unit(currency)))
    if s.game == Session.Game.MURA:
        penalties = {p: Penalty(*mura_totals(record)[p]) for p in record.seats}
        return dict(settle(stake, currency, penalties,
                           zeros_per_mura=s.rules.get("zeros_per_mura", 9)).balances)
    if s.game == Session.Game.MULLER_MATZ:
        losses = matz_losses(record)
        state = tally.MatzState(losses, sum(losses.values()))
        return tally.matz_balances(state, stake, currency)
    payments = [
        pay for g in finished_games(record)
        for pay in tally.game_payments(g[0], g[1], stake, currency)
    ]
    return tally.balances_of(payments, record.seats, currency)


def finished_games(record: SessionRecord) -> list[tuple[dict[str, int], list[str]]]:
    """Mulatschak: (final scores, winners) of each game a deal ended."""
    return [
        (dict(d.result["scores_after"]), list(d.result.get("winners", [])))
        for d in record.deals
        if d.result.get("game_over")
    ]


def mura_totals(record: SessionRecord) -> dict[str, tuple[int, int]]:
    """Mura: (mura, zeros) per player, summed over the deals."""
    out = dict.fromkeys(record.seats, (0, 0))
    for d in record.deals:
        for p, r in d.result.get("results", {}).items():
            mura, zeros = out[p]
            out[p] = (mura + int(r["mura"]), zeros + int(bool(r["zero"])))
    return out


def matz_losses(record: SessionRecord) -> dict[str, int]:
    out = dict.fromkeys(record.seats, 0)
    for d in record.deals:
        out[d.result["loser"]] += 1
    return out


def session_summary(record: SessionRecord) -> dict[str, Any]:
    """One line of the session history: players, winners (or losers/penalties), money."""
    s = record.session
    name = record.names.get
    out: dict[str, Any] = {
        "session": s,
        "players": [record.names[p] for p in record.seats],
        "deals": len(record.deals),
        "winners": [],
        "balances": None,
    }
    if s.game == Session.Game.MULATSCHAK:
        games = finished_games(record)
        out["games"] = len(games)
        out["winners"] = [
            ", ".join(str(name(w, w)) for w in winners) for _, winners in games
        ]
    elif s.game == Session.Game.MURA:
        totals = mura_totals(record)
        out["penalties"] = [
            {"player": record.names[p], "mura": totals[p][0], "zeros": totals[p][1]}
            for p in record.seats
        ]
    else:
        losses = matz_losses(record)
        out["games"] = sum(losses.values())
        out["losses"] = [{"player": record.names[p], "losses": losses[p]} for p in record.seats]
    balances = session_balances(record)
    if balances is not None:
        out["balances"] = [{"player": record.names[p], "amount": str(balances[p])}
                           for p in record.seats]
    return out


# --- per player ----------------------------------------------------------------------------


def _bids() -> dict[str, dict[str, Any]]:
    return {k: {"declared": 0, "made": 0} for k in BID_KEYS}


def player_stats(pid: str | Collection[str], records: Iterable[SessionRecord]
                 ) -> dict[str, Any]:
    """Every figure of one player (``pid``: the player id as text) over these sessions.

    Several ids stand for one person with a player in several groups (at most one seat
    at any table): the counts are summed over all their sessions and every rate is
    computed from those sums, by the same code.
    """
    ids = {pid} if isinstance(pid, str) else set(pid)
    mul: dict[str, Any] = {
        "sessions": 0, "games": 0, "wins": 0, "deals_seated": 0, "deals_played": 0,
        "deals_declared": 0, "deals_made": 0, "muli_tried": 0, "muli_made": 0,
        "stayed_home": 0, "hearts_deals": 0, "points": 0,
        "biggest_multiplier_survived": None, "biggest_multiplier_played": None,
    }
    bids = _bids()
    mura: dict[str, Any] = {"sessions": 0, "deals": 0, "mura": 0, "zeros": 0}
    matz: dict[str, Any] = {"sessions": 0, "games": 0, "wins": 0, "mm_losses": 0}
    money: dict[str, Decimal] = {}
    sessions = 0
    for record in records:
        seated = ids.intersection(record.seats)
        if not seated:
            continue
        pid = min(seated)
        sessions += 1
        game = record.session.game
        if game == Session.Game.MULATSCHAK:
            _mulatschak(pid, record, mul, bids)
        elif game == Session.Game.MURA:
            mura["sessions"] += 1
            for d in record.deals:
                r = d.result["results"][pid]
                mura["deals"] += 1
                mura["mura"] += int(r["mura"])
                mura["zeros"] += int(bool(r["zero"]))
        else:
            matz["sessions"] += 1
            for d in record.deals:
                matz["games"] += 1
                matz["mm_losses"] += int(d.result["loser"] == pid)
                order = d.data.get("finish_order") or []
                matz["wins"] += int(bool(order) and order[0] == pid)
        balances = session_balances(record)
        if balances is not None:
            currency = record.session.currency
            money[currency] = money.get(currency, Decimal(0)) + balances[pid]
    declared = mul["deals_declared"]
    mul |= {
        "deals_fallen": declared - mul["deals_made"],
        "made_rate": _rate(mul["deals_made"], declared),
        "win_rate": _rate(mul["wins"], mul["games"]),
        "points_per_deal": (None if not mul["deals_seated"]
                            else round(mul["points"] / mul["deals_seated"], 2)),
        "by_bid": {k: v | {"fallen": v["declared"] - v["made"],
                           "rate": _rate(v["made"], v["declared"])}
                   for k, v in bids.items()},
    }
    mura |= {"mura_per_deal": _rate(mura["mura"], mura["deals"]),
             "zeros_per_deal": _rate(mura["zeros"], mura["deals"])}
    matz["loss_rate"] = _rate(matz["mm_losses"], matz["games"])
    return {
        # The contract's names (API.md), summed over the game families.
        "sessions": sessions,
        "games": mul["games"] + matz["games"],
        "wins": mul["wins"] + matz["wins"],
        "deals_played": mul["deals_played"],
        "deals_declared": mul["deals_declared"],
        "deals_made": mul["deals_made"],
        "muli_tried": mul["muli_tried"],
        "muli_made": mul["muli_made"],
        "stayed_home": mul["stayed_home"],
        "mura": mura["mura"],
        "zeros": mura["zeros"],
        "mm_losses": matz["mm_losses"],
        # Per game family, everything.
        "mulatschak": mul,
        "mura_stats": mura,
        "muller_matz": matz,
        "money": {c: str(v) for c, v in sorted(money.items())},
    }


def _mulatschak(pid: str, record: SessionRecord, mul: dict[str, Any],
                bids: dict[str, dict[str, Any]]) -> None:
    mul["sessions"] += 1
    for d in record.deals:
        result = d.result
        if result.get("game_over"):
            mul["games"] += 1
            mul["wins"] += int(pid in result.get("winners", []))
        if d.kind != "played":
            continue
        data = d.data
        mul["deals_seated"] += 1
        mul["points"] += int(result["deltas"].get(pid, 0))
        if pid in data.get("stayed_home", []):
            mul["stayed_home"] += 1
            continue
        multiplier = int(result.get("multiplier", 1))
        mul["deals_played"] += 1
        mul["hearts_deals"] += int(data.get("trump") == "hearts")
        mul["biggest_multiplier_played"] = max(mul["biggest_multiplier_played"] or 0,
                                               multiplier)
        if data.get("declarer") != pid:
            continue
        bid = int(data["bid"])
        made = bool(result.get("declarer_made"))
        key = "muli" if bid == MULI else str(bid)
        mul["deals_declared"] += 1
        mul["deals_made"] += int(made)
        bids[key]["declared"] += 1
        bids[key]["made"] += int(made)
        if bid == MULI:
            mul["muli_tried"] += 1
            mul["muli_made"] += int(made)
        if made:
            mul["biggest_multiplier_survived"] = max(
                mul["biggest_multiplier_survived"] or 0, multiplier)


def player_records(player: Player) -> list[SessionRecord]:
    """Every session of the player's group in which the player had a seat, oldest first."""
    return load(Session.objects.filter(group_id=player.group_id, seats__player=player)
                .order_by("created_at", "id"))


def linked_players(user: Any) -> QuerySet[Player]:
    """The players linked to the account, in the groups it is still a member of, by group."""
    return (Player.objects.filter(user=user, group__memberships__user=user)
            .select_related("group").order_by(Lower("group__name"), "group_id"))


def person_stats(players: Sequence[Player]) -> dict[str, Any]:
    """One person's figures across groups: ``players`` are theirs, one per group.

    The same figures as ``player_stats`` over every session any of them sat at, and under
    ``groups`` each player's own figures in their group. Four queries, however many
    groups and sessions.
    """
    records = load(
        Session.objects.filter(pk__in=Seat.objects.filter(player__in=players)
                               .values("session_id"))
        .order_by("created_at", "id")
    )
    by_group: dict[int, list[SessionRecord]] = defaultdict(list)
    for record in records:
        by_group[record.session.group_id].append(record)
    groups = [
        {"group": {"id": p.group_id, "name": p.group.name},
         "player": {"id": p.pk, "name": p.name}}
        | player_stats(str(p.pk), by_group[p.group_id])
        for p in players
    ]
    return player_stats([str(p.pk) for p in players], records) | {"groups": groups}


#: Columns of the group's player table: key in the row → how to sort (None sorts last).
TABLE_COLUMNS = ("name", "sessions", "games", "wins", "win_rate", "points_per_deal",
                 "made_rate", "muli_made", "stayed_home", "mura", "zeros", "mm_losses")


def group_table(players: Sequence[Player], records: Sequence[SessionRecord],
                sort: str = "name", descending: bool = False) -> list[dict[str, Any]]:
    """One row of key figures per player of the group, sorted by a column."""
    rows = []
    for p in players:
        st = player_stats(str(p.pk), records)
        m = st["mulatschak"]
        rows.append({
            "player": p, "name": p.name, "sessions": st["sessions"], "games": m["games"],
            "wins": m["wins"], "win_rate": m["win_rate"],
            "points_per_deal": m["points_per_deal"], "made_rate": m["made_rate"],
            "muli_made": m["muli_made"], "stayed_home": m["stayed_home"],
            "mura": st["mura"], "zeros": st["zeros"], "mm_losses": st["mm_losses"],
            "money": st["money"],
        })
    if sort not in TABLE_COLUMNS:
        sort = "name"

    def key(row: dict[str, Any]) -> tuple[bool, Any]:
        value = row[sort]
        if isinstance(value, str):
            value = value.lower()
        return (value is None, value if value is not None else 0)

    present = [r for r in rows if r[sort] is not None]
    missing = [r for r in rows if r[sort] is None]
    present.sort(key=key, reverse=descending)
    return present + sorted(missing, key=lambda r: r["name"].lower())


def cumulative_wins(players: Sequence[Player], records: Sequence[SessionRecord]
                    ) -> tuple[list[str], dict[str, list[int]]]:
    """Mulatschak games won so far, per player, after each Mulatschak session (x labels:
    the session dates)."""
    labels: list[str] = []
    series: dict[str, list[int]] = {p.name: [0] for p in players}
    for record in records:
        if record.session.game != Session.Game.MULATSCHAK:
            continue
        labels.append(_axis_date(record.session.created_at))
        won: dict[str, int] = defaultdict(int)
        for _, winners in finished_games(record):
            for w in winners:
                won[w] += 1
        for p in players:
            series[p.name].append(series[p.name][-1] + won.get(str(p.pk), 0))
    return labels, series


def points_per_session(pid: str, records: Sequence[SessionRecord]) -> tuple[list[str], list[int]]:
    """Mulatschak: the player's sum of score changes per session (lower is better)."""
    labels, values = [], []
    for record in records:
        if record.session.game != Session.Game.MULATSCHAK or pid not in record.seats:
            continue
        labels.append(_axis_date(record.session.created_at))
        values.append(sum(int(d.result.get("deltas", {}).get(pid, 0)) for d in record.deals))
    return labels, values



def session_lines(record: SessionRecord) -> tuple[
        dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]:
    """The session's chart data: per player, segments of (deal, running figure).

    Mulatschak: the score after each deal, a new segment (from the start score) for each
    new game, the game boundaries, and the start score and game-end target as reference
    lines. Mura: running mura; Müller Matz: running losses.
    """
    s = record.session
    series: dict[str, list[list[tuple[float, float]]]] = {}
    boundaries: list[float] = []
    references: list[tuple[float, str]] = []
    if s.game == Session.Game.MULATSCHAK:
        start = int(s.rules.get("start_score", 0))
        target = s.rules.get("target_score")
        references.append((float(start), "start"))
        if target is not None:
            references.append((float(target), "target"))
        for p in record.seats:
            series[p] = [[(0.0, float(start))]]
        for i, d in enumerate(record.deals, start=1):
            before = d.result.get("scores_before", {})
            after = d.result.get("scores_after") or before
            if i > 1 and record.deals[i - 2].result.get("game_over"):
                boundaries.append(float(i - 1))
                for p in record.seats:
                    series[p].append([(float(i - 1), float(before.get(p, start)))])
            for p in record.seats:
                series[p][-1].append((float(i), float(after.get(p, 0))))
        return series, boundaries, references
    running = dict.fromkeys(record.seats, 0)
    for p in record.seats:
        series[p] = [[(0.0, 0.0)]]
    for i, d in enumerate(record.deals, start=1):
        if s.game == Session.Game.MURA:
            for p, r in d.result.get("results", {}).items():
                running[p] += int(r["mura"])
        else:
            running[d.result["loser"]] += 1
        for p in record.seats:
            series[p][-1].append((float(i), float(running[p])))
    return series, boundaries, references


def _axis_date(moment: Any) -> str:
    """A session's day on a chart axis, the language's way (23.11. / 23/11 / 11. 23.)."""
    from django.utils.formats import date_format
    from django.utils.timezone import localtime

    return date_format(localtime(moment), "MONTH_DAY_FORMAT")
