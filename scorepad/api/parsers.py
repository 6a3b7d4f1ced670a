"""The API's JSON parser: DRF's, with a bound on nesting.

Python's json module recurses once per level: a body of a thousand ``[`` (2 KB) raised
RecursionError, which DRF does not turn into a parse error (a 500). No field of the
contract nests deeper than a few levels, so anything deeper than ``MAX_DEPTH`` is refused
with a 400 before any code walks it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32


def depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        too_deep = _("JSON parse error - the body nests lists and objects more than "
                     "%(most)d levels deep.") % {"most": MAX_DEPTH}
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(too_deep) from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(too_deep)
        return data
