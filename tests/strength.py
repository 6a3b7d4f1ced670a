"""How hard the property tests, fuzzers and phone looks push: the hypothesis profile.

``dev`` (the default, ``make test``) runs every property and fuzzer at a fraction of its
strength, so that the whole suite runs in minutes; ``ci`` (selected by ``.ci/run`` with
``HYPOTHESIS_PROFILE=ci``) runs each at the full strength its test names. Both profiles are
registered in ``tests/conftest.py``; a test says its full strength with ``examples(n)``
(``share=`` for a test that makes one run per operation or URL, where a fifth of each
would still cost minutes).

The browser tests that look at every page are parametrized here too, one rule for all:
under ``ci`` every (language, colour scheme) pair at 360 and at 320 px; under ``dev`` three
pairs that show every language and both schemes at 360 px, and one of them at 320 px
(``LANGUAGE_SCHEMES``, ``LANGUAGE_SCHEME_WIDTHS``). Every page and every check still runs
under ``dev``; only the repetitions in further languages, schemes and widths are left to
``ci``. Their screenshots are saved at CSS pixels under ``dev`` (``SCREENSHOT_SCALE``; a
phone's device pixels under ``ci``): encoding the double-size images was a third of each
look.

Other repetitions that are strength, not coverage, follow ``PROFILE`` the same way and say
so where they are: the askers of tests/scorepad/test_cache_per_user.py, the requests per
operation of test_schema_positive.py (``examples(100, share=20)``: 5 under ``dev``).
"""

from __future__ import annotations

import os

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
#: ``LANGUAGE_SCHEMES`` at 360 px; at 320 px every pair under ``ci``, the first under ``dev``
#: (the same one test_looks.py's 320 px test shows).
LANGUAGE_SCHEME_WIDTHS = (
    [(lang, scheme, 360) for lang, scheme in LANGUAGE_SCHEMES]
    + [(lang, scheme, 320) for lang, scheme in (LANGUAGE_SCHEMES if PROFILE == "ci"
                                                 else LANGUAGE_SCHEMES[:1])])

#: How a look test's screenshots are saved (Playwright's ``scale``): the phone's device
#: pixels under ``ci``, CSS pixels (a quarter of the pixels to encode) under ``dev``.
SCREENSHOT_SCALE = "device" if PROFILE == "ci" else "css"
