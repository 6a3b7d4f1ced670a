"""What the tests ask of a game's words (docs/games.md, "What the tests check"): a sentence
for every code its rules can report, and the meaning of every parameter of its rules. Each
list names the game and what it lacks."""

from __future__ import annotations

from scorepad import games
from tests.codes import app_sources, game_sources, reported_codes, sites


def codes_of(game: games.Game) -> set[str]:
    """Every code the game can meet: its package's and its referee modules', and the
    app's own (a tournament's finished table)."""
    return reported_codes(*game_sources(game), *app_sources())


def missing_words() -> list[str]:
    """"<game>: <code> (<where it is reported>)" for every code a registered game reports
    without words for it, its own or the shared ones."""
    out = []
    for game in games.registered():
        worded = game.WORDING.merged.codes
        where = {site.code: site.where for site in sites(*game_sources(game), *app_sources())}
        out += [f"{game.NAME}: {code} ({where.get(code, 'returned by a _violation function')})"
                for code in sorted(codes_of(game)) if code not in worded]
    return out


def missing_help() -> list[str]:
    """"<game>: <parameter>" for every parameter of a registered game's rules without its
    meaning, and "<game>: <name> is no parameter" for help of a parameter it lacks."""
    out = []
    for game in games.registered():
        params = set(game.rules(None, None).params)
        out += [f"{game.NAME}: {name}" for name in sorted(params - set(game.RULE_HELP))]
        out += [f"{game.NAME}: {name} is no parameter"
                for name in sorted(set(game.RULE_HELP) - params)]
        out += [f"{game.NAME}: {name} is empty" for name, text in game.RULE_HELP.items()
                if not str(text).strip()]
    return out
