"""Checking rule overrides against a rule set's defaults: each value of the default's type."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .violations import RuleError


def typed_overrides(defaults: Mapping[str, Any], overrides: object) -> dict[str, Any]:
    """``defaults`` with ``overrides`` applied, each of its default's JSON type (a bool is
    not a number), or RuleError naming ``overrides.<name>``."""
    if not isinstance(overrides, Mapping):
        raise RuleError("overrides", "must be an object of rule names and values", "not_object")
    values: dict[str, Any] = dict(defaults)
    for name, value in overrides.items():
        key = f"overrides.{name}"
        if not isinstance(name, str) or name not in defaults:
            raise RuleError(key, "is not a parameter of these rules", "unknown_parameter")
        default = defaults[name]
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise RuleError(key, "must be true or false", "not_bool")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(key, "must be a whole number", "not_int")
        elif not isinstance(value, str):
            raise RuleError(key, "must be a string", "not_string")
        values[name] = value
    return values


def one_of(choices: Sequence[str]) -> dict[str, Any]:
    """The JSON Schema of a string that is one of ``choices`` (as a pattern: the API's
    schema keeps enums for its own fields)."""
    return {"type": "string", "pattern": f"^({'|'.join(choices)})$"}


def overrides_schema(defaults: Mapping[str, Any],
                     special: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The JSON Schema of the overrides ``typed_overrides`` takes: each parameter of its
    default's type, unless ``special`` says more; no other key."""
    def typed(default: Any) -> dict[str, Any]:
        if isinstance(default, bool):
            return {"type": "boolean"}
        if isinstance(default, int):
            return {"type": "integer"}
        return {"type": "string"}

    return {"type": "object", "additionalProperties": False,
            "properties": {name: dict(special.get(name) or typed(default))
                           for name, default in defaults.items()}}
