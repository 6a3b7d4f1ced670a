"""One package per game family behind one protocol: the only place that knows which game
a session plays.

Everything that differs from game to game lives in the game's package: how a deal is
checked and stored, how it is played through the referee, the scoreboard, the money, the
statistics, the paper sheet and chart, the CSV, the deal form and its live check, and the
API's shapes, its templates (``<game>/templates/``, found by ``loader``) and its Referee
page questions (``<game>/disputes.py``). The rest of the app asks ``of(session)`` (or
``get(name)``) once and calls what ``Game`` promises. A new game is a new package and its
name in the setting ``SCHREIBER_GAMES`` (README: "Adding a game").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.utils.translation import gettext_lazy

from .base import Column, GameRules, Money

if TYPE_CHECKING:
    from django.http import QueryDict
    from rest_framework.serializers import Serializer

    from ..loaded import Loaded, Names, SessionRecord
    from ..models import Deal, Session


class Replayer(Protocol):
    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]: ...
    def state(self) -> dict[str, Any]: ...


Lines = tuple[dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]


class Game(Protocol):
    """What a game package provides (names its ``__init__.py`` keeps)."""

    NAME: str  # Session.game
    TITLE: str

    # --- starting and playing (the services call these) ---
    def rules(self, preset: str | None, overrides: Mapping[str, object] | None
              ) -> GameRules: ...  # RuleError naming overrides.<name>
    def start(self, session: Session, seats: Sequence[str]) -> dict[str, Any]: ...
    def parse_deal(self, data: object) -> dict[str, Any]: ...  # InputError; names as given
    def normalize(self, data: Mapping[str, Any]) -> dict[str, Any]: ...  # as stored (ids)
    def kind(self, data: Mapping[str, Any]) -> str: ...
    def apply(self, session: Session, seats: Sequence[str], state: Mapping[str, Any],
              data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]: ...
    def replayer(self, session: Session, seats: Sequence[str]) -> Replayer: ...
    def finished_game(self, result: Mapping[str, Any]) -> dict[str, Any] | None: ...
    # the game a deal's result ended, as its FinishedGame row keeps it (None: no list)
    def scorer_data(self) -> dict[str, Any]: ...
    # what the phone's scorer (the package's static/scorer.js) reads, from the referee:
    # written into its static/rules-data.js (games/scorerdata.py)
    def scorer_texts(self, session: Session) -> dict[str, Any]: ...
    # the words its provisional board (static/phone.js) needs, in the page's language

    # --- the scoreboard and the money ---
    BALANCES_ALWAYS: bool  # the scoreboard lists balances even without a stake
    def board(self, session: Session, names: Names) -> dict[str, Any]: ...
    def money(self, session: Session, order: Sequence[str]) -> Money: ...  # with a stake
    def settlement_details(self, session: Session, names: Names) -> dict[str, Any]: ...

    # --- the API's shapes ---
    RULES_SCHEMA: dict[str, Any]  # the schema of a session's "rules" (rules() takes)
    DEAL_IN: type[Serializer]  # type: ignore[type-arg]  # what parse_deal checks with
    BOARD_OUT: type[Serializer]  # type: ignore[type-arg]
    DEAL_OUT: type[Serializer]  # type: ignore[type-arg]
    SETTLEMENT_DETAILS_OUT: type[Serializer]  # type: ignore[type-arg]
    STATS_OUT: type[Serializer]  # type: ignore[type-arg]
    def deal_out(self, row: Deal, names: Names) -> dict[str, Any]: ...

    # --- looking back ---
    STATS_KEY: str  # the family's figures in the statistics
    STATS_COLUMNS: tuple[Column, ...]  # its figures in the statistics tables
    FIGURES_TEMPLATE: str  # its figures on the player pages
    def stats_empty(self) -> dict[str, Any]: ...
    def stats_add(self, pid: str, record: SessionRecord, acc: dict[str, Any]) -> None: ...
    def stats_finish(self, acc: dict[str, Any]) -> dict[str, Any]: ...
    def stats_contract(self, acc: dict[str, Any]) -> dict[str, int]: ...
    def summary(self, record: SessionRecord) -> dict[str, Any]: ...
    def won_games(self, record: SessionRecord) -> dict[str, int] | None: ...
    def session_points(self, pid: str, record: SessionRecord) -> int | None: ...
    def sheet_rows(self, record: SessionRecord) -> list[dict[str, Any]]: ...
    def chart_lines(self, record: SessionRecord) -> Lines: ...
    def csv_rows(self, names: Names, deals: Sequence[Deal]) -> list[list[object]]: ...
    def history_detail(self, seats: list[str], data: dict[str, Any]
                       ) -> dict[str, Any] | None: ...

    # --- the pages ---
    def start_parts(self, form: Any) -> dict[str, Any]: ...
    def again_rules(self, session: Session) -> tuple[str, list[tuple[str, str]]]: ...
    # the start form's preset ("": the form's default) and house-rule fields, filled for
    # a new session of the same table
    # what the form that starts a session shows while the game is picked: "note" (a
    # sentence), "rules_legend" (its presets, the form's ``preset``), "house_rules" (rows)
    SESSION_TEMPLATE: str
    FORM_FRAGMENT: str
    EDIT_TEMPLATE: str
    BOARD_TEMPLATE: str  # included by _scoreboard.html
    SHEET_TEMPLATE: str  # extends sheet.html
    MONEY_RULES_TEMPLATE: str  # included by settlement.html
    SESSION_LINE_TEMPLATE: str  # a past session's own figures (``row``: stats.session_summary)
    SUMMARY_TEMPLATE: str  # a deal in a line (``deal``; ``cards``: history_detail; ``short``)
    MODES: tuple[str, ...]  # ways to enter a deal; "" is the default
    def recorded_message(self, number: int) -> str: ...
    def form_rules(self, cleaned: Mapping[str, Any]
                   ) -> tuple[str | None, Mapping[str, Any] | None]: ...
    def form_shows_errors(self, mode: str) -> bool: ...
    def keeps_typing(self, post: Any) -> bool: ...
    def board_context(self, loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]: ...
    def entry_context(self, loaded: Loaded, post: Any, *, number: int | None = None,
                      mode: str = "", submitted: bool = False) -> dict[str, Any]: ...
    def form_deal(self, post: Any, names: Names) -> dict[str, Any] | None: ...
    def form_values(self, deal: dict[str, Any], seats: list[str]
                    ) -> tuple[QueryDict, str]: ...


#: Every game's package, in the order the pages offer them: the registry, read from the
#: setting ``SCHREIBER_GAMES`` (dotted module names). A new game is one more name there.
MODULES: tuple[str, ...] = tuple(settings.SCHREIBER_GAMES)

REGISTRY: tuple[Game, ...] = tuple(import_module(m) for m in MODULES)
GAMES: dict[str, Game] = {game.NAME: game for game in REGISTRY}
#: What a session plays when nobody says (the first game of the registry).
DEFAULT: str = REGISTRY[0].NAME


#: The words of the statistics pages that speak of the games' figures together (a new
#: game whose figures change what they say says it here, and in locale/).
GROUP_TABLE_NOTE = gettext_lazy(
    "Mulatschak figures unless the column names another game. Points per deal: lower is "
    "better (scores count down). Tap a column to sort.")
WINS_CHART_TITLE = gettext_lazy("Line chart of Mulatschak games won so far")
POINTS_CHART_TITLE = gettext_lazy("Line chart of Mulatschak points per session")

#: The start form's label of the stake: what one unit of the stake is in each game (a new
#: game with a unit of its own says it here, and in locale/).
STAKE_LABEL = gettext_lazy("Stake per point, mura or lost game")


def get(name: str) -> Game:
    """The game called ``name``; KeyError for none."""
    return GAMES[name]


def of(session: Session) -> Game:
    """The game ``session`` plays."""
    return GAMES[session.game]


def names() -> list[str]:
    return list(GAMES)


def choices() -> list[tuple[str, str]]:
    """(name, title) of every game, for choice fields."""
    return [(game.NAME, game.TITLE) for game in REGISTRY]


__all__ = ["DEFAULT", "GAMES", "MODULES", "REGISTRY", "Column", "Game", "GameRules", "Money",
           "choices", "get", "names", "of"]
