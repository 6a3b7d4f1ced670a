"""The Referee page: the table's arguments settled on the phone (issue 16, part 3).

Each game of ``scorepad.games`` offers its questions as *tools* in its package's
``disputes`` module (what they share is ``scorepad.games.disputes``); this module only
gathers them, in the registry's order. A tool reads a plain form (every
card tapped in the card picker is a submit button, so it works without JavaScript; htmx
swaps the form in place for an instant answer), asks the referee exactly as the
stateless API does, and hands the template an answer in the user's language (the words
come from ``scorepad.messages``). No rule is decided here.

The form's state travels in its fields: the cards picked so far (repeated fields in
order), the slot the next tap fills (``target``), and, for the stand-alone page, the
rules picked (``preset`` and ``r_<parameter>``).
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

from .. import games
from ..games.disputes import FormError, Line, Table, Tool


@games.derived
def tools() -> dict[str, Tool]:
    """Every game's questions by name, in the registry's order."""
    out: dict[str, Tool] = {}
    for game in games.registered():
        if find_spec(f"{game.__name__}.disputes") is None:  # a game with no questions
            continue
        for tool in game_module(game.NAME).TOOLS:
            out[tool.name] = tool
    return out


def game_module(game: str) -> Any:
    """The ``disputes`` module of the game called ``game``."""
    return import_module(f"{games.get(game).__name__}.disputes")


def tools_for(game: str) -> list[Tool]:
    return [tool for tool in tools().values() if tool.game == game]


__all__ = ["tools", "FormError", "Line", "Table", "Tool", "game_module", "tools_for"]
