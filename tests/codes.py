"""The violation codes the source reports, as the tests read them: by module (the referee's,
docs/rules.md's code tables), by place (``sites``: the parameters each place gives), and by
game (``game_sources``: the referee modules a game's package imports, and the package).

A code is the first argument of ``Violation.of(...)``, ``Violation(...)`` or a local
``add(...)`` helper (a string, or a module-level name bound to one), or a string that a
``..._violation`` function returns.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / "referee"
#: The app outside its games (what it reports itself: a tournament's finished table).
APP = ROOT / "scorepad"


@dataclass(frozen=True)
class Site:
    """One place that reports a code: whether it names a player, and the parameters."""

    where: str
    code: str
    player: bool
    params: frozenset[str]


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_tree(path)))


def _constants(tree: ast.Module) -> dict[str, str]:
    """The module's names bound to a string at its top level (``TABLE_FINISHED = "..."``)."""
    out = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            out[node.targets[0].id] = node.value.value
    return out


def _is_maker(func: ast.expr) -> bool:
    return ((isinstance(func, ast.Attribute) and func.attr == "of"
             and isinstance(func.value, ast.Name) and func.value.id == "Violation")
            or (isinstance(func, ast.Name) and func.id in ("Violation", "add")))


def sites(*paths: Path) -> list[Site]:
    """Every call that makes a violation with a known code, and what it gives."""
    return [site for path in paths for site in _sites(path)]


@cache
def _sites(path: Path) -> tuple[Site, ...]:
    found = []
    names = _constants(_tree(path))
    for node in _nodes(path):
        if not (isinstance(node, ast.Call) and node.args and _is_maker(node.func)):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            code = first.value
        elif isinstance(first, ast.Name) and first.id in names:
            code = names[first.id]
        else:
            continue
        player = len(node.args) > 1 and not (
            isinstance(node.args[1], ast.Constant) and node.args[1].value is None)
        params = frozenset(k.arg for k in node.keywords if k.arg)
        found.append(Site(f"{path.relative_to(ROOT)}:{node.lineno}", code, player, params))
    return tuple(found)


def reported_codes(*paths: Path) -> set[str]:
    """The violation codes that the modules report, read from their source."""
    codes = {site.code for site in sites(*paths)}
    for path in paths:
        for node in _nodes(path):
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_violation"):
                for inner in ast.walk(node):
                    if (isinstance(inner, ast.Return) and isinstance(inner.value, ast.Constant)
                            and isinstance(inner.value.value, str)):
                        codes.add(inner.value.value)
    return codes


def _referee_imports(path: Path) -> set[str]:
    """The referee modules a module imports by name (``from referee.mura import ...``,
    ``from referee import tally``)."""
    out: set[str] = set()
    for node in _nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module == "referee":
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("referee."):
            out.add(str(node.module).split(".")[1])
        elif isinstance(node, ast.Import):
            out |= {alias.name.split(".")[1] for alias in node.names
                    if alias.name.startswith("referee.")}
    return out


def game_sources(game: ModuleType) -> list[Path]:
    """Where a game's codes come from: its package's modules and the referee modules they
    import (the referee's shared modules report the shared codes: the table's, the cards')."""
    package = Path(str(game.__file__)).parent
    own = sorted(p for p in package.rglob("*.py") if not p.name.startswith("test_"))
    modules = set().union(*(_referee_imports(p) for p in own))
    return own + sorted(p for name in modules if (p := REFEREE / f"{name}.py").is_file())


def app_sources() -> list[Path]:
    """The app's modules outside its games (their codes are worded for every game)."""
    return sorted(p for p in APP.rglob("*.py")
                  if "games" not in p.relative_to(APP).parts[:1]
                  and "migrations" not in p.parts)
