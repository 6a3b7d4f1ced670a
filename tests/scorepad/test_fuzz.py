"""Fuzz the API from its own OpenAPI schema: no input ever answers 5xx, and every
answer matches the schema (status codes included)."""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from scorepad.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)

REFEREE = schema.include(path_regex=r"^/api/v1/(rules|referee/)")


@pytest.fixture(autouse=True)
def _no_connection_closing_between_requests():
    """Django closes old connections on request_started/finished; the test client
    disconnects that, and so must a WSGI fuzzer (NOTES.md: false 500s otherwise)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@REFEREE.parametrize()
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture],
)
def test_the_referee_api_never_fails_and_keeps_its_schema(case, db):
    # A schema-valid request may still break a rule: 422 is the contract's answer, so
    # the "positive data is accepted" check does not apply; every other check does.
    response = case.call_and_validate(
        excluded_checks=[schemathesis.checks.positive_data_acceptance]
    )
    assert response.status_code < 500


SCOREPAD = schema.include(path_regex=r"^/api/v1/(groups|sessions)")


@pytest.fixture
def token(db):
    """A user with a group and a session with a few deals, so that fuzzed ids can hit."""
    from rest_framework.authtoken.models import Token

    from .factories import group_with, played, record, session_at, user

    owner = user("fuzzer")
    session = session_at(group_with(owner), owner)
    record(session, owner, played("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}))
    record(session, owner, {"kind": "collapsed"})
    return Token.objects.create(user=owner).key


@SCOREPAD.parametrize()
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture],
)
def test_the_scorepad_api_never_fails_and_keeps_its_schema(case, token):
    response = case.call_and_validate(
        headers={"Authorization": f"Token {token}"},
        excluded_checks=[schemathesis.checks.positive_data_acceptance],
    )
    assert response.status_code < 500
