from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples" / "referee.json"


def load_examples() -> list[dict[str, Any]]:
    """The worked deals of ../shared/examples (they must exist: CI runs beside shared/)."""
    return list(json.loads(EXAMPLES.read_text(encoding="utf-8")))


@pytest.fixture
def examples() -> list[dict[str, Any]]:
    return load_examples()


@pytest.fixture(autouse=True)
def _static_files_without_collectstatic(request: pytest.FixtureRequest) -> None:
    """Production settings serve hashed files from collectstatic's manifest; tests serve
    the source files through the finders instead of running collectstatic first.
    (Referee tests may run without Django: ``-p no:django``.)"""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
