"""docs/rules.md inside the app: rendered to HTML once, with the heading anchors the
document lists at its top (GitHub's slugs), so that ``/rules/#following-suit`` works on
the phone as ``docs/rules.md#following-suit`` does on GitHub.

Sanitised by construction: markdown-it with raw HTML off (the document's ``<!-- -->``
markers are dropped before), links only where markdown-it deems them safe, no inline
style (wide tables scroll inside ``.scroller``), so the page keeps the strict CSP.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings

RULES_MD = Path(settings.BASE_DIR) / "docs" / "rules.md"

#: Where links from the app's answers point: the rendered document (``/rules/``).
_COMMENT = re.compile(r"<!--.*?-->", flags=re.DOTALL)


def slug(text: str) -> str:
    """GitHub's heading anchor: lowercase, punctuation dropped (hyphens and underscores
    kept), each space a hyphen. "Knocks and collapses" → ``knocks-and-collapses``."""
    text = unicodedata.normalize("NFC", text).strip().lower()
    text = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return text.replace(" ", "-")


@dataclass(frozen=True)
class RulesDoc:
    html: str
    anchors: tuple[str, ...]  # every heading's anchor, in order
    title: str


def _render(text: str) -> RulesDoc:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    tokens = md.parse(_COMMENT.sub("", text))
    seen: dict[str, int] = {}
    anchors: list[str] = []
    title = ""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[index + 1]
            words = "".join(child.content for child in inline.children or ()
                            if child.type in ("text", "code_inline"))
            anchor = slug(words)
            if anchor in seen:  # GitHub numbers repeated headings: x, x-1, x-2
                seen[anchor] += 1
                anchor = f"{anchor}-{seen[anchor]}"
            else:
                seen[anchor] = 0
            token.attrSet("id", anchor)
            anchors.append(anchor)
            if token.tag == "h1" and not title:
                title = words
        elif token.type in ("th_open", "td_open"):
            token.attrs.pop("style", None)  # column alignment: the CSP allows no inline style
    rendered: Any = md.renderer.render(tokens, md.options, {})
    html = str(rendered)
    # a table wider than the phone scrolls sideways in its box, which the keyboard reaches
    # too (tabindex: axe-core's scrollable-region-focusable)
    html = html.replace("<table>", '<div class="scroller" tabindex="0"><table>').replace(
        "</table>", "</table></div>")
    return RulesDoc(_sections(html), tuple(anchors), title)


def _sections(html: str) -> str:
    """Each ``<h2>`` with what follows it up to the next in a ``<section>``: the phone then
    lays out and paints only the sections on the screen (``content-visibility`` in
    schreiber.css), not the whole document of some two thousand elements at once (its
    first rendering was the page's long task, 400 ms on a slow phone)."""
    head, *parts = re.split(r"(?=<h2[ >])", html)
    return head + "".join(f"<section>{part}</section>" for part in parts)


@lru_cache(maxsize=4)
def _cached(path: str, mtime: float) -> RulesDoc:
    return _render(Path(path).read_text(encoding="utf-8"))


def rules_doc(path: Path = RULES_MD) -> RulesDoc:
    """The document as HTML, rendered again only when the file changed."""
    return _cached(str(path), path.stat().st_mtime)


def listed_anchors(path: Path = RULES_MD) -> list[str]:
    """The anchors docs/rules.md lists between ``<!-- anchors -->`` and its end."""
    text = path.read_text(encoding="utf-8")
    match = re.search(r"<!-- anchors -->(.*?)<!-- /anchors -->", text, flags=re.DOTALL)
    return re.findall(r"\]\(#([a-z0-9-]+)\)", match.group(1)) if match else []
