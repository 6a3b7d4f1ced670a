"""Every API error is JSON: ``{"detail": "..."}``, plus ``errors`` by field for bad input."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """``{"deal": {"tricks": {"Anna": ["..."]}}}`` → ``{"deal.tricks.Anna": ["..."]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            path = f"{prefix}.{name}" if prefix and name else (prefix or name)
            for k, v in flatten(value, path).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            out[prefix] = [str(item) for item in detail]
        else:
            for i, item in enumerate(detail):
                if item:
                    for k, v in flatten(item, f"{prefix}.{i}" if prefix else str(i)).items():
                        out.setdefault(k, []).extend(v)
    else:
        out[prefix] = [str(detail)]
    return out


def validation_response(detail: Any) -> Response:
    errors = flatten(detail)
    text = "; ".join(f"{k}: {' '.join(v)}" if k else " ".join(v) for k, v in errors.items())
    return Response({"detail": text, "errors": errors}, status=400)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, exceptions.ValidationError):
        return validation_response(exc.detail)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"detail": str(response.data["detail"])}
    return response
