"""Finds the static files a game keeps in its own package (``<game>/static/``: its scorer
for the phone and the rules data generated for it) under ``games/<game name>/``, as
``loader`` finds its templates: the game packages of the registry are static folders
beside the project's own ``static/`` (the setting STATICFILES_FINDERS names this finder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import BaseFinder, FileSystemFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage

from . import registered

#: The folder of each game's static files among the static URLs (``games/<name>/scorer.js``).
PREFIX = "games"


def static_dirs() -> list[tuple[str, str]]:
    """(URL prefix, folder) of every registered game that has static files."""
    out = []
    for game in registered():
        folder = Path(str(getattr(game, "__file__", ""))).parent / "static"
        if folder.is_dir():
            out.append((f"{PREFIX}/{game.NAME}", str(folder)))
    return out


class Finder(FileSystemFinder):
    def __init__(self, app_names: Any = None, *args: Any, **kwargs: Any) -> None:
        self.locations = static_dirs()
        self.storages = {}
        for prefix, root in self.locations:
            storage = FileSystemStorage(location=root)
            storage.prefix = prefix  # type: ignore[attr-defined]
            self.storages[root] = storage
        BaseFinder.__init__(self, *args, **kwargs)

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []  # the folders come from the registry, not from STATICFILES_DIRS
