"""Each page loads the scripts it uses and no others: htmx where something polls or swaps,
the deal form's scripts (and its game's phone scorer) where there is a deal form to fill. A
page that carries scripts it never runs costs a phone on slow data what it does not use
(bench/README.md, Lighthouse). ``problems`` is asked of every page each persona gets in the
access tests (test_access.py), which request them all anyway."""

from __future__ import annotations

import re

HTMX = re.compile(r'<script src="[^"]*/htmx[^"]*\.js"')
SWAPS = re.compile(r"\shx-(?:get|post|trigger|swap-oob)=")
DEAL_FORM = re.compile(r"<form\b[^>]*\sdata-(?:entry|save)\b")
GAME_PHONE = re.compile(r"/games/[a-z_]+/phone")
ENTRY = ("entry.js", "saving.js", "kept.js")


def scripts(html: str) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', html)


def loads(html: str, name: str) -> bool:
    return any(src.rsplit("/", 1)[-1].split(".")[0] == name.split(".")[0]
               for src in scripts(html))


def problems(html: str) -> list[str]:
    """What a page loads that it does not use, or uses without loading."""
    found = []
    if bool(SWAPS.search(html)) != bool(HTMX.search(html)):
        found.append("htmx loaded without a swap, or a swap without htmx")
    form = bool(DEAL_FORM.search(html))
    if any(loads(html, s) for s in ENTRY) != form or form != all(loads(html, s) for s in ENTRY):
        found.append("the deal form's scripts without a deal form, or a deal form without them")
    if form and not GAME_PHONE.search(html):
        found.append("a deal form without its game's phone scorer")
    return found
