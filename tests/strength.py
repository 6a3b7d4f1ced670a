"""How hard the property tests, fuzzers and phone looks push: the hypothesis profile.

``dev`` (the default, ``make test``) runs every property and fuzzer at a fraction of its
strength, so that the whole suite runs in minutes; ``ci`` (selected by ``.ci/run`` with
``HYPOTHESIS_PROFILE=ci``) runs each at the full strength its test names. Both profiles are
registered in ``tests/conftest.py``; a test says its full strength with ``examples(n)``
(``share=`` for a test that makes one run per operation or URL, where a fifth of each
would still cost minutes).

The browser tests are parametrized here too, one rule for all. test_looks.py, which looks
at every page, runs under ``ci`` in every (language, colour scheme) pair at 360 and at
320 px; under ``dev`` in three pairs that show every language and both schemes at 360 px,
and one of them at 320 px (``LANGUAGE_SCHEMES``). The other tests that repeat themselves
in further languages, schemes or widths (the referee's pages, the sheets that must fit, a
deal kept offline in German and in Hungarian…) run every case under ``ci`` and one under
``dev`` (``repeated``, ``LANGUAGE_SCHEME_WIDTHS``), each test a different one. Every page
and every check still runs under ``dev``; only the repetitions are left to ``ci``.
Screenshots are saved at CSS pixels under ``dev`` (``SCREENSHOT_SCALE``; a phone's device
pixels under ``ci``): encoding the double-size images was a third of each look; and under
``dev`` only where something failed (``EVERY_SCREENSHOT``).

Other repetitions that are strength, not coverage, follow ``PROFILE`` the same way and say
so where they are: the askers of tests/scorepad/test_cache_per_user.py, the requests per
operation of test_schema_positive.py (``examples(100, share=20)``: 5 under ``dev``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
if PROFILE not in ("dev", "ci"):
    raise RuntimeError(f"HYPOTHESIS_PROFILE must be dev or ci, not {PROFILE!r}")

#: ``dev`` runs this fraction of a test's full strength (at least ``DEV_MIN`` examples)
DEV_SHARE = 5
DEV_MIN = 5


def examples(full: int, *, share: int = DEV_SHARE, least: int = DEV_MIN) -> int:
    """The number of examples for a property whose full (``ci``) strength is ``full``:
    under ``dev`` the ``share``-th part of it, at least ``least``. A test that runs one
    property per operation or URL asks a smaller share (and least) than one property."""
    if PROFILE == "ci":
        return full
    return max(min(full, least), full // share)


def env_examples(name: str, full: int, *, share: int = DEV_SHARE, least: int = DEV_MIN) -> int:
    """``examples(full, ...)``, unless the environment variable ``name`` sets the count."""
    value = os.environ.get(name)
    return int(value) if value else examples(full, share=share, least=least)


#: The (language, colour scheme) pairs each look test shows: under ``ci`` all six; under
#: ``dev`` three that show every language and both schemes.
LANGUAGE_SCHEMES = (
    [(lang, scheme) for lang in ("de", "en", "hu") for scheme in ("light", "dark")]
    if PROFILE == "ci" else [("de", "light"), ("en", "dark"), ("hu", "light")])

#: (language, scheme, width) for a test of both phone widths (tests/browser/test_fits.py:
#: the sheets and start form, a tournament on paper, a table's phone): every pair of
#: ``LANGUAGE_SCHEMES`` at 360 and at 320 px under ``ci``; under ``dev`` Hungarian (the
#: longest words) at 360 px and the pair test_looks.py's 320 px test shows at 320 px.
LANGUAGE_SCHEME_WIDTHS = (
    [(lang, scheme, width) for width in (360, 320) for lang, scheme in LANGUAGE_SCHEMES]
    if PROFILE == "ci" else [("hu", "light", 360), ("de", "light", 320)])

T = TypeVar("T")


def repeated(cases: Sequence[T], *, dev: int = 0) -> list[T]:
    """The cases of a browser test that does the same thing again in further languages or
    colour schemes: all of them under ``ci``; under ``dev`` the one at index ``dev`` (the
    tests choose different ones, so that a quick run still sees every language)."""
    return list(cases) if PROFILE == "ci" else [cases[dev]]


#: How a look test's screenshots are saved (Playwright's ``scale``): the phone's device
#: pixels under ``ci``, CSS pixels (a quarter of the pixels to encode) under ``dev``.
SCREENSHOT_SCALE = "device" if PROFILE == "ci" else "css"

#: Whether every page a look test visits is saved as a screenshot (``ci``, and with
#: ``SCHREIBER_SCREENSHOTS=1``), or, under ``dev``, only a page where it found something
#: wrong and a browser test's last page when the test failed: a screenshot is a tenth of
#: a second a page, and a quick run is looked at only where it failed.
EVERY_SCREENSHOT = PROFILE == "ci" or os.environ.get("SCHREIBER_SCREENSHOTS") == "1"
