"""The Referee page: the table's arguments settled on the phone (issue 16, part 3).

Each game module here (``mulatschak``, ``mura``, ``muller_matz``, one per game of
``scorepad.games``) offers its questions as *tools*. A tool reads a plain form (every
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
from typing import Any

from .base import FormError, Line, Table, Tool

#: The game modules of this package, in the order of ``scorepad.games.MODULES``.
MODULES = ("mulatschak", "mura", "muller_matz")


def _tools() -> dict[str, Tool]:
    out: dict[str, Tool] = {}
    for module in MODULES:
        for tool in import_module(f"{__name__}.{module}").TOOLS:
            out[tool.name] = tool
    return out


TOOLS: dict[str, Tool] = _tools()


def tools_for(game: str) -> list[Tool]:
    return [tool for tool in TOOLS.values() if tool.game == game]


def game_module(game: str) -> Any:
    return import_module(f"{__name__}.{game}")


__all__ = ["MODULES", "TOOLS", "FormError", "Line", "Table", "Tool", "game_module", "tools_for"]
