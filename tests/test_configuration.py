"""Every setting the environment gives is told to whoever deploys Schreiber: each variable
that ``scorepad/settings.py`` reads has its row in docs/deploy.md, "Configuration", and
each of gunicorn's (``GUNICORN_*``, read by ``gunicorn.conf.py``) is in docs/deploy.md,
"4. Environment file": the settings the README leads to stay whole.

Runs without Django (``pytest tests/test_configuration.py -p no:django``).
"""

from __future__ import annotations

import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
#: How the settings read a variable: ``os.environ.get("X")``, ``os.environ["X"]``,
#: ``_flag("X")``, gunicorn.conf.py's ``_int("X")``; DATABASE_URL is read by dj-database-url.
_READ = re.compile(r'(?:os\.environ\.get\(|os\.environ\[|_flag\(|_int\()\s*"([A-Z][A-Z0-9_]+)"')


def read_by(path: str) -> set[str]:
    return set(_READ.findall((PROJECT / path).read_text(encoding="utf-8")))


def section(document: str, heading: str) -> str:
    """A markdown section's text, from its heading to the next heading of its level."""
    text = (PROJECT / document).read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def test_the_settings_are_read_as_this_test_reads_them():
    assert {"DJANGO_DEBUG", "DJANGO_SECRET_KEY", "SCHREIBER_CACHE_URL"} <= read_by(
        "scorepad/settings.py")
    assert {"GUNICORN_BIND", "GUNICORN_WORKERS"} <= read_by("gunicorn.conf.py")


def test_every_variable_the_settings_read_has_its_row_in_the_configuration_table():
    table = section("docs/deploy.md", "Configuration")
    rows = {name for line in table.splitlines() if line.startswith("| `")
            for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split(" | ")[0])}
    assert sorted((read_by("scorepad/settings.py") | {"DATABASE_URL"}) - rows) == []


def test_every_variable_of_gunicorn_is_in_the_environment_file():
    told = section("docs/deploy.md", "4. Environment file")
    assert sorted(n for n in read_by("gunicorn.conf.py") if n not in told) == []
