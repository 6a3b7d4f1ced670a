"""The project itself: health, home page, settings from the environment, docs."""

from __future__ import annotations

import html
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# Requests pass the whole middleware stack, which may read the database (sessions, login
# throttling, connection health checks).
pytestmark = pytest.mark.django_db


def test_healthz_answers_200_with_the_database_reachable(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_answers_503_when_the_database_is_down(client, monkeypatch):
    from django.db import connection
    from django.db.utils import OperationalError

    def broken(*args, **kwargs):
        raise OperationalError("down")

    monkeypatch.setattr(connection, "cursor", broken)
    response = client.get("/healthz")
    assert response.status_code == 503


def test_the_home_page_names_the_presets(client):
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Schreiber" in text
    from referee.rules import PRESETS

    for preset in PRESETS.values():  # by the names players know, never by their codes
        assert html.escape(preset.title) in text, preset.title
    assert "https://" not in text  # no external resources


def test_the_home_page_speaks_german_when_the_browser_does(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert "Regelwerke" in response.content.decode()


def test_api_docs_work_offline(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "swagger-ui" in text
    assert "cdn" not in text.lower()


def test_the_openapi_schema_describes_the_referee(client):
    response = client.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/v1/rules", "/api/v1/referee/mulatschak/deal",
                 "/api/v1/referee/mulatschak/auction", "/api/v1/referee/mulatschak/trick"):
        assert path in paths
    assert "422" in paths["/api/v1/referee/mulatschak/deal"]["post"]["responses"]


def _settings_in_subprocess(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import django.conf as c; c.settings.DEBUG; print('ok')"],
        cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": "scorepad.settings"},
        capture_output=True, text=True, timeout=60,
    )


def test_settings_refuse_to_start_without_a_secret_key_in_production():
    result = _settings_in_subprocess({})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_settings_start_in_debug_without_a_secret_key():
    result = _settings_in_subprocess({"DJANGO_DEBUG": "1"})
    assert result.returncode == 0, result.stderr


def test_database_url_selects_postgresql(monkeypatch):
    import dj_database_url

    config = dj_database_url.parse("postgres://postgres@127.0.0.1:5432/x")
    assert config["ENGINE"] == "django.db.backends.postgresql"


def test_sqlite_is_the_default_database():
    result = subprocess.run(
        [sys.executable, "-c",
         "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'])"],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
             "DJANGO_SETTINGS_MODULE": "scorepad.settings", "DJANGO_DEBUG": "1"},
        capture_output=True, text=True, timeout=60,
    )
    assert result.stdout.strip() == "django.db.backends.sqlite3", result.stderr


def test_the_suite_runs_on_the_database_that_database_url_names():
    from django.db import connection

    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres", "postgresql")) else "sqlite"
    assert connection.vendor == expected
