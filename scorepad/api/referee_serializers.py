"""The shapes every game's referee API shares (docs/api.md, "The referee API"; the OpenAPI
schema at /api/v1/schema/): violations, errors, the rule sets, money. Each game's own
shapes are its package's (``scorepad.games.<game>.api``). Inputs are strict; outputs
document."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scorepad.fields import Shape

# --- outputs (documentation) -----------------------------------------------------


class ViolationOut(Shape):
    code = serializers.CharField()
    player = serializers.CharField(required=False)
    message = serializers.CharField()
    params = serializers.DictField(required=False)


class ViolationsOut(Shape):
    legal = serializers.BooleanField()
    violations = ViolationOut(many=True)


class ErrorOut(Shape):
    detail = serializers.CharField()
    errors = serializers.DictField(required=False)


class PresetOut(Shape):
    game = serializers.CharField()
    name = serializers.CharField()
    title = serializers.CharField()
    params = serializers.DictField()


class RulesOut(Shape):
    presets = PresetOut(many=True)


class TransferOut(Shape):
    # "from" is a Python keyword: declared through the fields mapping below.
    to = serializers.CharField()
    amount = serializers.CharField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = serializers.CharField()
        return fields


class SettleOut(Shape):
    currency = serializers.CharField()
    stake = serializers.CharField()
    balances = serializers.DictField(child=serializers.CharField())
    pairs = TransferOut(many=True)
    transfers = TransferOut(many=True)
