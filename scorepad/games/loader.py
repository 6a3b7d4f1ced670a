"""Finds the templates a game keeps in its own package (``<game>/templates/``), under
the names they always had (``scorepad/_board_mura.html``): the game packages of the
registry are template folders after the project's own ``templates/``, and so is the
registry's own (``games/templates/``: the words that speak of all the games at once).
The folders are the registry's of the moment: when it changes, the template engines
forget what they cached."""

from __future__ import annotations

from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader

from . import registered, when_changed


class Loader(FilesystemLoader):
    def get_dirs(self) -> list[Path]:
        return [Path(game.__file__).parent / "templates" for game in registered()
                if game.__file__ is not None] + [Path(__file__).parent / "templates"]


@when_changed
def _forget_templates() -> None:
    """Templates found (or not) under the old registry's folders are looked up again."""
    from django.template import engines
    from django.template.backends.django import DjangoTemplates

    for backend in engines.all():
        if isinstance(backend, DjangoTemplates):
            for loader in backend.engine.template_loaders:
                loader.reset()
