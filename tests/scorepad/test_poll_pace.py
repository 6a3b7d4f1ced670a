"""A board polls every 2 s while its session is open and every 30 s once it is closed:
nothing changes there but a reopening, and a table that finished asks less of the server."""

from __future__ import annotations

import re

import pytest

from scorepad import services

pytestmark = pytest.mark.django_db


def pace(page: str) -> str:
    head = re.search(r'<section id="scoreboard"[^>]*>', page, re.S)
    assert head is not None
    return re.search(r'hx-trigger="([^"]*)"', head.group(0)).group(1)


def test_an_open_board_polls_every_two_seconds_and_a_closed_one_every_thirty(phone, table):
    assert pace(phone.get(f"/sessions/{table.pk}/").content.decode()) == \
        "every 2s, schreiber:refresh"
    services.session_set_status(session=table, status="closed")
    assert pace(phone.get(f"/sessions/{table.pk}/").content.decode()) == \
        "every 30s, schreiber:refresh"
    # the polled fragment carries its own pace: the board swapped in on closing slows down
    assert pace(phone.get(f"/sessions/{table.pk}/board").content.decode()) == \
        "every 30s, schreiber:refresh"
    services.session_set_status(session=table, status="open")
    assert pace(phone.get(f"/sessions/{table.pk}/").content.decode()) == \
        "every 2s, schreiber:refresh"
