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
def _test_settings(request: pytest.FixtureRequest) -> None:
    """Fast password hashing, and static files through the finders (production serves the
    hashed files of collectstatic's manifest). Referee tests may run without Django."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    # Real password hashing costs ~0.3 s a user; tests create hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
