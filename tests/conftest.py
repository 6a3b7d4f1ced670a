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


def _browser(item: pytest.Item) -> bool:
    return item.nodeid.startswith("tests/browser/")


def _first_portions(config: pytest.Config, count: int) -> list[int]:
    """How many consecutive tests each pytest-xdist worker is handed first, as its
    scheduler hands them out (``xdist/scheduler/``): ``worksteal`` splits the whole run
    evenly and idle workers later take over the tail of another's share; ``load`` hands
    each a quarter of its share and the rest in small batches. tests/test_run_order.py asks
    those schedulers and fails if a pytest-xdist hands out otherwise."""
    workerinput = config.workerinput  # type: ignore[attr-defined]
    workers = int(workerinput["workercount"])
    if workerinput.get("dist") == "worksteal":
        portions, left = [], count
        for i in range(workers):
            portions.append(left // (workers - i))
            left -= portions[-1]
        return portions
    return [max(count // workers // 4, 2)] * workers


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tell each pytest-xdist worker how the tests are handed out (its own options say
    that it distributes nothing)."""
    node.workerinput["dist"] = node.config.getoption("dist")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where the browser tests go in the run. They spend most of their time waiting (on a
    poll, a held answer, the network switched off), so under pytest-xdist with three or
    more workers they are spread over all workers but one, each share at the head of the
    tests that worker is handed first; the last worker starts on the server-side tests,
    and with ``--dist worksteal`` (make test) takes over the tail of the others' while
    they drive their browsers. The order is computed identically on every worker.

    With fewer workers they all come first, in one worker's first batch. (Left where
    pytest-django puts them, as transactional tests, in the middle of the run, both
    workers got batches of them at once and waited on each other.)"""
    browser = [item for item in items if _browser(item)]
    rest = [item for item in items if not _browser(item)]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 3 or not browser:
        items[:] = browser + rest
        return
    portions = _first_portions(config, len(items))
    shares = _shares(browser, workers - 1)
    if any(len(share) > portion for share, portion in zip(shares, portions, strict=False)):
        items[:] = browser + rest   # too few tests to spread them
        return
    ordered: list[pytest.Item] = []
    for share, portion in zip(shares, portions, strict=False):
        filler = portion - len(share)
        ordered += share + rest[:filler]
        del rest[:filler]
    items[:] = ordered + rest


#: What a browser test takes on a quiet machine unless it says otherwise (``long``).
BROWSER_SECONDS = 3.0


def _seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("long")
    return float(marker.args[0]) if marker else BROWSER_SECONDS


def _shares(browser: list[pytest.Item], count: int) -> list[list[pytest.Item]]:
    """The browser tests split into ``count`` shares of about the same time: the longest
    first, each to the share with the least so far. Each share starts with its long tests,
    so that what is left at its end, which an idle worker takes over, is short."""
    shares: list[list[pytest.Item]] = [[] for _ in range(count)]
    load = [0.0] * count
    for item in sorted(browser, key=_seconds, reverse=True):   # stable: collection order
        least = load.index(min(load))
        shares[least].append(item)
        load[least] += _seconds(item)
    return shares


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
