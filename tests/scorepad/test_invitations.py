"""Nobody becomes a member of a group without consenting, and a group's owner cannot take
over a member's account.

The attack this closes: any registered account (1) created a group, (2) added a victim
as a member by username, without asking, and (3) made a one-time password reset link for
that "member" on the group page, and so was the victim. Now adding an account that is not
a member invites it (202): it joins only when it accepts, on its home page or through the
API; and no owner makes reset links (staff do: test_accounts.py).
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from scorepad import rosters, services, sharing
from scorepad.models import Invitation, Membership

from .factories import group_with, member, phone_of, user

pytestmark = pytest.mark.django_db

PASSWORD = "kartenspiel-2026"


class Api:
    """An account's API client (token login)."""

    def __init__(self, username: str) -> None:
        self.client = Client()
        Client().post("/api/v1/auth/register", json.dumps(
            {"username": username, "password": PASSWORD}), content_type="application/json")
        token = Client().post("/api/v1/auth/token", json.dumps(
            {"username": username, "password": PASSWORD}),
            content_type="application/json").json()["token"]
        self.headers = {"HTTP_AUTHORIZATION": f"Token {token}"}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        kwargs: dict[str, Any] = dict(self.headers)
        if body is not None:
            kwargs |= {"data": json.dumps(body), "content_type": "application/json"}
        return getattr(self.client, method)(path, **kwargs)


def role(group_id: int, username: str) -> str | None:
    return Membership.objects.filter(group_id=group_id, user__username=username
                                     ).values_list("role", flat=True).first()


@pytest.fixture
def mallory() -> Api:
    return Api("mallory")


@pytest.fixture
def victim() -> Api:
    return Api("vera")


@pytest.fixture
def group_id(mallory: Api) -> int:
    return int(mallory.call("post", "/api/v1/groups/", {"name": "Trap"}).json()["id"])


def invite(owner: Api, group_id: int, username: str, role: str = "viewer") -> Any:
    return owner.call("post", f"/api/v1/groups/{group_id}/members/",
                      {"username": username, "role": role})


# --- the reported takeover ------------------------------------------------------------------


def test_the_takeover_path_makes_nobody_a_member_and_offers_no_reset_link(mallory, victim,
                                                                          group_id):
    answer = invite(mallory, group_id, "vera")
    assert answer.status_code == 202
    assert role(group_id, "vera") is None
    listed = mallory.call("get", f"/api/v1/groups/{group_id}/members/").json()
    assert [m["username"] for m in listed] == ["mallory"]
    assert victim.call("get", f"/api/v1/groups/{group_id}/players/").status_code == 404

    page = Client()
    page.force_login(Membership.objects.get(group_id=group_id).user)
    vera = get_user_model().objects.get(username="vera")
    reset = page.post(f"/groups/{group_id}/reset-link", {"user": str(vera.pk)})
    assert reset.status_code == 404
    assert b"/accounts/reset/" not in reset.content
    assert b"/accounts/reset/" not in page.get(f"/groups/{group_id}/").content


def test_even_an_accepted_invitation_gives_the_owner_no_reset_link(mallory, victim, group_id):
    invitation = invite(mallory, group_id, "vera").json()["invitation"]
    victim.call("post", f"/api/v1/invitations/{invitation['id']}/accept")
    assert role(group_id, "vera") == "viewer"
    page = Client()
    page.force_login(Membership.objects.get(group_id=group_id, role="owner").user)
    vera_id = Membership.objects.get(group_id=group_id, role="viewer").user_id
    assert page.post(f"/groups/{group_id}/reset-link", {"user": str(vera_id)}
                     ).status_code == 404
    assert b"/accounts/reset/" not in page.get(f"/groups/{group_id}/").content


# --- the API ----------------------------------------------------------------------------------


def test_inviting_an_account_answers_202_with_the_pending_invitation(mallory, victim, group_id):
    before = timezone.now()
    answer = invite(mallory, group_id, "vera", "editor")
    assert answer.status_code == 202
    body = answer.json()["invitation"]
    assert body["group"] == {"id": group_id, "name": "Trap"}
    assert (body["username"], body["role"], body["invited_by"]) == ("vera", "editor",
                                                                   "mallory")
    expires = Invitation.objects.get(pk=body["id"]).expires_at
    assert timedelta(days=7) <= expires - before < timedelta(days=7, minutes=1)


def test_the_invited_account_lists_its_pending_invitations_and_nobody_else_does(
        mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    listed = victim.call("get", "/api/v1/invitations/").json()
    assert listed == [sent]
    assert listed[0]["group"]["name"] == "Trap" and listed[0]["invited_by"] == "mallory"
    assert mallory.call("get", "/api/v1/invitations/").json() == []
    assert Api("otto").call("get", "/api/v1/invitations/").json() == []


def test_accepting_makes_the_account_a_member_with_the_invitations_role(mallory, victim,
                                                                       group_id):
    sent = invite(mallory, group_id, "vera", "editor").json()["invitation"]
    answer = victim.call("post", f"/api/v1/invitations/{sent['id']}/accept")
    assert answer.status_code == 200
    assert answer.json() == {"group": {"id": group_id, "name": "Trap"}, "username": "vera",
                             "role": "editor"}
    assert role(group_id, "vera") == "editor"
    assert victim.call("get", "/api/v1/invitations/").json() == []
    assert victim.call("get", f"/api/v1/groups/{group_id}/players/").status_code == 200


def test_accepting_twice_makes_one_membership_and_the_second_answer_is_404(
        mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/accept").status_code == 200
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/accept").status_code == 404
    assert Membership.objects.filter(group_id=group_id, user__username="vera").count() == 1


def test_declining_makes_nobody_a_member_and_ends_the_invitation(mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/decline").status_code == 204
    assert role(group_id, "vera") is None
    assert victim.call("get", "/api/v1/invitations/").json() == []
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/accept").status_code == 404
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/decline").status_code == 404


def test_an_expired_invitation_is_not_listed_and_cannot_be_accepted(mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    Invitation.objects.filter(pk=sent["id"]).update(expires_at=timezone.now())
    assert victim.call("get", "/api/v1/invitations/").json() == []
    assert mallory.call("get", f"/api/v1/groups/{group_id}/invitations/").json() == []
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/accept").status_code == 404
    assert role(group_id, "vera") is None


def test_the_owner_lists_and_revokes_a_pending_invitation(mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    assert mallory.call("get", f"/api/v1/groups/{group_id}/invitations/").json() == [sent]
    path = f"/api/v1/groups/{group_id}/invitations/{sent['id']}"
    assert mallory.call("delete", path).status_code == 204
    assert mallory.call("delete", path).status_code == 404
    assert victim.call("get", "/api/v1/invitations/").json() == []
    assert victim.call("post", f"/api/v1/invitations/{sent['id']}/accept").status_code == 404
    assert role(group_id, "vera") is None


def test_an_invitation_is_revoked_only_through_its_own_group(mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    other = int(mallory.call("post", "/api/v1/groups/", {"name": "Other"}).json()["id"])
    assert mallory.call("delete", f"/api/v1/groups/{other}/invitations/{sent['id']}"
                        ).status_code == 404
    assert victim.call("get", "/api/v1/invitations/").json() == [sent]


def test_nobody_but_the_invited_account_answers_an_invitation(mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    for somebody in (mallory, Api("otto")):
        for answer in ("accept", "decline"):
            assert somebody.call("post", f"/api/v1/invitations/{sent['id']}/{answer}"
                                 ).status_code == 404
    assert role(group_id, "otto") is None
    assert victim.call("get", "/api/v1/invitations/").json() == [sent]


def test_a_member_changes_role_at_once_with_200(mallory, victim, group_id):
    sent = invite(mallory, group_id, "vera").json()["invitation"]
    victim.call("post", f"/api/v1/invitations/{sent['id']}/accept")
    answer = invite(mallory, group_id, "vera", "editor")
    assert answer.status_code == 200
    assert answer.json() == {"username": "vera", "role": "editor"}
    assert role(group_id, "vera") == "editor"
    assert not Invitation.objects.filter(status="pending").exists()


def test_inviting_again_renews_the_one_pending_invitation(mallory, victim, group_id):
    first = invite(mallory, group_id, "vera", "viewer").json()["invitation"]
    Invitation.objects.filter(pk=first["id"]).update(
        expires_at=timezone.now() + timedelta(days=1))
    again = invite(mallory, group_id, "vera", "editor")
    assert again.status_code == 202
    second = again.json()["invitation"]
    assert second["id"] == first["id"] and second["role"] == "editor"
    assert Invitation.objects.filter(group_id=group_id).count() == 1
    renewed = Invitation.objects.get(pk=first["id"]).expires_at
    assert renewed - timezone.now() > timedelta(days=6)
    assert [i["role"] for i in victim.call("get", "/api/v1/invitations/").json()] == ["editor"]


def test_inviting_again_after_an_expired_one_makes_it_pending_again(mallory, victim, group_id):
    first = invite(mallory, group_id, "vera").json()["invitation"]
    Invitation.objects.filter(pk=first["id"]).update(expires_at=timezone.now())
    again = invite(mallory, group_id, "vera").json()["invitation"]
    assert victim.call("post", f"/api/v1/invitations/{again['id']}/accept").status_code == 200
    assert role(group_id, "vera") == "viewer"


def test_after_a_decline_the_owner_may_invite_again(mallory, victim, group_id):
    first = invite(mallory, group_id, "vera").json()["invitation"]
    victim.call("post", f"/api/v1/invitations/{first['id']}/decline")
    second = invite(mallory, group_id, "vera").json()["invitation"]
    assert second["id"] != first["id"]
    assert victim.call("post", f"/api/v1/invitations/{second['id']}/accept").status_code == 200


def test_inviting_an_unknown_username_is_a_400_naming_it(mallory, group_id):
    answer = invite(mallory, group_id, "nobody-here")
    assert answer.status_code == 400 and "username" in answer.json()["errors"]
    assert not Invitation.objects.exists()


def test_a_member_removed_meanwhile_loses_their_pending_invitation():
    olga, emil = user("olga"), user("emil")
    group = group_with(olga)
    pending = sharing.member_add(group=group, user=emil, role="owner", by=olga)
    member(group, emil, "viewer")  # joined meanwhile, e.g. by an invitation link
    rosters.member_remove(group=group, user=emil, by=olga)
    with pytest.raises(services.NotFound):
        sharing.invitation_accept(user=emil, invitation_id=pending.pk)
    assert not group.memberships.filter(user=emil).exists()


def test_accepting_keeps_a_higher_role_the_member_has_meanwhile():
    olga, emil = user("olga"), user("emil")
    group = group_with(olga)
    pending = sharing.member_add(group=group, user=emil, role="viewer", by=olga)
    member(group, emil, "editor")
    joined = sharing.invitation_accept(user=emil, invitation_id=pending.pk)
    assert joined.role == "editor"


# --- the pages -----------------------------------------------------------------------------


@pytest.fixture
def olga_and_emil() -> tuple[Any, Any, Any]:
    olga, emil = user("olga"), user("emil")
    return olga, emil, group_with(olga)



def test_the_group_pages_form_invites_and_adds_nobody(olga_and_emil):
    olga, emil, group = olga_and_emil
    page = phone_of(olga)
    answer = page.post(f"/groups/{group.pk}/members", {"username": "emil", "role": "editor"},
                       follow=True)
    assert answer.status_code == 200
    assert "emil is invited as editor" in answer.content.decode()
    assert not group.memberships.filter(user=emil).exists()
    pending = Invitation.objects.get(group=group, user=emil)
    assert (pending.status, pending.role, pending.invited_by) == ("pending", "editor", olga)


def test_the_group_pages_form_changes_a_members_role(olga_and_emil):
    olga, emil, group = olga_and_emil
    member(group, emil, "viewer")
    answer = phone_of(olga).post(f"/groups/{group.pk}/members",
                                  {"username": "emil", "role": "editor"}, follow=True)
    assert "emil is now editor" in answer.content.decode()
    assert group.memberships.get(user=emil).role == "editor"
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("username", ["nobody", "", "x" * 151])
def test_the_group_pages_form_says_when_no_account_has_the_username(olga_and_emil, username):
    olga, _emil, group = olga_and_emil
    answer = phone_of(olga).post(f"/groups/{group.pk}/members",
                                  {"username": username, "role": "viewer"}, follow=True)
    assert "No account has this username." in answer.content.decode()
    assert not Invitation.objects.exists()


def test_the_group_page_lists_pending_invitations_for_owners_with_a_revoke_button(
        olga_and_emil):
    olga, emil, group = olga_and_emil
    pending = sharing.member_add(group=group, user=emil, role="viewer", by=olga)
    revoke = f"/groups/{group.pk}/invitations/{pending.pk}/revoke"
    page = phone_of(olga).get(f"/groups/{group.pk}/").content.decode()
    assert revoke in page and "emil" in page
    viewer = user("vicky")
    member(group, viewer, "viewer")
    assert revoke not in phone_of(viewer).get(f"/groups/{group.pk}/").content.decode()
    assert phone_of(viewer).post(revoke).status_code == 403

    assert phone_of(olga).post(revoke).status_code == 302
    assert Invitation.objects.get(pk=pending.pk).status == "revoked"
    assert phone_of(olga).post(revoke).status_code == 404
    assert revoke not in phone_of(olga).get(f"/groups/{group.pk}/").content.decode()


def test_the_home_page_offers_accept_and_decline(olga_and_emil):
    olga, emil, group = olga_and_emil
    pending = sharing.member_add(group=group, user=emil, role="editor", by=olga)
    home = phone_of(emil).get("/").content.decode()
    assert "olga invites you to Stammtisch Mondsee as editor." in home
    assert f"/invitations/{pending.pk}/accept" in home
    assert f"/invitations/{pending.pk}/decline" in home
    assert f"/invitations/{pending.pk}/" not in phone_of(olga).get("/").content.decode()


def test_accepting_on_the_home_page_joins_and_opens_the_group(olga_and_emil):
    olga, emil, group = olga_and_emil
    pending = sharing.member_add(group=group, user=emil, role="editor", by=olga)
    answer = phone_of(emil).post(f"/invitations/{pending.pk}/accept")
    assert answer.status_code == 302 and answer["Location"] == f"/groups/{group.pk}/"
    assert group.memberships.get(user=emil).role == "editor"
    assert f"/invitations/{pending.pk}/" not in phone_of(emil).get("/").content.decode()
    assert phone_of(emil).post(f"/invitations/{pending.pk}/accept").status_code == 404


def test_declining_on_the_home_page_joins_nothing(olga_and_emil):
    olga, emil, group = olga_and_emil
    pending = sharing.member_add(group=group, user=emil, role="editor", by=olga)
    answer = phone_of(emil).post(f"/invitations/{pending.pk}/decline", follow=True)
    assert answer.status_code == 200 and "Invitation declined." in answer.content.decode()
    assert not group.memberships.filter(user=emil).exists()
    assert Invitation.objects.get(pk=pending.pk).status == "declined"


def test_somebody_else_cannot_answer_an_invitation_on_the_pages(olga_and_emil):
    olga, emil, group = olga_and_emil
    pending = sharing.member_add(group=group, user=emil, role="owner", by=olga)
    for who in (olga, user("otto")):
        for answer in ("accept", "decline"):
            assert phone_of(who).post(f"/invitations/{pending.pk}/{answer}"
                                       ).status_code == 404
    assert Invitation.objects.get(pk=pending.pk).status == "pending"
    assert not group.memberships.filter(user__username="otto").exists()
