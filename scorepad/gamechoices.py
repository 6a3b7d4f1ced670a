"""The registered games' names and titles, for the models' ``game`` fields.

The registry (``scorepad.games``) puts them here whenever it reads its setting, as it puts
the games' player keys into ``scorepad.loaded``: the models sit below the games (a game's
package speaks of sessions and deals), so they do not import the registry, and a new game
needs no migration.
"""

from __future__ import annotations

from collections.abc import Sequence

_installed: dict[str, list[tuple[str, str]]] = {}


def install(choices: Sequence[tuple[str, str]]) -> None:
    _installed["now"] = list(choices)


def choices() -> list[tuple[str, str]]:
    """(name, title) of every registered game (the registry is read when Django starts)."""
    try:
        return list(_installed["now"])
    except KeyError:
        raise RuntimeError("the games' registry has not been read yet") from None
