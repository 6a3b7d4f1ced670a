"""collectstatic for production: our own scripts and stylesheets minified (rjsmin and
rcssmin drop comments and white space, nothing else), then hashed and compressed as
whitenoise does. The sources keep their comments, which are most of their bytes: the
session page's scripts and stylesheet come to a phone at about two thirds of their
gzipped size (bench/README.md, its Lighthouse section). Third-party files (htmx, the admin's) are
copied as they come."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from django.conf import settings
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


def ours(source: Any) -> bool:
    """Whether a file comes from the project (static/, a game's package), by the storage
    the finders found it in."""
    location = Path(str(getattr(source, "location", "") or ""))
    base = Path(settings.BASE_DIR)
    return location.is_relative_to(base / "static") or location.is_relative_to(
        base / "scorepad")


def minify(name: str, text: str) -> str | None:
    """``text`` minified, or None for a file that is not a script or a stylesheet."""
    if name.endswith((".min.js", ".min.css")):
        return None
    if name.endswith(".js"):
        return str(rjsmin.jsmin(text, keep_bang_comments=True))
    if name.endswith(".css"):
        return str(rcssmin.cssmin(text, keep_bang_comments=True))
    return None


class MinifiedStorage(CompressedManifestStaticFilesStorage):
    def post_process(self, paths: dict[str, Any], dry_run: bool = False,
                     **options: Any) -> Iterator[Any]:
        if not dry_run:
            paths = dict(paths)
            for name, (source, path) in list(paths.items()):
                if not ours(source) or not name.endswith((".js", ".css")):
                    continue
                with source.open(path) as original:
                    small = minify(name, original.read().decode("utf-8"))
                if small is None:
                    continue
                if self.exists(name):
                    self.delete(name)
                self._save(name, ContentFile(small.encode("utf-8")))
                # hashed and compressed from the copy, the minified one
                paths[name] = (self, name)
        yield from super().post_process(paths, dry_run, **options)
