"""A phone shared by several accounts (docs/using.md, "On the phone"): every page names the
account it was rendered for, so that the phone keeps each account's deals and page copies
apart, and the server refuses a deal kept on the phone for another account than the one
logged in now."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from scorepad import accounts
from scorepad.models import Deal

from .factories import member, user

pytestmark = pytest.mark.django_db

TABLE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}
DEAL = {"kind": "collapsed", "number": "1"}


def account_of(response) -> str | None:
    found = re.search(r'<body[^>]*\sdata-account="([^"]*)"', response.content.decode())
    return found.group(1) if found else None


def events(response) -> dict:
    return json.loads(response.get("HX-Trigger", "{}"))


@pytest.fixture
def bert(table):
    """Bert plays at Anna's table and scores on the same phone."""
    bert = user("bert")
    member(table.group, bert, "editor")
    return bert


@pytest.fixture
def berts_phone(bert) -> Client:
    client = Client()
    client.force_login(bert)
    return client


def owner(who) -> dict[str, str]:
    return {"HTTP_X_SCHREIBER_OWNER": accounts.phone_owner(user=who)}


# --- every page names its account ----------------------------------------------------------


def test_a_page_names_the_account_it_was_rendered_for(phone, anna):
    assert account_of(phone.get("/")) == accounts.phone_owner(user=anna)


def test_the_account_is_named_by_an_opaque_value_the_same_for_every_login(anna, bert):
    first = Client()
    first.force_login(anna)
    second = Client()
    second.force_login(anna)
    tag = account_of(first.get("/"))
    assert tag == account_of(second.get("/"))
    assert tag and str(anna.pk) != tag and "anna" not in tag
    assert tag != accounts.phone_owner(user=bert)


def test_a_page_for_nobody_names_no_account(client):
    assert account_of(client.get("/accounts/login/")) == ""


def test_the_offline_page_names_no_account(phone):
    """The service worker keeps it when it installs and shows it to whoever is logged in."""
    assert account_of(phone.get("/offline/")) is None


def test_a_session_page_shared_by_its_members_names_each_ones_own_account(
        phone, berts_phone, table, anna, bert):
    for _ in range(2):  # rendered once, then taken from the cache
        assert account_of(phone.get(f"/sessions/{table.pk}/")) == accounts.phone_owner(user=anna)
        assert (account_of(berts_phone.get(f"/sessions/{table.pk}/"))
                == accounts.phone_owner(user=bert))


# --- a deal kept for another account --------------------------------------------------------


def test_a_deal_kept_for_another_account_is_refused_and_nothing_is_recorded(
        berts_phone, table, anna):
    response = berts_phone.post(f"/sessions/{table.pk}/deals/new",
                                DEAL | {"idempotency_key": "annas-1"}, **TABLE, **owner(anna))
    assert response.status_code == 403
    assert "another account" in response.content.decode()
    assert events(response) == {}
    assert Deal.objects.count() == 0


def test_a_deal_recorded_for_its_owner_is_not_replayed_for_another_account(
        phone, berts_phone, table, anna):
    first = phone.post(f"/sessions/{table.pk}/deals/new",
                       DEAL | {"idempotency_key": "annas-1"}, **TABLE, **owner(anna))
    assert events(first) == {"schreiber:recorded": {"number": 1}}
    again = berts_phone.post(f"/sessions/{table.pk}/deals/new",
                             DEAL | {"idempotency_key": "annas-1"}, **TABLE, **owner(anna))
    assert again.status_code == 403
    assert Deal.objects.count() == 1
    assert Deal.objects.get().created_by == anna


def test_a_deal_kept_for_the_account_logged_in_is_recorded_once_and_replayed(
        phone, table, anna):
    data = DEAL | {"idempotency_key": "annas-1"}
    first = phone.post(f"/sessions/{table.pk}/deals/new", data, **TABLE, **owner(anna))
    again = phone.post(f"/sessions/{table.pk}/deals/new", data, **TABLE, **owner(anna))
    assert events(first) == events(again) == {"schreiber:recorded": {"number": 1}}
    assert Deal.objects.count() == 1
    assert Deal.objects.get().created_by == anna


def test_a_save_without_an_owner_is_recorded_as_before(phone, table, anna):
    """A plain form post (no script) names no owner: the login alone decides."""
    response = phone.post(f"/sessions/{table.pk}/deals/new", DEAL)
    assert response.status_code == 302
    assert Deal.objects.get().created_by == anna
