"""The project's own rules document, ``docs/rules.md``, as tests read it.

The document marks the tables that the code must agree with by HTML comments that a
reader never sees: ``<!-- name -->`` opens a marked part, ``<!-- /name -->`` closes it.
"""

from __future__ import annotations

import re
from pathlib import Path

RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def marked(name: str) -> str:
    """The text between ``<!-- name -->`` and ``<!-- /name -->`` in docs/rules.md."""
    text = RULES_DOC.read_text(encoding="utf-8")
    match = re.search(rf"<!-- {re.escape(name)} -->(.*?)<!-- /{re.escape(name)} -->", text,
                      flags=re.DOTALL)
    assert match, f"docs/rules.md has no part marked {name!r}"
    return match.group(1)


def first_column_codes(name: str) -> list[str]:
    """The `code` that opens each table row of a marked part, in order."""
    return re.findall(r"^\| `([a-z0-9_]+)` \|", marked(name), flags=re.MULTILINE)
