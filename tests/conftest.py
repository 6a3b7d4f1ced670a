from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from .strength import PROFILE, examples

# Hypothesis profiles (tests/strength.py): ``dev`` small for make test, ``ci`` at full
# strength for .ci/run. A test without its own count gets the profile's.
settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=examples(100), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE)

ROOT = Path(__file__).resolve().parent.parent
#: The worked deals with their expected answers: data the project carries itself
#: (``referee.json``, and ``referee-additions.json`` for the rules added later).
EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"
EXAMPLES = EXAMPLES_DIR / "referee.json"
ADDITIONS = EXAMPLES_DIR / "referee-additions.json"


def load_examples(path: Path = EXAMPLES) -> list[dict[str, Any]]:
    """The worked deals of ``tests/examples`` (the first file unless told otherwise)."""
    return list(json.loads(path.read_text(encoding="utf-8")))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests first. They take turns through a lock (tests/browser/conftest.py);
    pytest-django puts them, as transactional tests, in the middle of the run, where
    pytest-xdist's load distribution handed batches of them to both workers at once and
    one waited at the lock while the other drove the browser. First, they all fall in the
    first worker's first batch (a quarter of its share), and the other worker runs the
    server-side tests beside them."""
    items.sort(key=lambda item: not item.nodeid.startswith("tests/browser/"))


@pytest.fixture
def examples() -> list[dict[str, Any]]:
    return load_examples()


@pytest.fixture(autouse=True)
def _test_settings(request: pytest.FixtureRequest) -> None:
    """Fast password hashing, and static files through the finders (production serves the
    hashed files of collectstatic's manifest). Referee tests may run without Django."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    # Every test starts in the default language: a request's language stays active in its
    # thread afterwards (LocaleMiddleware), and German leaked into the next test's CSV.
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    # Real password hashing costs ~0.3 s a user; tests create hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Rendered scoreboards are cached by session id and version; rolled-back test
    # databases reuse both, so every test starts with an empty cache.
    from django.core.cache import cache

    cache.clear()
    from scorepad.cache import answers, backend, grants, versions

    answers._bodies.clear()  # what each process keeps beside a shared cache
    versions._local.clear()
    grants._verified.clear()
    # The fast poll's cache follows writes after their commit; a test inside one
    # rolled-back transaction never commits, so there it follows at once. Tests on a
    # transactional database keep the real on_commit.
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or bool(
        marker and marker.kwargs.get("transaction"))
    if not transactional:
        request.getfixturevalue("monkeypatch").setattr(backend, "after_commit",
                                                       lambda fn: fn())
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def _whitenoise_finds_once() -> None:
    """Every test client loads the middleware anew, and WhiteNoise's then lists and stats
    every static file through the finders: 0.075 s a client, more than half of a test
    that asks as many people in turn. The files do not change during a run, so each
    configuration is listed once and its entries reused (the same entries, the same
    headers: nothing of what a client is answered changes)."""
    try:
        from whitenoise.middleware import WhiteNoiseMiddleware
    except ImportError:   # referee tests may run without the web packages
        return
    listing = WhiteNoiseMiddleware.add_files_from_finders
    found: dict[tuple[Any, ...], dict[str, Any]] = {}

    def add_files_from_finders(self: Any) -> None:
        from django.conf import settings as django_settings

        key = (self.static_prefix, self.max_age, self.allow_all_origins, self.charset,
               self.index_file, repr(self.mimetypes) if hasattr(self, "mimetypes") else None,
               repr(django_settings.STATICFILES_DIRS),
               tuple(django_settings.STATICFILES_FINDERS),
               tuple(django_settings.INSTALLED_APPS), repr(django_settings.STORAGES),
               repr(getattr(django_settings, "WHITENOISE_ADD_HEADERS_FUNCTION", None)),
               repr(getattr(django_settings, "WHITENOISE_IMMUTABLE_FILE_TEST", None)))
        if key not in found:
            kept, self.files = self.files, {}
            listing(self)
            found[key], self.files = self.files, kept
        self.files.update(found[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders


_whitenoise_finds_once()
