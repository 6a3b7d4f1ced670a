"""Mulatschak's rules as the API takes them: a preset's name, or a preset with overrides."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.rules import OVERRIDES_SCHEMA as MULATSCHAK_OVERRIDES
from referee.rules import PRESETS, mulatschak_rules
from referee.violations import RuleError

from ...fields import RuleSetField, raise_rule_error, rules_schema
from ...messages import input_error_message

MULATSCHAK_RULES_SCHEMA = rules_schema({"type": "string", "enum": list(PRESETS)},
                                       MULATSCHAK_OVERRIDES)


@extend_schema_field(MULATSCHAK_RULES_SCHEMA)
class MulatschakRulesField(RuleSetField):
    """``"salzburg"`` or ``{"preset": "salzburg", "overrides": {...}}`` → MulatschakRules."""

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
