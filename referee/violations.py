"""Rule violations: a stable code, the player at fault (if one is), and parameters.

Never translated text: the edge (scorepad) maps codes to messages in the user's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Violation:
    code: str
    player: str | None = None
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, code: str, player: str | None = None, **params: Any) -> Violation:
        return cls(code, player, MappingProxyType(dict(params)))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code}
        if self.player is not None:
            out["player"] = self.player
        if self.params:
            out["params"] = dict(self.params)
        return out


class RuleError(ValueError):
    """An input the referee cannot work with: not a rule violation but malformed data.

    ``field`` names the offending input (``"overrides.knock_doubles"``) so that the edge
    can answer 400 naming it. ``code`` and ``params`` let the edge say it in the user's
    language; ``message`` is the plain English fallback.
    """

    def __init__(self, field: str, message: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code
        self.params = MappingProxyType(dict(params))
