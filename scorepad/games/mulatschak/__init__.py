"""Mulatschak and its variants (Muli, Murln; docs/rules.md, "Mulatschak"): scores count down
from the start score, multipliers for hearts, collapses and knocks, one game after the other.

A deal is the referee's ``deal`` object (``kind``, ``declarer``, ``bid``, ``trump``,
``stayed_home``, ``tricks``, ...). The state of a session is referee.session's
SessionState as JSON; each stored deal's result is the referee's DealOutcome as JSON.

The package by concern: ``play`` (what Mulatschak is: its name, the session's frozen
rules; start, apply, replay and a deal previewed; the state and outcomes as stored; the
multiplier in words), ``shapes`` (the deal and the rules as the API and the services take
them, the API's answers), ``scoreboard`` (scoreboard and money), ``looking_back``
(statistics, sheet, chart, CSV), ``form`` (the pages' context and the deal form); the
last three read ``play`` only. Beside them ``startform`` (the house rules on the form that
starts a session), ``disputes`` (the Referee page's questions), ``api`` (the stateless
referee API's endpoints) and ``templates/``. This module keeps every name the registry
reads (the ``Game`` protocol of ``scorepad.games``).
"""

from __future__ import annotations

from .form import (
    BOARD_TEMPLATE,
    EDIT_TEMPLATE,
    FORM_FRAGMENT,
    MODES,
    MONEY_RULES_TEMPLATE,
    SESSION_LINE_TEMPLATE,
    SESSION_TEMPLATE,
    SHEET_TEMPLATE,
    SUMMARY_TEMPLATE,
    again_rules,
    board_context,
    entry_context,
    form_deal,
    form_rules,
    form_shows_errors,
    form_values,
    keeps_typing,
    recorded_message,
    start_parts,
)
from .looking_back import (
    FIGURES_TEMPLATE,
    STATS_COLUMNS,
    STATS_KEY,
    card,
    chart_lines,
    csv_rows,
    evening_places,
    history_detail,
    placings,
    session_points,
    sheet_rows,
    stats_add,
    stats_contract,
    stats_empty,
    stats_finish,
    summary,
    won_games,
)
from .play import (
    NAME,
    PLAYER_KEYS,
    TITLE,
    TOURNAMENT,
    apply,
    finished_game,
    kind,
    normalize,
    replayer,
    rules,
    rules_title,
    start,
)
from .scoreboard import (
    BALANCES_ALWAYS,
    board,
    money,
    settlement_details,
)
from .scorer import scorer_data, scorer_texts
from .shapes import (
    BOARD_OUT,
    DEAL_IN,
    DEAL_OUT,
    RULES_SCHEMA,
    SETTLEMENT_DETAILS_OUT,
    STATS_OUT,
    deal_out,
    parse_deal,
)
from .words import (
    ABOUT,
    CHART_TITLES,
    RULE_HELP,
    STAKE_UNIT,
    STATS_NOTE,
    WORDING,
    preset_lines,
)

__all__ = [
    # its words (words.py)
    "ABOUT",
    "CHART_TITLES",
    "RULE_HELP",
    "STAKE_UNIT",
    "STATS_NOTE",
    "WORDING",
    "preset_lines",
    "BALANCES_ALWAYS",
    "BOARD_OUT",
    "BOARD_TEMPLATE",
    "DEAL_IN",
    "DEAL_OUT",
    "EDIT_TEMPLATE",
    "FIGURES_TEMPLATE",
    "FORM_FRAGMENT",
    "MODES",
    "MONEY_RULES_TEMPLATE",
    "NAME",
    "RULES_SCHEMA",
    "SESSION_LINE_TEMPLATE",
    "SESSION_TEMPLATE",
    "SETTLEMENT_DETAILS_OUT",
    "SHEET_TEMPLATE",
    "STATS_COLUMNS",
    "STATS_KEY",
    "STATS_OUT",
    "SUMMARY_TEMPLATE",
    "TITLE",
    "PLAYER_KEYS",
    "TOURNAMENT",
    "again_rules",
    "apply",
    "board",
    "board_context",
    "card",
    "chart_lines",
    "csv_rows",
    "deal_out",
    "entry_context",
    "finished_game",
    "form_deal",
    "form_rules",
    "form_shows_errors",
    "form_values",
    "history_detail",
    "keeps_typing",
    "kind",
    "money",
    "normalize",
    "parse_deal",
    "evening_places",
    "placings",
    "recorded_message",
    "replayer",
    "rules",
    "rules_title",
    "scorer_data",
    "scorer_texts",
    "session_points",
    "settlement_details",
    "sheet_rows",
    "start",
    "start_parts",
    "stats_add",
    "stats_contract",
    "stats_empty",
    "stats_finish",
    "summary",
    "won_games",
]
