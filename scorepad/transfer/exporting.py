"""Export: a session or a group as the file holds it (names, not ids), and a session as
CSV."""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.db.models.functions import Lower
from django.utils import timezone

from .. import csvfile, games, services
from ..games.base import stake_of
from ..models import DealEvent, Group, Session
from .fileformat import _envelope, _when
from .seasons import season_json
from .tournaments import tournament_json


def session_json(session: Session, names: services.Names | None = None) -> dict[str, Any]:
    """One session as the file holds it (names, not ids)."""
    names = names or services.Names.of(session)
    board = services.scoreboard(session, names)
    board.pop("version", None)
    events = DealEvent.objects.filter(session=session).select_related("user")
    return {
        "uid": str(session.uid),
        "game": session.game,
        "preset": session.preset,
        "rules": session.rules,
        "seats": list(names.by_id.values()),
        "first_dealer": names.to_name(str(session.first_dealer_id)),
        "stake": None if session.stake is None else str(stake_of(session)),
        "currency": session.currency or None,
        "status": session.status,
        "name": session.name,
        "date": session.date.isoformat(),
        "note": session.note,
        "created_at": _when(session.created_at),
        "closed_at": _when(session.closed_at),
        "deals": [
            {"number": d.number, "version": d.version, "kind": d.kind,
             "data": names.deal_names(d.data),
             "created_at": _when(d.created_at), "updated_at": _when(d.updated_at)}
            for d in session.deals.order_by("number")
        ],
        "history": [
            {"deal_number": e.deal_number, "action": e.action, "user": e.who,
             "at": _when(e.at), "imported": e.imported,
             "before": names.deal_names(e.before) if e.before is not None else None,
             "after": names.deal_names(e.after) if e.after is not None else None}
            for e in events
        ],
        "scoreboard": board,
    }


def session_export(session: Session) -> dict[str, Any]:
    # "group": where it came from, where a bare file sent back to the API goes
    return _envelope("session") | {"group": session.group_id, "session": session_json(session)}


def group_json(group: Group, *, links: bool = False) -> dict[str, Any]:
    """The group as the file holds it; ``links`` (backups only: account data) adds which
    roster player is which member's account."""
    sessions = group.sessions.annotate(last_number=Max("deals__number")).order_by(
        "created_at", "id")
    extra = {} if not links else {"links": [
        {"player": name, "username": username}
        for name, username in group.players.exclude(user=None)
        .order_by(Lower("name"), "id").values_list("name", "user__username")
    ]}
    return {
        "name": group.name,
        "roster": list(group.players.order_by(Lower("name"), "id").values_list("name",
                                                                                 flat=True)),
        # a roster player's category (docs/tournaments.md, "Categories")
        "categories": [{"player": name, "category": category} for name, category in
                       group.players.exclude(category="").order_by(Lower("name"), "id")
                       .values_list("name", "category")],
        "members": [
            {"username": m.user.get_username(), "role": m.role}
            for m in group.memberships.select_related("user").order_by("user__username")
        ],
        "sessions": [session_json(s) for s in sessions],
        "tournaments": [tournament_json(t) for t in group.tournaments.order_by("created_at",
                                                                               "id")],
        # docs/tournaments.md, "Seasons": their choices (the standings follow the events)
        "seasons": [season_json(s) for s in group.seasons.order_by("created_at", "id")],
    } | extra


def group_export(group: Group) -> dict[str, Any]:
    return _envelope("group") | {"group": group_json(group)}


def export_filename(kind: str, pk: int, ext: str) -> str:
    return f"schreiber-{kind}-{pk}-{timezone.now():%Y%m%d}.{ext}"


# --- CSV: one row per deal, as players write it on paper --------------------------------------


def session_csv(session: Session) -> str:
    """The game's rows (its figures as numbers, names as text) through the one CSV writer,
    which escapes what a spreadsheet would run (scorepad/csvfile.py)."""
    names = services.Names.of(session)
    return csvfile.write(games.of(session).csv_rows(names, list(session.deals.order_by("number"))))


