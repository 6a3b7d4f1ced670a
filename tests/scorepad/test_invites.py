"""Invitations that end when they should (issue 12, section 2).

An invitation link expires (7 days unless the owner says otherwise), is good for a number
of people (1 unless the owner says otherwise), is listed with its uses on the group page
and can be revoked there; and a removed (or demoted) member cannot walk back in with a
link made before the removal: they need a new one.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from scorepad import rosters, services, sharing
from scorepad.models import Invite, Membership

from .factories import group_with, phone_of, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def group() -> Any:
    return group_with(user("olga"))


def owner_of(group: Any) -> Any:
    return group.memberships.get(role="owner").user



def joins(who: Any, invite: Invite) -> int:
    """Open the link and press Join; the answer's status."""
    client = phone_of(who)
    shown = client.get(f"/join/{invite.token}/")
    if shown.status_code != 200:
        return int(shown.status_code)
    return int(client.post(f"/join/{invite.token}/").status_code)


def role(group: Any, who: Any) -> str | None:
    return group.memberships.filter(user=who).values_list("role", flat=True).first()


def test_an_invitation_is_good_for_one_person_by_default(group):
    invite = sharing.invite_create(group=group, user=owner_of(group), role="editor")
    assert invite.max_uses == 1
    bert, cilli = user("bert"), user("cilli")
    assert joins(bert, invite) == 302
    assert joins(cilli, invite) == 404
    assert role(group, bert) == "editor" and role(group, cilli) is None


def test_an_invitation_for_three_lets_in_three(group):
    invite = sharing.invite_create(group=group, user=owner_of(group), role="viewer",
                                    uses=3)
    people = [user(n) for n in ("bert", "cilli", "dominik", "emil")]
    assert [joins(p, invite) for p in people] == [302, 302, 302, 404]
    invite.refresh_from_db()
    assert invite.uses == 3


def test_a_member_opening_the_link_again_uses_nothing_up(group):
    invite = sharing.invite_create(group=group, user=owner_of(group), role="viewer",
                                    uses=2)
    bert = user("bert")
    assert joins(bert, invite) == 302
    assert joins(bert, invite) == 302
    invite.refresh_from_db()
    assert invite.uses == 1
    assert joins(user("cilli"), invite) == 302


def test_an_invitation_expires_after_seven_days_by_default(group):
    invite = sharing.invite_create(group=group, user=owner_of(group), role="viewer")
    assert timedelta(days=6, hours=23) < invite.expires_at - timezone.now() <= timedelta(days=7)
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now())
    assert joins(user("bert"), invite) == 404


def test_a_removed_member_cannot_walk_back_in_with_the_old_link(group):
    """The reported failure: removed through the API, back in through the old link."""
    olga = owner_of(group)
    invite = sharing.invite_create(group=group, user=olga, role="editor", uses=5)
    emil = user("emil")
    assert joins(emil, invite) == 302
    token = Token.objects.create(user=olga).key
    removed = Client().delete(f"/api/v1/groups/{group.pk}/members/",
                              json.dumps({"username": "emil"}),
                              content_type="application/json",
                              HTTP_AUTHORIZATION=f"Token {token}")
    assert removed.status_code == 204
    answer = phone_of(emil).get(f"/join/{invite.token}/")
    assert answer.status_code == 404
    assert "new invitation" in answer.content.decode()
    assert phone_of(emil).post(f"/join/{invite.token}/").status_code == 404
    assert role(group, emil) is None
    assert joins(user("fritz"), invite) == 302  # the link still works for others

    fresh = sharing.invite_create(group=group, user=olga, role="viewer")
    assert joins(emil, fresh) == 302
    assert role(group, emil) == "viewer"


def test_a_demoted_member_cannot_raise_themselves_again_with_an_old_link(group):
    olga = owner_of(group)
    invite = sharing.invite_create(group=group, user=olga, role="editor", uses=5)
    emil = user("emil")
    joins(emil, invite)
    rosters.member_set(group=group, user=emil, role="viewer")
    assert joins(emil, invite) == 404
    assert role(group, emil) == "viewer"


def test_a_removed_member_cannot_use_an_old_link_they_never_opened(group):
    olga = owner_of(group)
    emil = user("emil")
    rosters.member_set(group=group, user=emil, role="editor")
    old = sharing.invite_create(group=group, user=olga, role="editor", uses=5)
    rosters.member_remove(group=group, user=emil)
    with pytest.raises(services.InviteGone):
        sharing.invite_accept(invite=old, user=emil)
    assert role(group, emil) is None


def test_the_group_page_lists_open_invitations_with_their_uses_and_revokes_them(group):
    olga = owner_of(group)
    client = phone_of(olga)
    answer = client.post(f"/groups/{group.pk}/invites", {"role": "viewer", "uses": "3",
                                                          "days": "2"})
    assert answer.status_code == 302
    invite = Invite.objects.get()
    assert (invite.max_uses, invite.role) == (3, "viewer")
    assert timedelta(days=1, hours=23) < invite.expires_at - timezone.now() <= timedelta(days=2)
    joins(user("bert"), invite)
    page = client.get(f"/groups/{group.pk}/").content.decode()
    assert invite.token in page
    assert "1 of 3 used" in page
    client.post(f"/groups/{group.pk}/invites", {"revoke": str(invite.pk)})
    page = client.get(f"/groups/{group.pk}/").content.decode()
    assert invite.token not in page
    assert joins(user("cilli"), invite) == 404


def test_a_used_up_invitation_is_no_longer_listed(group):
    olga = owner_of(group)
    invite = sharing.invite_create(group=group, user=olga, role="viewer")
    joins(user("bert"), invite)
    assert invite.token not in phone_of(olga).get(f"/groups/{group.pk}/").content.decode()


@pytest.mark.parametrize(("uses", "days"), [("0", "7"), ("101", "7"), ("x", "7"), ("²", "7"),
                                            ("1", "0"), ("1", "31"), ("1", "seven")])
def test_the_group_page_refuses_impossible_uses_and_days(group, uses, days):
    answer = phone_of(owner_of(group)).post(f"/groups/{group.pk}/invites",
                                         {"role": "viewer", "uses": uses, "days": days},
                                         follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 200
    assert Invite.objects.count() == 0
    assert "muss" in answer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_people_racing_for_the_last_use_let_in_one():
    olga = user("olga")
    group = group_with(olga)
    invite = sharing.invite_create(group=group, user=olga, role="viewer")
    people = [user(f"p{i}") for i in range(6)]
    start = threading.Barrier(len(people))
    results: list[Any] = [None] * len(people)

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = sharing.invite_accept(invite=sharing.invite_by_token(invite.token),
                                                user=people[i])
        except Exception as e:  # noqa: BLE001 - counted below
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(people))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    joined = [r for r in results if isinstance(r, Membership)]
    assert len(joined) == 1, results
    assert all(isinstance(r, services.InviteGone | Invite.DoesNotExist)
               for r in results if not isinstance(r, Membership)), results
    assert Membership.objects.filter(group=group).count() == 2
    invite.refresh_from_db()
    assert invite.uses == 1
