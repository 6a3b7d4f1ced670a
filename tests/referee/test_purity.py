"""The referee is pure Python: standard library only, no Django, no I/O framework."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT / "referee"
MODULES = sorted(REFEREE.glob("*.py"))
FORBIDDEN = ("django", "rest_framework", "scorepad", "drf_spectacular")


def imported_roots(path: Path) -> list[tuple[str, int]]:
    """The top-level package of every absolute import in a file, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.module.split(".")[0], node.lineno))
    return out


def test_the_referee_package_has_the_mulatschak_modules():
    names = {p.stem for p in MODULES}
    assert {"__init__", "cards", "rules", "deal", "auction", "trick", "violations"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_referee_module_imports_only_the_standard_library(path):
    allowed = set(sys.stdlib_module_names) | {"__future__", "referee"}
    foreign = [(name, line) for name, line in imported_roots(path) if name not in allowed]
    assert foreign == [], f"{path.name} imports outside the standard library: {foreign}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_referee_module_never_imports_the_web_layer(path):
    roots = {name for name, _ in imported_roots(path)}
    assert not roots & set(FORBIDDEN)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_referee_module_has_no_dynamic_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
    ]
    assert "__import__" not in calls
    assert "import_module" not in calls


def test_the_import_checker_sees_a_foreign_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom django.db import models\nfrom . import cards\n")
    assert imported_roots(sample) == [("os", 1), ("django", 2)]


def test_importing_the_referee_does_not_load_django():
    code = (
        "import referee, referee.deal, referee.auction, referee.trick, sys; "
        "assert 'django' not in sys.modules, 'django was loaded'; "
        "assert 'rest_framework' not in sys.modules; "
        "assert 'scorepad' not in sys.modules"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_importing_the_referee_deal_module_alone_works():
    done = subprocess.run(
        [sys.executable, "-c", "import referee.deal, sys; assert 'django' not in sys.modules"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
