"""Limits count people, not addresses (docs/deploy.md, "10. Accounts and access").

- An IPv6 address counts by its network (``SCHREIBER_IPV6_PREFIX``, a /64 unless told):
  one household or one attacker holds a whole /64; an IPv4-mapped IPv6 address
  (``::ffff:10.1.1.1``) is the IPv4 address it maps.
- ``X-Forwarded-For`` is believed only from a trusted proxy (``SCHREIBER_TRUSTED_PROXIES``,
  the loopback addresses unless told; gunicorn.conf.py's ``forwarded_allow_ips`` reads the
  same variable): a client that reaches the server directly cannot pick its address.
- Every limit per address counts so: sessions without an account, the login lockout,
  new accounts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from django.test import Client

from scorepad import limits
from scorepad.models import Session
from scorepad.settings import networks

from .factories import user

pytestmark = pytest.mark.django_db

PASSWORD = "s3cret-pass!"  # factories.user's
START = {"preset": "salzburg", "seat_0": "Anna", "seat_1": "Bert", "seat_2": "Cilli",
         "seat_3": "Dominik"}


def just_play(address: str, **extra: Any) -> int:
    return int(Client().post("/play/", START, REMOTE_ADDR=address, **extra).status_code)


def log_in(username: str, password: str, address: str, **extra: Any) -> int:
    return int(Client().post("/accounts/login/", {"username": username, "password": password},
                             REMOTE_ADDR=address, **extra).status_code)


def sign_up(name: str, address: str) -> int:
    return int(Client().post("/api/v1/auth/register",
                             {"username": name, "password": "kartenspiel-2026"},
                             content_type="application/json", REMOTE_ADDR=address).status_code)


# --- what an address counts as ----------------------------------------------------------------


@pytest.mark.parametrize(("remote", "counted"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:0:1::1", "2001:db8:0:1::"),
    ("2001:db8:0:1:ffff:ffff:ffff:ffff", "2001:db8:0:1::"),
    ("2001:DB8:0:1::abcd", "2001:db8:0:1::"),
    ("::ffff:10.1.1.1", "10.1.1.1"),
    ("::1", "::"),
])
def test_an_address_counts_as_itself_or_its_ipv6_network(rf, remote, counted):
    assert limits.client_address(rf.get("/", REMOTE_ADDR=remote)) == counted


def test_the_ipv6_network_counted_is_a_setting(rf, settings):
    settings.SCHREIBER_IPV6_PREFIX = 48
    assert limits.client_address(rf.get("/", REMOTE_ADDR="2001:db8:7:1::1")) == "2001:db8:7::"
    settings.SCHREIBER_IPV6_PREFIX = 128
    assert limits.client_address(rf.get("/", REMOTE_ADDR="2001:db8:7:1::1")) \
        == "2001:db8:7:1::1"


def test_sessions_without_an_account_count_by_the_ipv6_network(settings):
    settings.SCHREIBER_GUEST_SESSIONS_PER_HOUR = 20
    answers = [just_play(f"2001:db8:0:1::{i:x}") for i in range(1, 23)]
    assert answers == [302] * 20 + [429, 429]
    assert Session.objects.count() == 20
    assert just_play("2001:db8:0:2::1") == 302  # the next network is somebody else


def test_wrong_passwords_from_one_ipv6_network_lock_the_account_for_all_of_it():
    user("anna")
    for i in range(2, 8):
        log_in("anna", "wrong", f"2001:db8:0:1::{i}")
    assert log_in("anna", PASSWORD, "2001:db8:0:1::99") == 429
    assert log_in("anna", PASSWORD, "2001:db8:0:2::99") == 302  # Anna at home


def test_an_ipv4_mapped_address_is_counted_as_its_ipv4_address(settings):
    settings.SCHREIBER_SIGNUPS_PER_HOUR = 2
    assert [sign_up(f"user{i}", "10.1.1.1") for i in range(2)] == [201, 201]
    assert sign_up("user2", "10.1.1.1") == 429
    assert sign_up("user3", "::ffff:10.1.1.1") == 429


def test_new_accounts_count_by_the_ipv6_network(settings):
    settings.SCHREIBER_SIGNUPS_PER_HOUR = 3
    answers = [sign_up(f"user{i}", f"2001:db8:0:1::{i + 1}") for i in range(4)]
    assert answers == [201, 201, 201, 429]


# --- the trusted proxy --------------------------------------------------------------------------


@pytest.fixture
def proxied(settings):
    settings.SCHREIBER_BEHIND_PROXY = True
    return settings


def test_forwarded_for_from_the_trusted_proxy_names_the_client(rf, proxied):
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert limits.client_address(request) == "198.51.100.7"
    request = rf.get("/", REMOTE_ADDR="::1", HTTP_X_FORWARDED_FOR="2001:db8:0:1::5")
    assert limits.client_address(request) == "2001:db8:0:1::"


def test_forwarded_for_from_anybody_else_is_ignored(rf, proxied):
    request = rf.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert limits.client_address(request) == "203.0.113.9"


def test_the_trusted_proxies_are_a_setting_of_addresses_and_networks(rf, proxied):
    proxied.SCHREIBER_TRUSTED_PROXIES = networks("10.0.0.0/8, 192.0.2.1")
    for peer in ("10.20.30.40", "192.0.2.1"):
        request = rf.get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR="198.51.100.7")
        assert limits.client_address(request) == "198.51.100.7", peer
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert limits.client_address(request) == "127.0.0.1"  # not trusted any more


def test_behind_two_trusted_proxies_the_client_is_the_first_untrusted_address(rf, proxied):
    proxied.SCHREIBER_TRUSTED_PROXIES = networks("127.0.0.1, 10.0.0.0/8")
    request = rf.get("/", REMOTE_ADDR="127.0.0.1",
                     HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7, 10.0.0.2")
    assert limits.client_address(request) == "198.51.100.7"


@pytest.mark.parametrize(("forwarded", "address"), [
    ("198.51.100.7", "198.51.100.7"), ("1.2.3.4, 198.51.100.7", "198.51.100.7"),
    ("2001:db8::1", "2001:db8::"), ("not-an-address", "127.0.0.1"),
    ("", "127.0.0.1"), ("198.51.100.7, ", "127.0.0.1"), ("::ffff:10.1.1.1", "10.1.1.1"),
])
def test_what_the_proxy_appended_is_the_address(rf, proxied, forwarded, address):
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert limits.client_address(request) == address


def test_a_client_reaching_the_server_directly_cannot_escape_the_lockout(proxied):
    user("anna")
    for i in range(5):  # a made-up address each time, sent past the proxy
        log_in("anna", "wrong", "203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    assert log_in("anna", PASSWORD, "203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.99") == 429


def test_a_client_reaching_the_server_directly_cannot_escape_the_guest_limit(proxied):
    proxied.SCHREIBER_GUEST_SESSIONS_PER_HOUR = 2
    answers = [just_play("203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
               for i in range(3)]
    assert answers == [302, 302, 429]


# --- the settings, and gunicorn's own -----------------------------------------------------------


def _settings_and_gunicorn(**env: str) -> list[str]:
    """The trusted proxies as the settings and gunicorn.conf.py read them from ``env``."""
    from tests.conftest import ROOT

    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "SCHREIBER_", "GUNICORN_", "FORWARDED_"))}
    code = ("import os, runpy; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'scorepad.settings'); from django.conf import settings as s; "
            "print(sorted(map(str, s.SCHREIBER_TRUSTED_PROXIES)), s.SCHREIBER_IPV6_PREFIX); "
            "g = runpy.run_path('gunicorn.conf.py'); "
            "from scorepad.settings import networks; "
            "print(sorted(map(str, networks(g['forwarded_allow_ips']))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                            env=clean | {"DJANGO_DEBUG": "1"} | env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()


def test_the_trusted_proxies_are_the_loopback_addresses_unless_told_as_for_gunicorn():
    django_side, gunicorn_side = _settings_and_gunicorn()
    assert django_side == "['127.0.0.1/32', '::1/128'] 64"
    assert gunicorn_side == "['127.0.0.1/32', '::1/128']"


def test_the_settings_and_gunicorn_read_the_trusted_proxies_from_one_variable():
    django_side, gunicorn_side = _settings_and_gunicorn(
        SCHREIBER_TRUSTED_PROXIES="10.0.0.0/8,192.0.2.1", SCHREIBER_IPV6_PREFIX="56")
    assert django_side == "['10.0.0.0/8', '192.0.2.1/32'] 56"
    assert gunicorn_side == "['10.0.0.0/8', '192.0.2.1/32']"


@pytest.mark.parametrize("env", [{"SCHREIBER_TRUSTED_PROXIES": "not-a-network"},
                                 {"SCHREIBER_IPV6_PREFIX": "200"},
                                 {"SCHREIBER_IPV6_PREFIX": "sixty-four"}])
def test_a_wrong_setting_is_refused_at_the_start(env):
    from tests.conftest import ROOT

    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SCHREIBER_"))}
    code = ("import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'scorepad.settings'); "
            "from django.conf import settings as s; s.SCHREIBER_TRUSTED_PROXIES")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                            env=clean | {"DJANGO_DEBUG": "1"} | env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "ImproperlyConfigured" in result.stderr


def test_forwarded_proto_from_an_untrusted_peer_does_not_make_a_request_https(
        client, proxied):
    proxied.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied.SECURE_SSL_REDIRECT = True
    stranger = client.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_PROTO="https")
    assert stranger.status_code == 301
    assert stranger["Location"].startswith("https://")
    proxy = client.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
    assert proxy.status_code == 200
