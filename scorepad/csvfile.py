"""The one writer of every CSV file the product writes: a session's deals
(scorepad/transfer/exporting.py), a tournament's ranking (scorepad/views/tournament_paper.py)
and whatever comes later. Nothing else in scorepad/ calls ``csv.writer``
(tests/scorepad/test_csvfile.py holds it to that).

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and
one that begins with a tab or a carriage return may be read as one), so a player named
``=HYPERLINK(...)`` would run in every spreadsheet that opens the file. A text cell that
begins so is written with an apostrophe before it (``'=HYPERLINK(...)``), which a
spreadsheet shows as text and does not run. Numbers stay numbers: an ``int``, a
``Decimal`` or a ``float`` (a score of ``-3``, points of ``-1.33``) is written as it is.
So the caller says what is a number by its type: a figure kept as text (``"-1.33"``) is
escaped like a name.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

#: The first characters of a text cell that a spreadsheet may run as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """``value`` as its cell: a number as it is, text that a spreadsheet would run behind
    an apostrophe, None as an empty cell, anything else as its text."""
    if value is None or (isinstance(value, int | float | Decimal)
                         and not isinstance(value, bool)):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write(rows: Iterable[Sequence[object]], *, byte_order_mark: bool = False) -> str:
    """The rows as a CSV file (lines end in CRLF, as RFC 4180 says); with
    ``byte_order_mark``, a spreadsheet reads the names' accents right."""
    out = io.StringIO()
    if byte_order_mark:
        out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()
