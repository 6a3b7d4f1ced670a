"""Fuzz the API from its own OpenAPI schema: no input ever answers 5xx, and every
answer matches the schema (status codes included)."""

from __future__ import annotations

import pytest
import schemathesis

from .schemafuzz import fuzz_each

REFEREE = r"^/api/v1/(rules|referee/)"
SCOREPAD = r"^/api/v1/(groups|sessions|players|me|invitations|tournaments|seasons)/"
ACCOUNTS_AND_WATCH = r"^/api/v1/(auth|watch)/"
COVERED = (REFEREE, SCOREPAD, ACCOUNTS_AND_WATCH)


@pytest.fixture(autouse=True)
def _no_connection_closing_between_requests():
    """Django closes old connections on request_started/finished; the test client
    disconnects that, and so must a WSGI fuzzer: closing the connection a test's
    transaction holds gave false 500s."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def test_the_referee_api_never_fails_and_keeps_its_schema(db):
    def check(case):
        # A schema-valid request may still break a rule: 422 is the contract's answer, so
        # the "positive data is accepted" check does not apply; every other check does.
        response = case.call_and_validate(
            excluded_checks=[schemathesis.checks.positive_data_acceptance]
        )
        assert response.status_code < 500

    assert fuzz_each(REFEREE, check, full=60) >= 9


def test_every_endpoint_of_the_schema_is_fuzzed(client):
    import re

    paths = client.get("/api/v1/schema/?format=json").json()["paths"]
    assert paths
    missed = [p for p in paths if not any(re.search(rx, p) for rx in COVERED)]
    assert missed == []


def test_every_operation_declares_its_error_answers(client):
    """Conformance is only meaningful when the schema names the error codes: every
    operation declares 400 (or takes no input) and, with a path parameter, 404."""
    paths = client.get("/api/v1/schema/?format=json").json()["paths"]
    problems = []
    for path, operations in paths.items():
        for method, op in operations.items():
            codes = set(op.get("responses", {}))
            if method in ("post", "put", "patch") and op.get("requestBody") and "400" not in codes:
                problems.append(f"{method.upper()} {path}: no 400")
            if "{" in path and "404" not in codes:
                problems.append(f"{method.upper()} {path}: no 404")
    assert problems == []


@pytest.fixture
def token(db):
    """A user with a group and a session with a few deals, so that fuzzed ids can hit."""
    from rest_framework.authtoken.models import Token

    from .factories import group_with, played, record, session_at, user

    owner = user("fuzzer")
    session = session_at(group_with(owner), owner)
    record(session, owner, played("Anna", {"Anna": 2, "Bert": 1, "Cilli": 1, "Dominik": 1}))
    record(session, owner, {"kind": "collapsed"})
    other = user("inviter")
    from scorepad import sharing

    sharing.member_add(group=group_with(other, "Elsewhere"), user=owner, role="viewer",
                        by=other)  # an invitation of the fuzzer's to answer
    sharing.member_add(group=session.group, user=other, role="viewer", by=owner)
    from .tournament_play import drawn, tournament

    drawn(tournament(session.group, owner, players=5), owner)  # a tournament, a round open
    from .season_play import season

    season(session.group, owner)  # a season over the session's group
    return Token.objects.create(user=owner).key


def test_the_scorepad_api_never_fails_and_keeps_its_schema(token):
    def check(case):
        response = case.call_and_validate(
            headers={"Authorization": f"Token {token}"},
            excluded_checks=[schemathesis.checks.positive_data_acceptance],
        )
        assert response.status_code < 500

    assert fuzz_each(SCOREPAD, check, full=40) >= 20


@pytest.fixture
def watch_token(db):
    """A session with a watch link, so that fuzzed watch tokens can hit one."""
    from scorepad import sharing

    from .factories import group_with, session_at, user

    owner = user("watched")
    return sharing.watch_link_create(session=session_at(group_with(owner), owner))


def test_accounts_and_watch_links_never_fail_and_keep_their_schema(watch_token):
    def check(case):
        response = case.call_and_validate(
            excluded_checks=[schemathesis.checks.positive_data_acceptance],
        )
        assert response.status_code < 500

    assert fuzz_each(ACCOUNTS_AND_WATCH, check, full=40) >= 3
