"""Every page and endpoint makes a fixed number of queries, the same for a short and a
long session (the budgets live in query_budget.py; bench/queries.py prints them)."""

from __future__ import annotations

import pytest
from django.db import connection

from .query_budget import CALLS, Call, measure, setup

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("call", CALLS, ids=[c.name for c in CALLS])
def test_each_page_and_endpoint_keeps_its_query_budget(call: Call):
    counts = []
    for deals in (3, 12):
        client, api, ids = setup(deals)
        queries, status = measure(client, api, call, ids)
        assert status == call.status, (call.name, status)
        counts.append(queries)
    budget = call.expected(connection.vendor)
    assert counts == [budget, budget], (call.name, counts)
