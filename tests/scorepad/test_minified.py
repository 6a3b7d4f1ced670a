"""Production's static files: our scripts and stylesheets minified by collectstatic
(scorepad/minified.py) still run as their sources do; the browser tests run the sources, so
these tests are what stands between a minifier's slip and a phone."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

from scorepad import minified

from .scorer_cases import sessions
from .test_scorer import BATCH, RUNNER, differences, node, run_scorer, scripts

ROOT = Path(__file__).resolve().parents[2]


def own_files(suffix: str) -> list[Path]:
    found = [*(ROOT / "static").glob(f"*{suffix}"),
             *(ROOT / "scorepad" / "games").glob(f"*/static/**/*{suffix}")]
    assert found
    return sorted(found)


@pytest.mark.parametrize("path", own_files(".js"), ids=lambda p: p.name)
def test_every_script_of_ours_minified_is_still_javascript(path: Path, tmp_path: Path):
    small = minified.minify(path.name, path.read_text(encoding="utf-8"))
    assert small is not None and len(small) < path.stat().st_size
    copy = tmp_path / path.name
    copy.write_text(small, encoding="utf-8")
    checked = subprocess.run([node(), "--check", str(copy)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr[-2000:]


def test_the_phones_scorer_minified_answers_as_its_source(tmp_path: Path):
    small = []
    for name in scripts():
        copy = tmp_path / f"{len(small)}-{Path(name).name}"
        copy.write_text(str(minified.minify(name, Path(name).read_text(encoding="utf-8"))),
                        encoding="utf-8")
        small.append(str(copy))
    played = sessions(seed=29, deals=600)[:BATCH]
    answer = subprocess.run(
        [node(), str(RUNNER)], input=json.dumps({"scripts": small,
                                                 "sessions": [s.case() for s in played]}),
        capture_output=True, text=True, check=False, timeout=600)
    assert answer.returncode == 0, answer.stderr[-3000:]
    got = list(json.loads(answer.stdout))
    assert got == run_scorer([s.case() for s in played])
    assert differences(played, got) == []


def test_the_stylesheet_minified_keeps_every_rule(tmp_path: Path):
    source = (ROOT / "static" / "schreiber.css").read_text(encoding="utf-8")
    small = str(minified.minify("schreiber.css", source))
    assert len(small) < 0.8 * len(source)
    assert small.count("{") == source.count("{")  # no rule lost
    assert small.count("@media") == source.count("@media") > 0


@pytest.mark.django_db
def test_collectstatic_minifies_ours_and_leaves_the_others_as_they_come(settings, tmp_path):
    from django.contrib.staticfiles.management.commands.collectstatic import Command

    command = Command()
    command.storage = minified.MinifiedStorage(location=str(tmp_path))
    call_command(command, interactive=False, verbosity=0)
    entry = tmp_path / "entry.js"
    assert entry.read_text(encoding="utf-8") == minified.minify(
        "entry.js", (ROOT / "static" / "entry.js").read_text(encoding="utf-8"))
    game = tmp_path / "games" / "mulatschak" / "phone.js"
    assert "//" not in game.read_text(encoding="utf-8").split("\n", 1)[0]
    htmx = next(tmp_path.glob("django_htmx/htmx*.min.js"))
    assert htmx.read_bytes() == Path(str(finders.find(f"django_htmx/{htmx.name}"))).read_bytes()
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())
    hashed = tmp_path / manifest["paths"]["entry.js"]
    assert hashed.read_text(encoding="utf-8") == entry.read_text(encoding="utf-8")
    assert (tmp_path / (manifest["paths"]["entry.js"] + ".gz")).is_file()
