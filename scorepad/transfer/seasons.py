"""A group's seasons in the file (docs/tournaments.md, "Seasons"): their choices alone (the
standings are read from the events, which the file holds as sessions and tournaments), and
made again on import through their use case, each choice checked as when it was made."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .. import services
from ..models import Season
from .fileformat import CONFLICT, _Context, _join, _must_dict, _Problems, _uid


def season_json(season: Season) -> dict[str, Any]:
    """A season as the file holds it."""
    from ..tournaments import formats

    return {
        "uid": str(season.uid), "name": season.name, "game": season.game,
        "start": season.start.isoformat(), "end": season.end.isoformat(),
        "events": season.events,
        "cup_points": formats.rank_points_out([str(p) for p in season.cup_points or []]),
        "best_of": season.best_of, "min_events": season.min_events,
    }


def _import_season(obj: Any, path: str, ctx: _Context, problems: _Problems) -> None:
    """A season of a group file, made again with its uid (the same file twice: refused)."""
    from ..seasons import services as seasons

    body = _must_dict(obj, path, problems)
    if body is None:
        return
    before = len(problems.items)
    uid = _uid(body.get("uid"), _join(path, "uid"), problems)
    if len(problems.items) > before:
        return
    if ctx.group.seasons.filter(uid=uid).exists():
        problems.add(_join(path, "uid"), "already_imported",
                     _("This season was imported into this group already."), CONFLICT)
        return
    fields = {f: body[f] for f in seasons.FIELDS if f in body}
    try:
        made = seasons.season_create(ctx.group, None, fields)
    except services.InputError as e:
        problems.input_error(path, e)
        return
    Season.objects.filter(pk=made.pk).update(uid=uid)
