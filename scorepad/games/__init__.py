"""One package per game family behind one protocol: the only place that knows which game
a session plays.

Everything that differs from game to game lives in the game's package: how a deal is
checked and stored, how it is played through the referee, the scoreboard, the money, the
statistics, the paper sheet and chart, the CSV, the deal form and its live check, and the
API's shapes, its words (``words.py``: its violation sentences and its rules' help, with
their translations in its ``locale/``) and its Referee page questions
(``<game>/disputes.py``). Each game is a Django app: Django's own template loaders,
static files finders and translations find its ``templates/``, ``static/`` and
``locale/``. The rest of the app asks ``of(session)`` (or ``get(name)``,
``registered()``) once and calls what ``Game`` promises; what it makes from all the games
together it keeps through ``derived``, which forgets it when the setting changes. A new
game is a new package and its name in the setting ``SCHREIBER_GAMES`` (docs/games.md,
"Adding a game").
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.translation import gettext, gettext_lazy, pgettext

from .. import gamechoices
from ..loaded import PlayerKeys, install_player_keys
from ..messages import Wording
from .base import Column, GameRules, Money, TournamentPlay

if TYPE_CHECKING:
    from django.http import QueryDict
    from rest_framework.serializers import Serializer

    from ..loaded import Loaded, Names, SessionRecord
    from ..models import Deal, Session


class Replayer(Protocol):
    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]: ...
    def state(self) -> dict[str, Any]: ...


Lines = tuple[dict[str, list[list[tuple[float, float]]]], list[float], list[tuple[float, str]]]


class Play(Protocol):
    """Starting and playing: what the services call to start a session, check a deal,
    apply it and replay a session's deals."""

    NAME: str  # Session.game
    TITLE: str
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
    TOURNAMENT: TournamentPlay | None  # how a table plays a tournament round (None: never)
    PLAYER_KEYS: PlayerKeys  # the keys of its stored deals and results that hold players
    def scorer_data(self) -> dict[str, Any]: ...
    # what the phone's scorer (the package's static/scorer.js) reads, from the referee:
    # written into its static/rules-data.js (games/scorerdata.py)
    def scorer_texts(self, session: Session) -> dict[str, Any]: ...
    # the words its provisional board (static/phone.js) needs, in the page's language


class Board(Protocol):
    """The scoreboard and the money."""

    BALANCES_ALWAYS: bool  # the scoreboard lists balances even without a stake
    def board(self, session: Session, names: Names) -> dict[str, Any]: ...
    def money(self, session: Session, order: Sequence[str]) -> Money: ...  # with a stake
    def settlement_details(self, session: Session, names: Names) -> dict[str, Any]: ...


class Api(Protocol):
    """The API's shapes of the game's sessions (the API offers them in its ``oneOf``s)."""

    RULES_SCHEMA: dict[str, Any]  # the schema of a session's "rules" (rules() takes)
    DEAL_IN: type[Serializer]  # type: ignore[type-arg]  # what parse_deal checks with
    BOARD_OUT: type[Serializer]  # type: ignore[type-arg]
    DEAL_OUT: type[Serializer]  # type: ignore[type-arg]
    SETTLEMENT_DETAILS_OUT: type[Serializer]  # type: ignore[type-arg]
    STATS_OUT: type[Serializer]  # type: ignore[type-arg]
    def deal_out(self, row: Deal, names: Names) -> dict[str, Any]: ...


class LookingBack(Protocol):
    """Statistics (declared: its columns and figures), the paper sheet, the chart, the
    CSV and the history."""

    STATS_KEY: str  # the family's figures in the statistics
    STATS_COLUMNS: tuple[Column, ...]  # its figures in the statistics tables
    FIGURES_TEMPLATE: str  # its figures on the player pages
    def stats_empty(self) -> dict[str, Any]: ...
    def stats_add(self, pid: str, record: SessionRecord, acc: dict[str, Any]) -> None: ...
    def stats_finish(self, acc: dict[str, Any]) -> dict[str, Any]: ...
    def stats_contract(self, acc: dict[str, Any]) -> dict[str, int]: ...
    def summary(self, record: SessionRecord) -> dict[str, Any]: ...
    def sheet_rows(self, record: SessionRecord) -> list[dict[str, Any]]: ...
    def chart_lines(self, record: SessionRecord) -> Lines: ...
    def csv_rows(self, names: Names, deals: Sequence[Deal]) -> list[list[object]]: ...
    def history_detail(self, seats: list[str], data: dict[str, Any]
                       ) -> dict[str, Any] | None: ...


class Evening(Protocol):
    """What an evening leaves: the games each player won, their points, the places of
    each finished game (the group's ratings), the evening's card and each player's place
    at the evening (a season's event)."""

    def won_games(self, record: SessionRecord) -> dict[str, int] | None: ...
    def placings(self, record: SessionRecord) -> list[dict[str, int]]: ...
    # the places of each game of the session that is finished, in order (the ratings):
    # player id → 1, 2, ... (``base.places``: equal places share), every seated player
    def card(self, record: SessionRecord) -> dict[str, Any]: ...
    # the evening's card (scorepad/card.py), in the active language: "standings", the
    # players best first ({"player": id, "figure": text, "detail": text}), and "facts"
    # (lines: games, the evening's notable deals)
    def session_points(self, pid: str, record: SessionRecord) -> int | None: ...
    def evening_places(self, session: Session, seats: Sequence[str],
                       games: Sequence[Mapping[str, Any]]) -> dict[str, int]: ...
    # each seated player's place at the closed evening, as a season counts it
    # (docs/tournaments.md, "Seasons"): from the running state and the finished games'
    # summaries (FinishedGame, in order), never from the deals; ``base.places``: equal
    # players share (1, 2, 2, 4)


class Pages(Protocol):
    """The game's templates (found in its package's ``templates/``) and what its part of
    the scoreboard shows."""

    SESSION_TEMPLATE: str
    FORM_FRAGMENT: str
    EDIT_TEMPLATE: str
    BOARD_TEMPLATE: str  # included by _scoreboard.html
    SHEET_TEMPLATE: str  # extends sheet.html
    MONEY_RULES_TEMPLATE: str  # included by settlement.html
    SESSION_LINE_TEMPLATE: str  # a past session's own figures (``row``: stats.session_summary)
    SUMMARY_TEMPLATE: str  # a deal in a line (``deal``; ``cards``: history_detail; ``short``)
    def board_context(self, loaded: Loaded, board: dict[str, Any]) -> dict[str, Any]: ...
    def recorded_message(self, number: int) -> str: ...
    def rules_title(self, preset: str) -> str: ...  # a preset as the pages name it (no code)


class Forms(Protocol):
    """The forms: what the start form shows while the game is picked and makes of its
    rules, and the deal form with its live check."""

    def start_parts(self, form: Any) -> dict[str, Any]: ...
    # what the form that starts a session shows while the game is picked: "note" (a
    # sentence), "rules_legend" (its presets, the form's ``preset``), "house_rules" (rows)
    def form_rules(self, cleaned: Mapping[str, Any]
                   ) -> tuple[str | None, Mapping[str, Any] | None]: ...
    def again_rules(self, session: Session) -> tuple[str, list[tuple[str, str]]]: ...
    # the start form's preset ("": the form's default) and house-rule fields, filled for
    # a new session of the same table
    MODES: tuple[str, ...]  # ways to enter a deal; "" is the default
    def entry_context(self, loaded: Loaded, post: Any, *, number: int | None = None,
                      mode: str = "", submitted: bool = False) -> dict[str, Any]: ...
    def form_deal(self, post: Any, names: Names) -> dict[str, Any] | None: ...
    def form_values(self, deal: dict[str, Any], seats: list[str]
                    ) -> tuple[QueryDict, str]: ...
    def form_shows_errors(self, mode: str) -> bool: ...
    def keeps_typing(self, post: Any) -> bool: ...


class Words(Protocol):
    """The game's own words (its ``words.py``; their German and Hungarian in its
    ``locale/``): what its codes and its rules mean, and what the pages that speak of all
    the games together say of it."""

    WORDING: Wording  # a sentence for every code its rules report (messages.violation_message)
    RULE_HELP: Mapping[str, Any]  # every parameter of its rules: what it means
    ABOUT: Any  # how the home page names it ("Schreiber keeps the score of ...")
    STAKE_UNIT: Any  # what one unit of its stake is ("Stake per ...")
    STATS_NOTE: Any  # its note on the group's statistics table ("" for none)
    CHART_TITLES: Mapping[str, Any]
    def preset_lines(self) -> list[tuple[str, str]]: ...
    # its rule presets as the home page lists them: (name, a line on it), in the
    # active language (one line for a game with one set of rules)
    # the titles of the shared charts its figures are drawn in: "wins" (``won_games``),
    # "points" (``session_points``)


class Game(Play, Board, Api, LookingBack, Evening, Pages, Forms, Words, Protocol):
    """What a game package provides (names its ``__init__.py`` keeps): every part."""


#: The parts of ``Game``, each small enough to read at once.
PARTS: tuple[type, ...] = (Play, Board, Api, LookingBack, Evening, Pages, Forms, Words)


class _Registry:
    """The games of the setting, imported once (``registered``) and again whenever the
    setting changes (``setting_changed``: ``override_settings`` in tests)."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules: tuple[str, ...] = tuple(modules)
        missing = [m for m in self.modules if not apps.is_installed(m)]
        if missing:  # its templates, static files and words would not be found
            raise ImproperlyConfigured(
                f"SCHREIBER_GAMES names {', '.join(missing)}, which INSTALLED_APPS lacks")
        self.games: tuple[Game, ...] = tuple(import_module(m) for m in self.modules)
        self.by_name: dict[str, Game] = {game.NAME: game for game in self.games}
        if not self.games:
            raise ImproperlyConfigured("SCHREIBER_GAMES names no game")
        if len(self.by_name) != len(self.games):
            raise ImproperlyConfigured("two games of SCHREIBER_GAMES share a NAME")
        install_player_keys(functools.reduce(
            operator.or_, (game.PLAYER_KEYS for game in self.games), PlayerKeys()))
        gamechoices.install([(game.NAME, game.TITLE) for game in self.games])


#: The registry as read (``_loaded["now"]``), and what was made from it (``derived``).
_loaded: dict[str, _Registry] = {}
_forgetters: list[Callable[[], None]] = []
_followers: list[Callable[[], None]] = []


def _registry() -> _Registry:
    current = _loaded.get("now")
    if current is None:
        current = _loaded.setdefault("now", _Registry(settings.SCHREIBER_GAMES))
    return current


def registered() -> tuple[Game, ...]:
    """Every game of the setting ``SCHREIBER_GAMES`` (dotted module names), in the order
    the pages offer them: the registry. A new game is one more name there."""
    return _registry().games


def modules() -> tuple[str, ...]:
    """The registry's module names, as the setting lists them."""
    return _registry().modules


def default() -> str:
    """What a session plays when nobody says: the registry's first game."""
    return _registry().games[0].NAME


T = TypeVar("T")


def derived(make: Callable[[], T]) -> Callable[[], T]:
    """``make``, computed once from the registry and again after the registry changes:
    the one way anything made from the games (shapes, columns, tools...) is kept."""
    kept = functools.cache(make)
    _forgetters.append(kept.cache_clear)
    return kept


def when_changed(follow: Callable[[], None]) -> Callable[[], None]:
    """Call ``follow`` whenever the registry changes, after every ``derived`` value was
    forgotten (for what is kept outside this module: the routes...). Once: the apps'
    ``ready()`` runs again whenever a test installs other apps."""
    if follow not in _followers:
        _followers.append(follow)
    return follow


def reload() -> None:
    """Read the setting again: what was made from the old registry is forgotten."""
    _loaded.clear()
    _registry()
    for forget in _forgetters:
        forget()
    for follow in _followers:
        follow()


def _setting_changed(*, setting: str, **_kwargs: Any) -> None:
    if setting == "SCHREIBER_GAMES":
        reload()


setting_changed.connect(_setting_changed, dispatch_uid="scorepad.games.registry")


# --- the words that speak of all the games at once, from what each says of itself ------------


def _listed(items: Sequence[Any], last: str) -> str:
    """``items`` as a list in words: "a, b and c" (``last``: the list's "{items} and
    {last}", in the user's language)."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return last.format(items=", ".join(words[:-1]), last=words[-1])


def about() -> str:
    """The home page's sentence on the games this Schreiber keeps score for."""
    games = _listed([game.ABOUT for game in registered()],
                    pgettext("a list's last item", "{items} and {last}"))
    return gettext("Schreiber keeps the score of {games}, and settles the table's arguments "
                   "as a referee.").format(games=games)


def stake_label() -> str:
    """The start form's label of the stake: what one unit of it is in each game."""
    units = _listed([game.STAKE_UNIT for game in registered()],
                    pgettext("a list's last item", "{items} or {last}"))
    return gettext("Stake per {units}").format(units=units)


def stats_note(of: Sequence[Game] | None = None) -> str:
    """The note on the group's statistics: each game's on its figures (of every game, or
    of the games ``of``: those whose figures are shown)."""
    chosen = registered() if of is None else of
    return " ".join(str(game.STATS_NOTE) for game in chosen if game.STATS_NOTE)


#: The shared charts of the statistics pages, titled by the games whose figures they draw
#: (``CHART_TITLES``), and their titles when no game's figures are drawn there.
PLAIN_CHART_TITLES = {"wins": gettext_lazy("Line chart of games won so far"),
                      "points": gettext_lazy("Line chart of points per session")}


def chart_title(chart: str) -> str:
    """The title of a shared chart (one of ``PLAIN_CHART_TITLES``): the titles the games
    whose figures it draws give it, or the plain one."""
    titles = [str(game.CHART_TITLES[chart]) for game in registered()
              if chart in game.CHART_TITLES]
    return " · ".join(titles) if titles else str(PLAIN_CHART_TITLES[chart])


def get(name: str) -> Game:
    """The game called ``name``; KeyError for none."""
    return _registry().by_name[name]


def of(session: Session) -> Game:
    """The game ``session`` plays."""
    return get(session.game)


def for_tournaments() -> list[str]:
    """The games a tournament may play (those with ``TOURNAMENT``)."""
    return [game.NAME for game in registered() if game.TOURNAMENT is not None]


def names() -> list[str]:
    return list(_registry().by_name)


def choices() -> list[tuple[str, str]]:
    """(name, title) of every game, for choice fields."""
    return [(game.NAME, game.TITLE) for game in registered()]


__all__ = ["PARTS", "PLAIN_CHART_TITLES", "Api", "Board", "Column", "Evening", "Forms", "Game",
           "GameRules", "LookingBack", "Money", "Pages", "Play", "PlayerKeys", "TournamentPlay",
           "Words", "about", "chart_title", "choices", "default", "derived", "for_tournaments",
           "get", "modules", "names", "of", "registered", "reload", "stake_label",
           "stats_note", "when_changed"]
