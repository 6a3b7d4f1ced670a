"""How hard the property tests and fuzzers push: the hypothesis profile.

``dev`` (the default, ``make test``) runs every property and fuzzer at a fraction of its
strength, so that the whole suite runs in minutes; ``ci`` (selected by ``.ci/run`` with
``HYPOTHESIS_PROFILE=ci``) runs each at the full strength its test names. Both profiles are
registered in ``tests/conftest.py``; a test says its full strength with ``examples(n)``.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
if PROFILE not in ("dev", "ci"):
    raise RuntimeError(f"HYPOTHESIS_PROFILE must be dev or ci, not {PROFILE!r}")

#: ``dev`` runs this fraction of a test's full strength (at least ``DEV_MIN`` examples)
DEV_SHARE = 5
DEV_MIN = 5


def examples(full: int) -> int:
    """The number of examples for a property whose full (``ci``) strength is ``full``."""
    if PROFILE == "ci":
        return full
    return max(min(full, DEV_MIN), full // DEV_SHARE)


def env_examples(name: str, full: int) -> int:
    """``examples(full)``, unless the environment variable ``name`` sets the count."""
    value = os.environ.get(name)
    return int(value) if value else examples(full)


#: The (language, colour scheme) pairs each look test shows: under ``ci`` all six; under
#: ``dev`` three that show every language and both schemes.
LANGUAGE_SCHEMES = (
    [(lang, scheme) for lang in ("de", "en", "hu") for scheme in ("light", "dark")]
    if PROFILE == "ci" else [("de", "light"), ("en", "dark"), ("hu", "light")])
