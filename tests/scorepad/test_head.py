"""HEAD answers as GET does, without the body (monitors and load balancers ask
``/healthz`` and ``/ping`` with HEAD): every page that takes GET takes HEAD (Django's
``require_safe``), and so does every API endpoint that only reads."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import sharing

from .factories import EVEN, played, record

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/healthz", "/ping"])
def test_the_home_page_and_the_health_checks_answer_head_for_a_stranger(path):
    get, head = Client().get(path), Client().head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""


PAGES = [
    "/", "/groups/", "/groups/{group}/", "/sessions/", "/sessions/new/", "/sessions/{sid}/",
    "/sessions/{sid}/board", "/sessions/{sid}/fresh", "/sessions/{sid}/history",
    "/sessions/{sid}/settlement", "/sessions/{sid}/sheet", "/sessions/{sid}/referee/",
    "/sessions/{sid}/deals/1/edit", "/groups/{group}/sessions/", "/groups/{group}/stats/",
    "/me/stats/", "/referee/", "/rules/", "/accounts/",
    "/accounts/password/", "/watch/{token}/", "/watch/{token}/board", "/sw.js",
    "/manifest.webmanifest", "/offline", "/signup/", "/accounts/login/",
    # the API's endpoints that only read
    "/api/v1/rules", "/api/v1/sessions/{sid}/scoreboard", "/api/v1/sessions/{sid}/history",
    "/api/v1/sessions/{sid}/settlement", "/api/v1/sessions/{sid}/export",
    "/api/v1/groups/{group}/export", "/api/v1/me/stats", "/api/v1/watch/{token}/scoreboard",
]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_that_answers_get_answers_head_the_same_without_a_body(
        phone, table, anna, path):
    record(table, anna, played("Anna", EVEN))
    token = sharing.watch_link_create(session=table)
    url = path.format(group=table.group_id, sid=table.pk, token=token)
    get = phone.get(url)
    head = phone.head(url)
    assert get.status_code != 405, url
    assert head.status_code == get.status_code, (url, head.status_code, get.status_code)
    assert head.content == b""


def test_head_on_the_edit_page_changes_nothing(phone, table, anna):
    record(table, anna, played("Anna", EVEN))
    version = type(table).objects.get(pk=table.pk).version
    assert phone.head(f"/sessions/{table.pk}/deals/1/edit").status_code == 200
    assert type(table).objects.get(pk=table.pk).version == version
