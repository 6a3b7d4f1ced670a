from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client


class JsonClient:
    """A test client that speaks JSON and can pick a language."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def post(self, path: str, body: Any, language: str | None = None, raw: bool = False) -> Any:
        extra = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
        data = body if raw else json.dumps(body)
        return self.client.post(path, data, content_type="application/json", **extra)

    def get(self, path: str, language: str | None = None) -> Any:
        extra = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
        return self.client.get(path, **extra)


@pytest.fixture
def api(client: Client) -> JsonClient:
    return JsonClient(Client(enforce_csrf_checks=True))


@pytest.fixture
def anna() -> Any:
    """Anna keeps the score: a user who owns the group of the ``table`` fixture."""
    from .factories import user

    return user("anna")


@pytest.fixture
def group(anna: Any) -> Any:
    """Anna's group (she owns it)."""
    from .factories import group_with

    return group_with(anna)


@pytest.fixture
def table(anna: Any) -> Any:
    """A Salzburg session of Anna's group: Anna, Bert, Cilli, Dominik; Dominik deals."""
    from .factories import group_with, session_at

    return session_at(group_with(anna), anna)


@pytest.fixture
def phone(anna: Any) -> Client:
    """Anna's phone, logged in."""
    from .factories import phone_of

    return phone_of(anna)


@pytest.fixture
def anna_api() -> Any:
    """Anna as the API knows her: registered through it, with her token."""
    from .factories import api_for

    return api_for("anna")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many deals the differential test of the phone's scorer played (test_scorer.py
    records it; under pytest-xdist a test's own print never reaches this terminal)."""
    stats = terminalreporter.stats
    for report in stats.get("passed", []) + stats.get("failed", []):
        for name, value in getattr(report, "user_properties", []):
            if name == "scorer_differential" and report.when == "call":
                terminalreporter.write_line(str(value))
