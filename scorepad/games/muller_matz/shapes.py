"""Müller Matz's rules as the API takes them: its one preset's name, or it with overrides."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.muller_matz import OVERRIDES_SCHEMA as MULLER_MATZ_OVERRIDES
from referee.muller_matz import muller_matz_rules
from referee.violations import RuleError

from ...fields import RuleSetField, raise_rule_error, rules_schema
from ...messages import input_error_message

MULLER_MATZ = "muller_matz"
MULLER_MATZ_RULES_SCHEMA = {
    **rules_schema({"type": "string", "enum": [MULLER_MATZ]}, MULLER_MATZ_OVERRIDES),
    "description": '"muller_matz", or {"preset": "muller_matz", "overrides": {parameter: value}}.',
}


@extend_schema_field(MULLER_MATZ_RULES_SCHEMA)
class MullerMatzRulesField(RuleSetField):
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
