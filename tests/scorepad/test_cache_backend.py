"""The one way the cache package talks to the cache (scorepad/cache/backend.py): a failing
cache is a miss, a bug is not hidden, and what a process keeps for itself stays bounded."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from redis.exceptions import ConnectionError as RedisConnectionError

from scorepad.cache import backend


def _unreachable(*args, **kwargs):
    raise RedisConnectionError("Connection refused")


def _bug(*args, **kwargs):
    raise KeyError("a bug")


def test_a_cache_that_cannot_answer_is_a_miss(monkeypatch):
    monkeypatch.setattr(caches["default"], "get_many", _unreachable)
    assert backend.get_many(["a"]) is None
    assert backend.get("a") is None


def test_a_cache_that_takes_no_writes_says_so(monkeypatch):
    monkeypatch.setattr(caches["default"], "set", _unreachable)
    assert backend.put("a", 1, 30) is False


def test_a_bug_behind_the_cache_is_not_taken_for_a_miss(monkeypatch):
    monkeypatch.setattr(caches["default"], "get_many", _bug)
    with pytest.raises(KeyError):
        backend.get_many(["a"])


def test_a_number_in_the_cache_never_goes_down():
    backend.raise_to("n", 5, 30)
    backend.raise_to("n", 3, 30)
    assert backend.get("n") == 5


def test_what_a_process_keeps_forgets_the_least_recently_used_first():
    kept = backend.Recent[str, int](2)
    kept.put("anna", 1)
    kept.put("bert", 2)
    assert kept.get("anna") == 1  # anna used last: bert goes first
    kept.put("cilli", 3)
    assert (kept.get("anna"), kept.get("bert"), kept.get("cilli")) == (1, None, 3)
    assert len(kept) == 2
