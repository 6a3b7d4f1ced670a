"""Turning typed, tampered or URL text into numbers: one bounded parser, for database ids
and for the counts typed into the pages' forms; and the one check of a token (a watch
link's, an invitation's) before it is looked up.

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


def parse_number(value: object, least: int, most: int) -> int | None:
    """``value`` (an int, or ASCII digits) as a number from ``least`` to ``most``, or None
    if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _ASCII_DIGITS.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if least <= number <= most else None


def parse_id(value: object, most: int = ID_MAX) -> int | None:
    """``value`` as an id from 1 to ``most``, or None if it is not one."""
    return parse_number(value, 1, most)


def parse_count(value: object, most: int = ID_MAX) -> int | None:
    """A count typed into a form (tricks, figures, a seat's index) from 0 to ``most``, or
    None if it is not one (blank, "x", "-1")."""
    return parse_number(value, 0, most)


#: A token as ``secrets.token_urlsafe`` writes them (sharing.new_token), at most as long
#: as the columns that hold them. Anything else (a NUL, which PostgreSQL refuses in text;
#: spaces, other letters) is no token and finds nothing.
TOKEN = "[A-Za-z0-9_-]{1,64}"
_TOKEN = re.compile(TOKEN)


def is_token(value: object) -> bool:
    return isinstance(value, str) and _TOKEN.fullmatch(value) is not None


class TokenConverter:
    """``<token:name>`` in a URL pattern: only a token matches (else 404)."""

    regex = TOKEN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
