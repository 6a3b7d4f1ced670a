"""Security basics: deploy checks, CSP, CSRF, login throttling, cookies."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.test import Client

from tests.conftest import ROOT

from .factories import user

pytestmark = pytest.mark.django_db


def test_check_deploy_is_clean_with_production_settings():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {"DJANGO_SECRET_KEY": "x" * 60 + "-production-like-secret-key-for-the-check",
            "DJANGO_ALLOWED_HOSTS": "schreiber.example"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_page_carries_a_strict_content_security_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy


def test_no_page_has_inline_script(client):
    client.force_login(user("anna"))
    html = client.get("/sessions/new/").content.decode()
    for chunk in html.split("<script")[1:]:
        assert chunk.split(">")[0].strip().startswith("src="), chunk[:80]


def test_forms_need_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    client.force_login(user("anna"))
    assert client.post("/groups/", {"name": "G"}).status_code == 403


def test_htmx_sends_the_csrf_token_in_a_header(client):
    client.force_login(user("anna"))
    html = client.get("/").content.decode()
    assert 'hx-headers=\'{"x-csrftoken": "' in html


def _login(client: Client, username: str, password: str) -> int:
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR="203.0.113.7").status_code


def test_password_guessing_locks_that_username_but_not_the_whole_pub():
    user("anna")
    user("bert")
    client = Client()
    for _ in range(4):
        assert _login(client, "anna", "wrong") == 200
    assert _login(client, "anna", "wrong") == 429  # the fifth wrong password locks
    assert _login(client, "anna", "s3cret-pass!") == 429  # locked, even with the password
    assert _login(Client(), "bert", "s3cret-pass!") == 302  # same pub IP, other player


def test_the_api_token_endpoint_is_throttled_too():
    user("anna")
    client = Client()
    for _ in range(5):
        client.post("/api/v1/auth/token", {"username": "anna", "password": "nope"},
                    content_type="application/json", REMOTE_ADDR="203.0.113.8")
    locked = client.post("/api/v1/auth/token",
                         {"username": "anna", "password": "s3cret-pass!"},
                         content_type="application/json", REMOTE_ADDR="203.0.113.8")
    assert locked.status_code == 429
    assert "token" not in locked.json() and "15 minutes" in locked.json()["detail"]


def test_production_cookies_are_secure_and_host_only():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {"DJANGO_SECRET_KEY": "y" * 60, "DJANGO_SETTINGS_MODULE": "scorepad.settings"}
    code = ("from django.conf import settings as s; "
            "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_NAME, "
            "s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["True", "True", "__Host-sessionid", "31536000", "True"]


@pytest.mark.parametrize(("path", "shape"), [("/api/v1/groups/", "application/json"),
                                             ("/groups/", "text/html")])
def test_a_host_header_not_allowed_answers_400_not_500(path, shape):
    answer = Client(raise_request_exception=False).get(path, HTTP_HOST="evil.example")
    assert answer.status_code == 400 and answer["Content-Type"].startswith(shape)
    if shape == "application/json":
        assert answer.json() == {"detail": "Bad request."}
