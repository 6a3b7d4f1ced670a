"""Revocation on Redis at its memory limit (``maxmemory`` with ``noeviction``): every
command that may grow memory (SET, its variants, EVAL, INCR...) answers OOM, DEL and reads
still work, as on the deployment the attack filled. The Redis under test is shared, so
its limit is not really lowered: the client answers as Redis would."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis.client import Pipeline
from redis.exceptions import OutOfMemoryError

from .test_fastpoll_redis import redis_cache  # noqa: F401 -- Redis under a prefix of its own
from .test_revocation import (  # noqa: F401 -- the same behaviour, collected again on Redis
    bert,
    test_a_generation_never_goes_back_in_the_cache,
    test_a_generation_the_cache_lost_is_read_from_the_database_in_one_query,
    test_access_ends_at_once_when_the_cache_is_full,
    test_access_ends_at_once_with_a_working_cache,
    test_the_answer_of_a_refused_change_says_to_try_again,
)

pytestmark = pytest.mark.django_db

#: Commands Redis refuses at its memory limit (its "denyoom" flag), among those we send.
GROWING = {"SET", "SETEX", "PSETEX", "SETNX", "MSET", "MSETNX", "INCR", "INCRBY", "DECR",
           "DECRBY", "APPEND", "EVAL", "EVALSHA", "HSET", "LPUSH", "RPUSH", "SADD"}
OOM = "command not allowed when used memory > 'maxmemory'."


@pytest.fixture
def refuse(redis_cache: Any) -> Iterator[Any]:  # noqa: F811 -- undone before its cleanup
    """"full": Redis at its limit; "broken": Redis that takes no writes at all."""
    monkeypatch = pytest.MonkeyPatch()

    def start(mode: str) -> None:
        refused = GROWING if mode == "full" else GROWING | {"DEL", "UNLINK", "EXPIRE"}
        execute, pipeline = redis.Redis.execute_command, Pipeline.execute

        def one(self: Any, *args: Any, **options: Any) -> Any:
            if str(args[0]).upper() in refused:
                raise OutOfMemoryError(OOM)
            return execute(self, *args, **options)

        def many(self: Any, raise_on_error: bool = True) -> Any:
            if any(str(c[0][0]).upper() in refused for c in self.command_stack):
                self.reset()
                raise OutOfMemoryError(OOM)
            return pipeline(self, raise_on_error)

        monkeypatch.setattr(redis.Redis, "execute_command", one)
        monkeypatch.setattr(Pipeline, "execute", many)

    yield start
    monkeypatch.undo()
