"""Finds the templates a game keeps in its own package (``<game>/templates/``), under
the names they always had (``scorepad/_board_mura.html``): the game packages of the
registry are template folders after the project's own ``templates/``, and so is the
registry's own (``games/templates/``: the words that speak of all the games at once)."""

from __future__ import annotations

from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader

from . import REGISTRY


class Loader(FilesystemLoader):
    def get_dirs(self) -> list[Path]:
        return [Path(game.__file__).parent / "templates" for game in REGISTRY
                if game.__file__ is not None] + [Path(__file__).parent / "templates"]
