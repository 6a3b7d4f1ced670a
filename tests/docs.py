"""The project's own rules document, ``docs/rules.md``, as tests read it.

The document marks the tables that the code must agree with by HTML comments that a
reader never sees: ``<!-- name -->`` opens a marked part, ``<!-- /name -->`` closes it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

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


def table_rows(name: str) -> dict[str, list[str]]:
    """Each row of a marked table by its first-column code: the other cells."""
    rows: dict[str, list[str]] = {}
    for line in marked(name).splitlines():
        match = re.match(r"^\| `([a-z0-9_]+)` \|(.*)\|\s*$", line)
        if match:
            assert match.group(1) not in rows, f"{match.group(1)} twice in {name}"
            rows[match.group(1)] = [c.strip() for c in match.group(2).split("|")]
    return rows


def _value(cell: str) -> Any:
    """A value as the parameter tables write it: true, 21, null, `german36`, "declarer −10,
    others +10", or words with the JSON in backticks ("3 at a table of four or five, else 5
    (`{...}`)"); a house reading's mark (*house*) is not part of it."""
    text = cell.replace("(*house*)", "").strip()
    if text in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[text]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    payout = re.fullmatch(r"declarer ([−+]?\d+), others ([−+]?\d+)", text)
    if payout:
        return {"declarer": int(payout.group(1).replace("−", "-")),
                "others": int(payout.group(2).replace("−", "-"))}
    quoted = re.findall(r"`([^`]*)`", text)
    assert len(quoted) == 1, f"no value in {cell!r}"
    return json.loads(quoted[0]) if quoted[0].startswith("{") else quoted[0]


def documented_presets(name: str = "mulatschak-parameters") -> dict[str, dict[str, Any]]:
    """Each preset's value of every parameter, as the marked parameter table gives them
    (its columns are the presets, its last column the meaning)."""
    header = next(line for line in marked(name).splitlines() if line.startswith("| parameter"))
    presets = [cell.strip().strip("`") for cell in header.strip("|").split("|")[1:-1]]
    rows = table_rows(name)
    return {preset: {param: _value(cells[i]) for param, cells in rows.items()}
            for i, preset in enumerate(presets)}
