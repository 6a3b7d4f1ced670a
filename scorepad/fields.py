"""Strict serializer fields: JSON types are checked, never coerced (the API's inputs and
the games' deal shapes, which the services check with them).

DRF's stock fields turn ``"3"`` into 3 and ``5`` into ``"5"``; the contract says wrong
types answer 400, so these refuse them.
"""

from __future__ import annotations

import threading
from datetime import UTC
from typing import Any

from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict

from referee.auction import normalize_call
from referee.cards import CardSyntaxError, split_code
from referee.muller_matz import muller_matz_rules
from referee.rules import PRESETS, mulatschak_rules
from referee.violations import RuleError
from scorepad.messages import input_error_message

MAX_NAME = 40
MAX_PLAYERS = 12

_bound = threading.local()


class Shape(serializers.Serializer):  # type: ignore[type-arg]
    """The base of every serializer here: its declared fields are copied and bound once
    per class and thread, not once per instance.

    DRF deep-copies a serializer's declared fields for every instance, nested serializers
    and their fields included: ~100 field constructions for a deal POST's answer, a fifth
    of its time (bench/README.md). Here a new instance takes the fields its class bound
    the first time and only becomes their parent (what ``bind`` set besides the parent,
    the name, label and source, is the same for every instance); a nested serializer
    keeps its own fields the same way. Safe because our serializers never change their
    fields per instance and no field keeps state of its own between calls; one copy per
    thread, so concurrent requests never share a field."""

    @cached_property
    def fields(self) -> BindingDict:
        cache: dict[type, dict[str, Any]] = _bound.__dict__.setdefault("fields", {})
        fields = BindingDict(self)
        known = cache.get(type(self))
        if known is None:
            for key, value in self.get_fields().items():
                fields[key] = value  # binds
            cache[type(self)] = dict(fields.fields)
            return fields
        fields.fields = dict(known)
        for field in known.values():
            field.parent = self
        return fields


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class NameField(StrictCharField):
    """A player's name as typed at the table."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_NAME)
        super().__init__(**kwargs)


class AsStored(Shape):
    """An output of something stored as JSON: the keys it has, never one it lacks (DRF
    would answer a missing nullable field as null)."""

    def to_representation(self, instance: Any) -> Any:
        out = super().to_representation(instance)
        return {k: v for k, v in out.items() if k in instance}


def utc_datetime(**kwargs: Any) -> serializers.DateTimeField:
    """A time in the output as ISO 8601 in UTC (``...Z``), whatever the server's zone."""
    return serializers.DateTimeField(default_timezone=UTC, **kwargs)


class CountsField(serializers.DictField):
    """Per-player small counts (tricks, figures, cards exchanged)."""

    def __init__(self, *, minimum: int, **kwargs: Any) -> None:
        super().__init__(child=StrictIntegerField(min_value=minimum, max_value=99), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, int]:
        if isinstance(data, dict) and len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(_("names too many players"))
        return dict(super().to_internal_value(data))


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 5},
            {"type": "string", "enum": ["pass", "hold", "muli"]},
        ]
    }
)
class CallField(serializers.Field):  # type: ignore[type-arg]
    """A call in the bidding: a number of tricks, "pass", "hold" or "muli"."""

    def to_internal_value(self, data: Any) -> int | str:
        if isinstance(data, int) and not isinstance(data, bool) and not -99 <= data <= 99:
            raise serializers.ValidationError(_("must be a number of tricks from 0 to 5"))
        try:
            return normalize_call(data)
        except RuleError as e:
            raise serializers.ValidationError(input_error_message(e)) from e

    def to_representation(self, value: Any) -> Any:
        return value


def names_field(**kwargs: Any) -> serializers.ListField:
    kwargs.setdefault("max_length", MAX_PLAYERS)
    return serializers.ListField(child=NameField(), **kwargs)


class UniqueNamesField(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_PLAYERS)
        super().__init__(child=NameField(), **kwargs)

    def to_internal_value(self, data: Any) -> list[str]:
        names = list(super().to_internal_value(data))
        if len(set(names)) != len(names):
            raise serializers.ValidationError(_("a name is listed twice"))
        return names


@extend_schema_field({"type": "string", "example": "hearts-ober"})
class CardField(StrictCharField):
    """A card code ``<suit>-<rank>``; whether the pack has it is the referee's call."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            suit, rank = split_code(text)
        except CardSyntaxError as e:
            raise serializers.ValidationError(
                input_error_message(RuleError("card", str(e), "not_a_card", text=repr(text)))
            ) from e
        return f"{suit}-{rank}"


def raise_rule_error(error: RuleError, prefix: str | None = None) -> None:
    """Turn a referee RuleError into a DRF error keyed by the field it names."""
    message = input_error_message(error)
    path = error.field if prefix is None else f"{prefix}.{error.field}"
    detail: Any = [message]
    for part in reversed(path.split(".")):
        detail = {part: detail}
    raise serializers.ValidationError(detail)


_RULES_SCHEMA = {
    "oneOf": [
        {"type": "string", "enum": list(PRESETS)},
        {
            "type": "object",
            "properties": {
                "preset": {"type": "string", "enum": list(PRESETS)},
                "overrides": {"type": "object", "additionalProperties": True, "nullable": True},
            },
            "required": ["preset"],
        },
    ],
    "description": 'A preset name, or {"preset": ..., "overrides": {parameter: value}}.',
}


@extend_schema_field(_RULES_SCHEMA)
class MulatschakRulesField(serializers.Field):  # type: ignore[type-arg]
    """``"salzburg"`` or ``{"preset": "salzburg", "overrides": {...}}`` → MulatschakRules."""

    default_error_messages = {
        "invalid": _('must be a preset name or {"preset": ..., "overrides": {...}}'),
    }

    def shape(self, data: Any) -> tuple[str, dict[str, Any]]:
        """The preset name and the overrides, checked for shape only."""
        if isinstance(data, str):
            return data, {}
        if not isinstance(data, dict):
            # not self.fail(): the message has braces that str.format would eat
            raise serializers.ValidationError(self.error_messages["invalid"])
        unknown = set(data) - {"preset", "overrides"}
        if unknown:
            raise serializers.ValidationError(
                {name: [_("is not a field of a rule set")] for name in sorted(unknown)}
            )
        preset = data.get("preset")
        overrides = data.get("overrides")
        overrides = {} if overrides is None else overrides
        if not isinstance(preset, str):
            raise serializers.ValidationError({"preset": [_("is required and must be text")]})
        if not isinstance(overrides, dict):
            raise serializers.ValidationError({"overrides": [_("must be an object")]})
        return preset, overrides

    def to_internal_value(self, data: Any) -> Any:
        preset, overrides = self.shape(data)
        try:
            return mulatschak_rules(preset, overrides)
        except RuleError as e:
            if isinstance(data, str):
                raise serializers.ValidationError(input_error_message(e)) from e
            raise_rule_error(e)

    def to_representation(self, value: Any) -> Any:
        return value.name


class RulesSpecField(MulatschakRulesField):
    """Like MulatschakRulesField, but hands ``(preset, overrides)`` on unvalidated, for a
    service that validates the rules itself (and names the field)."""

    def to_internal_value(self, data: Any) -> Any:
        return self.shape(data)

    def to_representation(self, value: Any) -> Any:
        return value

MULLER_MATZ = "muller_matz"
_MULLER_MATZ_RULES_SCHEMA = {
    "oneOf": [
        {"type": "string", "enum": [MULLER_MATZ]},
        {
            "type": "object",
            "properties": {
                "preset": {"type": "string", "enum": [MULLER_MATZ]},
                "overrides": {"type": "object", "additionalProperties": True, "nullable": True},
            },
            "required": ["preset"],
        },
    ],
    "description": '"muller_matz", or {"preset": "muller_matz", "overrides": {parameter: value}}.',
}


@extend_schema_field(_MULLER_MATZ_RULES_SCHEMA)
class MullerMatzRulesField(MulatschakRulesField):
    """``"muller_matz"`` or ``{"preset": "muller_matz", "overrides": {...}}`` →
    MullerMatzRules (the default rules when the field is left out)."""

    def to_internal_value(self, data: Any) -> Any:
        preset, overrides = self.shape(data)
        if preset != MULLER_MATZ:
            error = RuleError("preset", f"must be {MULLER_MATZ}", "not_choice",
                              choices=MULLER_MATZ)
            if isinstance(data, str):
                raise serializers.ValidationError(input_error_message(error))
            raise_rule_error(error)
        try:
            return muller_matz_rules(overrides)
        except RuleError as e:
            raise_rule_error(e)

    def to_representation(self, value: Any) -> Any:
        return MULLER_MATZ
