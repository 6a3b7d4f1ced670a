"""Turning typed, tampered or URL text into database ids: one bounded parser.

An id is written in ASCII digits and lies from 1 to ``ID_MAX`` (the largest BIGINT, the
type of every primary key here). ``str.isdigit()`` is not enough ("²" is a digit to it)
and neither is ``int()`` (it reads "١٢", " 12" and "1_2"); a number past the database's
range makes SQLite raise ``OverflowError``. Whatever is not an id finds nothing: pages
and URLs answer 404, an API body names the field (400).
"""

from __future__ import annotations

import re

#: The largest id any table can hold (BIGINT).
ID_MAX = 2**63 - 1

_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_id(value: object, most: int = ID_MAX) -> int | None:
    """``value`` as an id from 1 to ``most``, or None if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _ASCII_DIGITS.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if 1 <= number <= most else None
