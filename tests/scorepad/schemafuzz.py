"""Schemathesis without its pytest plugin: the API's OpenAPI schema is read once a test
asks for it (not when the module is imported, which cost every run ~30 s before its first
test), and each operation of a part of the schema is fuzzed in turn, with the failing
operation named in the error."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings

from ..strength import env_examples


@cache
def api_schema() -> Any:
    """The schema as the server renders it, read once per test process."""
    from scorepad.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


def operations(path_regex: str) -> list[Any]:
    """The operations whose path matches ``path_regex``, in the schema's order."""
    found = api_schema().include(path_regex=path_regex).get_all_operations()
    return [result.ok() for result in found]


def fuzz_each(path_regex: str, check: Callable[[Any], None], *, full: int) -> int:
    """Runs ``check(case)`` on generated cases of every operation matching ``path_regex``,
    ``full`` cases per operation under the ci profile (``FUZZ_EXAMPLES`` overrides);
    returns how many operations were fuzzed."""
    ops = operations(path_regex)
    for operation in ops:
        @settings(max_examples=env_examples("FUZZ_EXAMPLES", full), deadline=None,
                  database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                         HealthCheck.function_scoped_fixture])
        @given(case=operation.as_strategy())
        def run(case: Any) -> None:
            check(case)

        try:
            run()
        except BaseException as error:
            error.add_note(f"operation: {operation.label}")
            raise
    return len(ops)
