"""Reading what people typed: the one integer parser of the pages (and of ids in URLs)."""

from __future__ import annotations

from typing import Any


def integer(value: Any) -> int | None:
    """``value`` as an int (``"3"``, ``" 3 "``, ``3``), or None for anything else (blank,
    ``"x"``, ``None``)."""
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def step(value: str, seats: list[str], prefixes: tuple[str, ...] = ("",)
         ) -> tuple[str, str, int] | None:
    """A stepper button's value ``<prefix><seat index>:+1`` (or ``:-1``) as (prefix, the
    seat's player, +1 or -1); None for anything else."""
    what, _sep, delta = (value or "").partition(":")
    for prefix in sorted(prefixes, key=len, reverse=True):
        if not what.startswith(prefix):
            continue
        index = integer(what[len(prefix):])
        if index is None or not 0 <= index < len(seats) or delta not in ("+1", "-1"):
            return None
        return prefix, seats[index], int(delta)
    return None


def stepped(counts: dict[str, int | None], player: str, delta: int, room: int | None) -> None:
    """The one stepper: one more for ``player`` while there is ``room`` (None: no limit),
    one less down to zero."""
    current = counts.get(player) or 0
    if delta > 0 and (room is None or room > 0):
        counts[player] = current + 1
    elif delta < 0 and current > 0:
        counts[player] = current - 1
