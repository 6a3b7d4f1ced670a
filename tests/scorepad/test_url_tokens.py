"""Tokens and slugs from a URL are checked before they reach the database: anything that
is not a token (``scorepad.ids.is_token``: the alphabet of ``secrets.token_urlsafe``)
finds nothing and answers 404, never 500. PostgreSQL refuses a NUL in text outright
(SQLite quietly finds nothing), so run this on both."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad import sharing

from .test_fastpoll import board, polled_url

pytestmark = pytest.mark.django_db

NOT_TOKENS = ["%00", "a%00b", "%C3%A9t%C3%A9", "a%20b", "a.b", "x" * 65, "%E2%80%A8"]


@pytest.mark.parametrize("token", NOT_TOKENS)
@pytest.mark.parametrize("path", ["/watch/{}/", "/watch/{}/board", "/watch/{}/board?g=%00",
                                  "/api/v1/watch/{}/scoreboard"])
def test_a_watch_url_with_no_token_in_it_is_404(path, token):
    assert Client().get(path.format(token)).status_code == 404


@pytest.mark.parametrize("token", NOT_TOKENS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_join_url_with_no_token_in_it_is_404(phone, token, method):
    assert getattr(phone, method)(f"/join/{token}/").status_code == 404


@pytest.mark.parametrize("token", ["%00", "a%00b"])
def test_a_join_url_with_no_token_in_it_is_404_for_a_stranger_too(token):
    assert Client().get(f"/join/{token}/").status_code == 404


def test_a_join_url_with_a_token_still_asks_a_stranger_to_log_in():
    assert Client().get("/join/no-such_Token-42/").status_code == 302


def test_a_grant_with_a_nul_is_ignored_on_a_real_watch_link(table):
    token = sharing.watch_link_create(session=table)
    assert board(Client(), f"/watch/{token}/board?g=%00").status_code == 200
    assert board(Client(), f"/watch/{token}/board?g=a%00b").status_code == 200
    assert polled_url(Client().get(f"/watch/{token}/"))  # the token alphabet still matches


def test_the_services_find_nothing_for_a_token_with_a_nul():
    from scorepad.models import Invite, Session

    with pytest.raises(Session.DoesNotExist):
        sharing.session_by_watch_token("a\x00b")
    assert sharing.watch_version("a\x00b") is None
    with pytest.raises(Invite.DoesNotExist):
        sharing.invite_by_token("\x00")


@pytest.mark.parametrize("path", [
    "/groups/{group}/sessions/?game=%00&player=%00&since=%00&until=a%00&page=%00",
    "/groups/{group}/stats/?sort=%00",
    "/sessions/{sid}/?mode=%00",
    "/sessions/{sid}/board?g=%00",
    "/sessions/{sid}/fresh?number=%00&mode=%00",
    "/referee/trick/?trump=%00",
    "/accounts/reset/%00/a%00b/",
    "/api/v1/sessions/?status=%00",
    "/api/v1/sessions/{sid}/scoreboard?games_page=%00&format=%00",
])
def test_a_nul_in_a_query_or_a_path_is_never_a_server_error(phone, table, path):
    answer = phone.get(path.format(group=table.group_id, sid=table.pk))
    assert answer.status_code < 500, answer.status_code
