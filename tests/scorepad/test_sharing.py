"""Several phones at one table: watch links, invites, idempotent writes, stale forms."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from scorepad import rosters, sharing
from scorepad.models import Deal, IdempotencyKey, Invite, Membership

from .factories import EVEN, played, record, user

pytestmark = pytest.mark.django_db


def api(who) -> dict:
    return {"HTTP_AUTHORIZATION": f"Token {Token.objects.get_or_create(user=who)[0].key}"}


# --- watch links ------------------------------------------------------------------------


def test_a_watch_link_shows_the_live_scoreboard_without_login(phone, table):
    phone.post(f"/sessions/{table.pk}/watch-link")
    table.refresh_from_db()
    token = table.watch_token
    assert token and len(token) >= 43  # 256 bits, URL-safe
    page = Client().get(f"/watch/{token}/")
    assert page.status_code == 200
    assert "Dominik" in page.content.decode() and 'id="deal-form"' not in page.content.decode()
    assert page["Cache-Control"] == "no-store"
    assert page["Referrer-Policy"] == "no-referrer"


def test_the_session_page_shows_the_watch_link_as_a_qr_code(phone, table):
    phone.post(f"/sessions/{table.pk}/watch-link")
    html = phone.get(f"/sessions/{table.pk}/").content.decode()
    assert "<svg" in html and "/watch/" in html


def test_a_revoked_or_unknown_watch_link_shows_nothing(phone, table):
    token = sharing.watch_link_create(session=table)
    phone.post(f"/sessions/{table.pk}/watch-link", {"action": "revoke"})
    assert Client().get(f"/watch/{token}/").status_code == 404
    assert Client().get(f"/api/v1/watch/{token}/scoreboard").status_code == 404
    assert Client().get("/watch/not-a-token/").status_code == 404


def test_the_watch_fragment_answers_304_while_nothing_changes(anna, table):
    token = sharing.watch_link_create(session=table)
    first = Client().get(f"/watch/{token}/board")
    assert first.status_code == 200
    same = Client().get(f"/watch/{token}/board", HTTP_IF_NONE_MATCH=first["ETag"])
    assert same.status_code == 304
    record(table, anna, played("Anna", EVEN))
    assert Client().get(f"/watch/{token}/board",
                        HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_the_api_makes_and_revokes_watch_links(anna, table):
    made = Client().post(f"/api/v1/sessions/{table.pk}/watch-link", **api(anna))
    assert made.status_code == 200
    token = made.json()["token"]
    assert made.json()["url"].endswith(f"/watch/{token}/")
    board = Client().get(f"/api/v1/watch/{token}/scoreboard")
    assert board.status_code == 200 and board.json()["scores"]["Anna"] == 21
    assert Client().delete(f"/api/v1/sessions/{table.pk}/watch-link",
                           **api(anna)).status_code == 204
    assert Client().get(f"/api/v1/watch/{token}/scoreboard").status_code == 404


def test_a_viewer_may_not_make_a_watch_link(table):
    viewer = user("vera")
    rosters.member_set(group=table.group, user=viewer, role="viewer")
    answer = Client().post(f"/api/v1/sessions/{table.pk}/watch-link", **api(viewer))
    assert answer.status_code == 403


# --- invites ------------------------------------------------------------------------------


def test_an_invite_link_lets_a_logged_in_user_join_with_its_role(phone, table):
    phone.post(f"/groups/{table.group.pk}/invites", {"role": "editor"})
    invite = Invite.objects.get()
    assert len(invite.token) >= 43
    bert = Client()
    bert.force_login(user("bert"))
    assert bert.get(f"/join/{invite.token}/").status_code == 200
    bert.post(f"/join/{invite.token}/")
    assert Membership.objects.get(user__username="bert").role == "editor"
    assert bert.get(f"/sessions/{table.pk}/").status_code == 200


def test_an_invite_needs_a_login():
    owner = user("owner")
    from .factories import group_with

    invite = sharing.invite_create(group=group_with(owner), user=owner, role="viewer")
    response = Client().get(f"/join/{invite.token}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_expired_and_revoked_invites_are_404(phone, table, anna):
    expired = sharing.invite_create(group=table.group, user=anna, role="viewer")
    Invite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    revoked = sharing.invite_create(group=table.group, user=anna, role="viewer")
    phone.post(f"/groups/{table.group.pk}/invites", {"revoke": str(revoked.pk)})
    other = Client()
    other.force_login(user("zora"))
    assert other.get(f"/join/{expired.token}/").status_code == 404
    assert other.get(f"/join/{revoked.token}/").status_code == 404


def test_only_owners_make_invites(table):
    editor = user("eddi")
    rosters.member_set(group=table.group, user=editor, role="editor")
    client = Client()
    client.force_login(editor)
    assert client.post(f"/groups/{table.group.pk}/invites",
                       {"role": "owner"}).status_code == 403
    assert Invite.objects.count() == 0


def test_joining_never_lowers_a_role(table, anna):
    invite = sharing.invite_create(group=table.group, user=anna, role="viewer")
    sharing.invite_accept(invite=invite, user=anna)
    assert Membership.objects.get(user=anna).role == "owner"


# --- idempotency -----------------------------------------------------------------------------


def test_the_same_idempotency_key_records_once_and_answers_the_same(anna, table):
    url = f"/api/v1/sessions/{table.pk}/deals/"
    body = json.dumps(played("Anna", EVEN))
    headers = {**api(anna), "HTTP_IDEMPOTENCY_KEY": "tap-1"}
    first = Client().post(url, body, content_type="application/json", **headers)
    again = Client().post(url, body, content_type="application/json", **headers)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Deal.objects.count() == 1


def test_an_idempotency_key_reused_for_another_request_is_refused(anna, table):
    url = f"/api/v1/sessions/{table.pk}/deals/"
    headers = {**api(anna), "HTTP_IDEMPOTENCY_KEY": "tap-2"}
    Client().post(url, json.dumps(played("Anna", EVEN)), content_type="application/json",
                  **headers)
    other = Client().post(url, json.dumps({"kind": "passed"}),
                          content_type="application/json", **headers)
    assert other.status_code == 400 and "Idempotency-Key" in other.json()["detail"]
    assert Deal.objects.count() == 1


def test_a_refused_write_leaves_no_key_behind(anna, table):
    url = f"/api/v1/sessions/{table.pk}/deals/"
    headers = {**api(anna), "HTTP_IDEMPOTENCY_KEY": "tap-3"}
    bad = Client().post(url, json.dumps({"kind": "played"}), content_type="application/json",
                        **headers)
    assert bad.status_code == 400
    assert not IdempotencyKey.objects.filter(key="tap-3").exists()


def test_the_html_form_records_a_double_tap_once(phone, table):
    form = {"kind": "played", "declarer": "Anna", "bid": "2", "trump": "acorns",
            "t_0": "2", "t_1": "1", "t_2": "1", "t_3": "1", "idempotency_key": "form-1"}
    phone.post(f"/sessions/{table.pk}/deals/new", form)
    second = phone.post(f"/sessions/{table.pk}/deals/new", form, follow=True)
    assert Deal.objects.count() == 1
    assert "Deal 1 recorded." in second.content.decode()


# --- the open form on the other phone ---------------------------------------------------------


def test_an_open_deal_form_notices_that_its_deal_was_recorded_elsewhere(phone, table, anna):
    assert phone.get(f"/sessions/{table.pk}/fresh?number=1").status_code == 204
    record(table, anna, played("Anna", EVEN))
    notice = phone.get(f"/sessions/{table.pk}/fresh?number=1")
    assert notice.status_code == 200
    assert "Deal 1 was recorded on another phone" in notice.content.decode()


def test_the_deal_form_polls_for_freshness(phone, table):
    html = phone.get(f"/sessions/{table.pk}/").content.decode()
    assert f"/sessions/{table.pk}/fresh?number=1" in html

