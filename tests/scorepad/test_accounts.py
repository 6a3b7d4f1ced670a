"""Accounts whose access ends when it should (issue 12, section 2).

- a password can be changed (page and API); the change rotates the API token and ends
  the account's other login sessions (and their scoreboard grants);
- ``POST /api/v1/auth/token/revoke`` logs out everywhere;
- a forgotten password: staff make a one-time reset link (``manage.py reset_link``, the
  admin), never a group's owner; with a mail server configured, Django's reset-by-mail
  works too; a link stops working once used, on any login (web or API token), after a day;
- behind the proxy (``DJANGO_BEHIND_PROXY``) the login lockout counts by username *and*
  the client's address from the proxy's X-Forwarded-For;
- registrations are limited per address (429 with Retry-After), in the API and on the
  sign-up page.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.contrib.sessions.models import Session as LoginSession
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from scorepad import accounts

from .factories import group_with, member, session_at, user

pytestmark = pytest.mark.django_db

OLD = "s3cret-pass!"  # factories.user's password
NEW = "a-new-Secret-42"


def logged_in(username: str, password: str = OLD, **extra: Any) -> Client:
    """A phone that logged in through the login page (a real session row)."""
    client = Client(**extra)
    assert client.post("/accounts/login/", {"username": username, "password": password}
                       ).status_code == 302
    return client


def is_logged_in(client: Client) -> bool:
    return client.get("/groups/").status_code == 200


def token_of(who: Any) -> str:
    return str(Token.objects.get_or_create(user=who)[0].key)


def api_get(token: str, path: str = "/api/v1/groups/") -> int:
    return int(Client().get(path, HTTP_AUTHORIZATION=f"Token {token}").status_code)


def api_post(path: str, body: Any = None, token: str | None = None,
             client: Client | None = None, **extra: Any) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return (client or Client()).post(path, json.dumps(body or {}),
                                     content_type="application/json", **headers, **extra)


# --- changing the password --------------------------------------------------------------------


def test_the_password_page_changes_the_password_and_keeps_this_phone_logged_in():
    anna = user("anna")
    phone = logged_in("anna")
    assert phone.get("/accounts/password/").status_code == 200
    answer = phone.post("/accounts/password/", {"old_password": OLD, "new_password1": NEW,
                                                "new_password2": NEW})
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert anna.check_password(NEW)
    assert is_logged_in(phone)


def test_a_password_change_ends_the_other_sessions_and_rotates_the_token():
    anna = user("anna")
    old_token = token_of(anna)
    phone, tablet = logged_in("anna"), logged_in("anna")
    assert LoginSession.objects.count() == 2
    phone.post("/accounts/password/", {"old_password": OLD, "new_password1": NEW,
                                       "new_password2": NEW})
    assert not is_logged_in(tablet)
    assert is_logged_in(phone)
    assert LoginSession.objects.count() == 1  # the tablet's row is gone, not just stale
    assert api_get(old_token) == 401
    assert Token.objects.get(user=anna).key != old_token


def test_a_wrong_old_password_changes_nothing_and_says_so():
    anna = user("anna")
    phone = logged_in("anna")
    answer = phone.post("/accounts/password/", {"old_password": "nope", "new_password1": NEW,
                                                "new_password2": NEW},
                        HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 200
    assert "Ihr altes Passwort war falsch" in answer.content.decode() or "alte" in \
        answer.content.decode()
    anna.refresh_from_db()
    assert anna.check_password(OLD)


def test_the_api_changes_the_password_and_answers_the_new_token():
    anna = user("anna")
    old_token = token_of(anna)
    tablet = logged_in("anna")
    answer = api_post("/api/v1/auth/password", {"old_password": OLD, "new_password": NEW},
                      token=old_token)
    assert answer.status_code == 200, answer.content
    new_token = answer.json()["token"]
    assert new_token != old_token
    assert api_get(old_token) == 401 and api_get(new_token) == 200
    assert not is_logged_in(tablet)
    anna.refresh_from_db()
    assert anna.check_password(NEW)


@pytest.mark.parametrize(("body", "field"), [
    ({"old_password": "wrong", "new_password": NEW}, "old_password"),
    ({"old_password": OLD, "new_password": "123"}, "new_password"),
    ({"old_password": OLD, "new_password": "anna"}, "new_password"),
    ({"old_password": OLD}, "new_password"),
    ({"old_password": OLD, "new_password": 12345678}, "new_password"),
])
def test_the_api_names_the_field_of_a_refused_password_change(body, field):
    anna = user("anna")
    token = token_of(anna)
    answer = api_post("/api/v1/auth/password", body, token=token)
    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    assert api_get(token) == 200
    anna.refresh_from_db()
    assert anna.check_password(OLD)


def test_the_api_password_change_needs_a_login():
    assert api_post("/api/v1/auth/password",
                    {"old_password": OLD, "new_password": NEW}).status_code == 401


def test_guessing_the_old_password_through_the_api_is_throttled():
    anna = user("anna")
    token = token_of(anna)
    for _ in range(5):
        api_post("/api/v1/auth/password", {"old_password": "guess", "new_password": NEW},
                 token=token, REMOTE_ADDR="203.0.113.9")
    answer = api_post("/api/v1/auth/password", {"old_password": OLD, "new_password": NEW},
                      token=token, REMOTE_ADDR="203.0.113.9")
    assert answer.status_code == 429
    anna.refresh_from_db()
    assert anna.check_password(OLD)


# --- logging out everywhere -------------------------------------------------------------------


def test_revoking_the_token_logs_out_everywhere():
    anna = user("anna")
    token = token_of(anna)
    phone, tablet = logged_in("anna"), logged_in("anna")
    bert = user("bert")
    berts_phone = logged_in("bert")
    assert api_post("/api/v1/auth/token/revoke", token=token).status_code == 204
    assert api_get(token) == 401
    assert not is_logged_in(phone) and not is_logged_in(tablet)
    assert is_logged_in(berts_phone)  # nobody else
    assert not Token.objects.filter(user=anna).exists()
    assert Token.objects.filter(user=bert).count() == 0
    again = api_post("/api/v1/auth/token", {"username": "anna", "password": OLD})
    assert again.status_code == 200 and again.json()["token"] != token


def test_revoking_from_a_browser_session_ends_that_session_too():
    user("anna")
    phone = logged_in("anna", enforce_csrf_checks=False)
    assert api_post("/api/v1/auth/token/revoke", client=phone).status_code == 204
    assert not is_logged_in(phone)


def test_revoking_needs_a_login():
    assert api_post("/api/v1/auth/token/revoke").status_code == 401


def test_the_account_page_logs_out_everywhere():
    anna = user("anna")
    token = token_of(anna)
    phone, tablet = logged_in("anna"), logged_in("anna")
    assert phone.get("/accounts/").status_code == 200
    answer = phone.post("/accounts/logout-everywhere")
    assert answer.status_code == 302
    assert not is_logged_in(phone) and not is_logged_in(tablet)
    assert api_get(token) == 401


# --- reset links ------------------------------------------------------------------------------


@pytest.fixture
def pub() -> dict[str, Any]:
    olga, bert, eddi = user("olga"), user("bert"), user("eddi")
    group = group_with(olga)
    member(group, bert, "viewer")
    member(group, eddi, "editor")
    return {"olga": olga, "bert": bert, "eddi": eddi, "group": group}


def reset_link_from(page: Any) -> str:
    found = re.search(r"https?://[^\s\"<]+/accounts/reset/[^\s\"<]+/", page.content.decode())
    assert found, page.content.decode()[:2000]
    return found.group(0).split("testserver", 1)[1]


def command_link(username: str, *args: str) -> str:
    out = io.StringIO()
    call_command("reset_link", username, *args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def set_password_by(link: str, password: str = NEW) -> Client:
    """Open a reset link and set ``password`` through its form."""
    client = Client()
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content, link
    done = client.post(form.redirect_chain[-1][0], {"new_password1": password,
                                                    "new_password2": password})
    assert done.status_code == 302
    return client


def link_works(link: str) -> bool:
    return b"new_password1" in Client().get(link, follow=True).content


def test_an_owner_has_no_way_to_make_a_reset_link_for_a_member(pub):
    owner = logged_in("olga")
    gone = owner.post(f"/groups/{pub['group'].pk}/reset-link", {"user": str(pub["bert"].pk)})
    assert gone.status_code == 404
    assert b"/accounts/reset/" not in gone.content
    page = owner.get(f"/groups/{pub['group'].pk}/").content.decode()
    assert "reset-link" not in page and "/accounts/reset/" not in page
    assert not hasattr(accounts, "reset_link_for_member")


def test_staff_make_a_one_time_reset_link_with_the_command(pub):
    bert = pub["bert"]
    berts_token = token_of(bert)
    berts_old_phone = logged_in("bert")
    link = command_link("bert")
    assert link.startswith("/accounts/reset/")  # no base URL known: the path

    set_password_by(link)
    bert.refresh_from_db()
    assert bert.check_password(NEW)
    assert logged_in("bert", NEW)
    assert not is_logged_in(berts_old_phone)
    assert api_get(berts_token) == 401
    assert not link_works(link)  # one time only


def test_the_command_prints_a_full_link_under_the_base_url(pub, settings):
    settings.SCHREIBER_BASE_URL = ""
    given = command_link("bert", "--base-url", "https://schreiber.example.org/")
    assert re.fullmatch(r"https://schreiber\.example\.org/accounts/reset/[^/]+/[^/]+/", given)
    settings.SCHREIBER_BASE_URL = "https://karten.example.at"
    assert command_link("bert").startswith("https://karten.example.at/accounts/reset/")
    link = command_link("bert").removeprefix("https://karten.example.at")
    assert link_works(link)


@pytest.mark.parametrize("args", [["nobody"], ["bert", "--base-url", "schreiber.example.org"]])
def test_the_command_refuses_an_unknown_account_or_a_base_url_without_scheme(pub, args):
    with pytest.raises(CommandError):
        call_command("reset_link", *args, stdout=io.StringIO(), stderr=io.StringIO())


def test_a_reset_link_stops_working_when_the_account_logs_in_on_the_web(pub):
    link = command_link("bert")
    assert link_works(link)
    logged_in("bert")
    assert not link_works(link)


def test_a_reset_link_stops_working_when_the_account_gets_an_api_token(pub):
    link = command_link("bert")
    before = pub["bert"].last_login
    answer = api_post("/api/v1/auth/token", {"username": "bert", "password": OLD})
    assert answer.status_code == 200
    pub["bert"].refresh_from_db()
    assert pub["bert"].last_login is not None and pub["bert"].last_login != before
    assert not link_works(link)


def test_a_reset_link_works_for_a_day_and_no_longer(pub, monkeypatch):
    from datetime import datetime, timedelta

    from django.contrib.auth.tokens import default_token_generator

    assert accounts.settings.PASSWORD_RESET_TIMEOUT == 86400
    link = command_link("bert")
    made = datetime.now()  # Django's token generator counts naive local seconds
    monkeypatch.setattr(default_token_generator, "_now",
                        lambda: made + timedelta(hours=23, minutes=59))
    assert link_works(link)
    monkeypatch.setattr(default_token_generator, "_now",
                        lambda: made + timedelta(days=1, minutes=1))
    assert not link_works(link)


def test_an_admin_makes_a_reset_link_in_the_admin(pub):
    root = user("root")
    root.is_staff = True
    root.is_superuser = True
    root.save()
    admin = logged_in("root")
    answer = admin.post("/admin/auth/user/", {"action": "make_reset_link",
                                              "_selected_action": [str(pub["bert"].pk)]},
                        follow=True)
    assert answer.status_code == 200
    link = reset_link_from(answer)
    set_password_by(link)
    pub["bert"].refresh_from_db()
    assert pub["bert"].check_password(NEW)


def test_staff_who_may_not_change_accounts_get_no_reset_link_in_the_admin(pub):
    from django.contrib.auth.models import Permission

    helper = user("helfer")
    helper.is_staff = True
    helper.save()
    helper.user_permissions.add(Permission.objects.get(codename="view_user"))
    client = logged_in("helfer")
    listing = client.get("/admin/auth/user/")
    assert listing.status_code == 200
    assert b"make_reset_link" not in listing.content
    answer = client.post("/admin/auth/user/", {"action": "make_reset_link",
                                               "_selected_action": [str(pub["bert"].pk)]},
                         follow=True)
    assert b"/accounts/reset/" not in answer.content


def test_reset_by_mail_works_when_a_mail_server_is_configured(settings, pub):
    settings.SCHREIBER_MAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    pub["bert"].email = "bert@example.org"
    pub["bert"].save()
    assert b"/accounts/password/reset/" in Client().get("/accounts/login/").content
    answer = Client().post("/accounts/password/reset/", {"email": "bert@example.org"})
    assert answer.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    client = Client()
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    pub["bert"].refresh_from_db()
    assert pub["bert"].check_password(NEW)
    assert not link_works(link)  # the mail's link is one-time too


def test_without_a_mail_server_there_is_no_reset_by_mail(settings):
    settings.SCHREIBER_MAIL = False
    assert Client().get("/accounts/password/reset/").status_code == 404
    page = Client().get("/accounts/login/").content.decode()
    assert "/accounts/password/reset/" not in page
    assert "administrator" in page


@pytest.mark.parametrize(("url", "parsed"), [
    ("smtp://mailer:pw%40x@mail.example.org:587?tls=1",
     {"EMAIL_HOST": "mail.example.org", "EMAIL_PORT": 587, "EMAIL_HOST_USER": "mailer",
      "EMAIL_HOST_PASSWORD": "pw@x", "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False}),
    ("smtps://mail.example.org",
     {"EMAIL_HOST": "mail.example.org", "EMAIL_PORT": 465, "EMAIL_USE_SSL": True}),
    ("console://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
])
def test_email_url_is_read_into_django_settings(url, parsed):
    from scorepad.settings import email_settings

    got = email_settings(url)
    for key, value in parsed.items():
        assert got[key] == value, key


# --- scoreboard grants without a shared cache -------------------------------------------------


@pytest.fixture
def unshared(settings) -> None:
    settings.SCHREIBER_CACHE_SHARED = False


def polled(client: Client, session: Any) -> str:
    from .test_fastpoll import polled_url

    return polled_url(client.get(f"/sessions/{session.pk}/"))


def board_status(client: Client, url: str) -> int:
    return int(client.get(url).status_code)


def test_without_a_shared_cache_a_deactivated_users_grant_stops(unshared):
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    url = polled(logged_in("anna"), session)
    assert board_status(Client(), url) == 200
    type(anna).objects.filter(pk=anna.pk).update(is_active=False)  # no signal: as a raw update
    assert board_status(Client(), url) == 302


def test_without_a_shared_cache_a_password_change_elsewhere_stops_the_grant(unshared):
    anna = user("anna")
    session = session_at(group_with(anna), anna)
    url = polled(logged_in("anna"), session)
    assert board_status(Client(), url) == 200
    anna.set_password(NEW)
    type(anna).objects.filter(pk=anna.pk).update(password=anna.password)  # raw: no signal
    assert board_status(Client(), url) == 302


def test_without_a_shared_cache_grants_last_two_minutes(unshared, monkeypatch):
    import time

    from scorepad.cache import grants

    anna = user("anna")
    session = session_at(group_with(anna), anna)
    phone = logged_in("anna")
    url = polled(phone, session)
    assert board_status(Client(), url) == 200
    later = time.time() + grants.UNSHARED_GRANT_SECONDS + 1
    monkeypatch.setattr(grants.time, "time", lambda: later)
    assert board_status(Client(), url) == 302
    assert board_status(phone, url) == 200  # the phone's login gets a fresh grant


# --- the login lockout behind the proxy -------------------------------------------------------


def login_via_proxy(username: str, password: str, client_ip: str, spoofed: str = "") -> int:
    forwarded = f"{spoofed}, {client_ip}" if spoofed else client_ip
    return int(Client().post("/accounts/login/", {"username": username, "password": password},
                             REMOTE_ADDR="127.0.0.1",
                             HTTP_X_FORWARDED_FOR=forwarded).status_code)


def test_behind_the_proxy_a_lockout_is_per_username_and_client_address(settings):
    settings.SCHREIBER_BEHIND_PROXY = True
    user("anna")
    for _ in range(5):
        login_via_proxy("anna", "wrong", "198.51.100.66")
    assert login_via_proxy("anna", OLD, "198.51.100.66") == 429
    assert login_via_proxy("anna", OLD, "203.0.113.20") == 302  # Anna at her own table


def test_behind_the_proxy_a_spoofed_forwarded_for_does_not_hide_the_address(settings):
    settings.SCHREIBER_BEHIND_PROXY = True
    user("anna")
    for i in range(5):  # a new made-up address each time, appended to by the proxy
        login_via_proxy("anna", "wrong", "198.51.100.66", spoofed=f"10.0.0.{i}")
    assert login_via_proxy("anna", OLD, "198.51.100.66", spoofed="10.9.9.9") == 429


def test_without_the_proxy_setting_forwarded_for_is_ignored(settings):
    settings.SCHREIBER_BEHIND_PROXY = False
    user("anna")
    for i in range(5):
        login_via_proxy("anna", "wrong", f"198.51.100.{i}")
    assert login_via_proxy("anna", OLD, "203.0.113.20") == 429  # all came from 127.0.0.1


# --- registrations per address ----------------------------------------------------------------


def register(n: int, address: str) -> Any:
    return api_post("/api/v1/auth/register", {"username": f"user{n}", "password": NEW},
                    REMOTE_ADDR=address)


def test_registrations_are_limited_per_address_in_the_api(settings):
    settings.SCHREIBER_SIGNUPS_PER_HOUR = 3
    assert [register(i, "203.0.113.5").status_code for i in range(3)] == [201, 201, 201]
    refused = register(3, "203.0.113.5")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert "detail" in refused.json()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="user3").exists()
    assert register(4, "198.51.100.5").status_code == 201  # another address


def test_refused_and_failed_registrations_do_not_count(settings):
    settings.SCHREIBER_SIGNUPS_PER_HOUR = 2
    bad = api_post("/api/v1/auth/register", {"username": "x", "password": "1"},
                   REMOTE_ADDR="203.0.113.6")
    assert bad.status_code == 400
    assert [register(i, "203.0.113.6").status_code for i in range(3)] == [201, 201, 429]


def test_registrations_are_limited_on_the_sign_up_page(settings):
    settings.SCHREIBER_SIGNUPS_PER_HOUR = 1

    def sign_up(name: str) -> Any:
        return Client().post("/signup/", {"username": name, "password1": NEW,
                                          "password2": NEW},
                             REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE="de")

    assert sign_up("first").status_code == 302
    refused = sign_up("second")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Konten" in refused.content.decode()


def test_the_limit_comes_from_the_environment():
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SCHREIBER_"))}
    env |= {"DJANGO_DEBUG": "1", "SCHREIBER_SIGNUPS_PER_HOUR": "7"}
    code = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'scorepad.settings'); from django.conf import settings as s; "
            "print(s.SCHREIBER_SIGNUPS_PER_HOUR)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "7", result.stderr


def test_guessing_the_old_password_on_the_page_is_throttled_too():
    anna = user("anna")
    phone = Client()
    phone.force_login(anna)

    def change(old: str) -> int:
        return int(phone.post("/accounts/password/", {
            "old_password": old, "new_password1": NEW, "new_password2": NEW},
            REMOTE_ADDR="203.0.113.10").status_code)

    assert [change("guess") for _ in range(4)] == [200, 200, 200, 200]
    change("guess")
    assert change(OLD) == 429
    anna.refresh_from_db()
    assert anna.check_password(OLD)


# --- logins from the cache (scorepad.cache.logins.session_user, cached_db sessions) --------


def test_a_second_page_asks_no_query_for_its_login(django_assert_num_queries):
    user("anna")
    phone = logged_in("anna")
    assert is_logged_in(phone)  # the account is read once, then cached
    with django_assert_num_queries(1):  # the groups page's own one
        assert phone.get("/groups/").status_code == 200


@pytest.mark.parametrize("how", ["revoke", "password", "deactivate", "everywhere"])
def test_a_login_the_cache_knows_ends_at_once(how):
    anna = user("anna")
    phone, tablet = logged_in("anna"), logged_in("anna")
    assert is_logged_in(phone) and is_logged_in(tablet)  # both cached now
    if how == "revoke":
        assert api_post("/api/v1/auth/token/revoke", token=token_of(anna)).status_code == 204
    elif how == "password":
        phone.post("/accounts/password/", {"old_password": OLD, "new_password1": NEW,
                                           "new_password2": NEW})
    elif how == "deactivate":
        anna.is_active = False
        anna.save()
    else:
        phone.post("/accounts/logout-everywhere")
    assert not is_logged_in(tablet)
    assert is_logged_in(phone) is (how == "password")  # the changing phone stays


def test_a_login_elsewhere_keeps_this_phone_logged_in_with_its_account_read_again():
    anna = user("anna")
    phone = logged_in("anna")
    assert is_logged_in(phone)
    logged_in("anna")  # updates last_login: the cached account is read again
    anna.refresh_from_db()
    assert is_logged_in(phone)
    from django.core.cache import cache

    from scorepad.cache.logins import account_key

    assert cache.get(account_key(anna.pk)) is None or \
        cache.get(account_key(anna.pk))[1].last_login == anna.last_login
