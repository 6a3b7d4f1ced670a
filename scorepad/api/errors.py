"""Every API error is JSON: ``{"detail": "..."}``, plus ``errors`` by field for bad input.

The services refuse with domain errors; here they get their status codes."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scorepad import errors
from scorepad.messages import input_errors


def flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """``{"deal": {"tricks": {"Anna": ["..."]}}}`` → ``{"deal.tricks.Anna": ["..."]}``."""
    out: dict[str, list[str]] = {}
    for problem in errors.flatten(detail, prefix):
        out.setdefault(problem.field, []).append(problem.message)
    return out


def validation_response(detail: Any) -> Response:
    flat = flatten(detail)
    text = "; ".join(f"{k}: {' '.join(v)}" if k else " ".join(v) for k, v in flat.items())
    return Response({"detail": text, "errors": flat}, status=400)


def invalid(error: errors.InputError) -> exceptions.ValidationError:
    """A service's InputError as the API's 400 naming every bad field, in the request's
    language. Raised, not returned: a refused write keeps no Idempotency-Key."""
    return exceptions.ValidationError(input_errors(error))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, exceptions.ValidationError):
        return validation_response(exc.detail)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"detail": str(response.data["detail"])}
    return response
