"""The cache every process shares, and the one way the rest of the package talks to it.

``RedisCache`` is the project's own Django cache backend over Redis (``SCHREIBER_CACHE_URL``,
settings): one ``redis.Redis`` per server and process, an explicit serializer, and the
public ``redis`` API only. Django's own Redis backend builds a new ``redis.Redis`` for
every cache operation; redis-py's constructor copies its table of ~130 response callbacks
each time, about 60 µs, which was a tenth of a fast poll's whole cost and five times that
per deal POST (bench/README.md). A ``redis.Redis`` is safe to share between threads (each
command takes a connection from the pool).

The helpers below (``get_many``, ``get``, ``put``, ``put_many``, ``delete_many``, ``raise_to``) work
on whatever cache is configured (Redis, or the memory cache of one process) and catch
what a cache raises when it cannot answer (``ERRORS``) and nothing else: the cache is a
shortcut, so a failure is a miss (a read answers None) or a write not made (False), and
logged. Where a failure must stop a change instead (revocation, ``grants.bump``), callers
catch ``ERRORS`` themselves.
"""

from __future__ import annotations

import logging
import pickle
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: What a cache raises when it cannot answer: Redis's errors (unreachable, timed out,
#: a write refused at its memory limit). The memory and dummy caches raise none of their
#: own; anything else is a bug and is not caught.
ERRORS: tuple[type[Exception], ...] = (RedisError,)


def cache() -> Any:
    return caches["default"]


def shared() -> bool:
    """Does every process see this cache (a shared one, or a one-process deployment)?"""
    return bool(getattr(settings, "SCHREIBER_CACHE_SHARED", False))


def on_redis() -> bool:
    return isinstance(cache(), RedisCache)


def after_commit(fn: Callable[[], None]) -> None:
    """Run ``fn`` once the current transaction has committed (at once outside one)."""
    transaction.on_commit(fn, robust=True)


# --- the safe helpers -------------------------------------------------------------------


def get_many(keys: list[str]) -> dict[str, Any] | None:
    """The entries of ``keys`` the cache has (on Redis in one MGET, from the primary: a
    replica may lag behind a write); None when the cache cannot answer."""
    try:
        return dict(cache().get_many(keys))
    except ERRORS:
        log.warning("could not read the cache", exc_info=True)
        return None


def get(key: str) -> Any:
    """The entry ``key``, or None (also when the cache cannot answer)."""
    found = get_many([key])
    return None if found is None else found.get(key)


def put(key: str, value: Any, seconds: int | None) -> bool:
    """Cache ``value`` for ``seconds`` (None: without end); False if the cache refused."""
    try:
        cache().set(key, value, seconds)
    except ERRORS:
        log.warning("could not write the cache", exc_info=True)
        return False
    return True


def put_many(values: Mapping[str, Any], seconds: int) -> bool:
    try:
        cache().set_many(dict(values), seconds)
    except ERRORS:
        log.warning("could not write the cache", exc_info=True)
        return False
    return True


def delete_many(keys: list[str]) -> bool:
    """Forget ``keys``; False if the cache would not."""
    try:
        cache().delete_many(keys)
    except ERRORS:
        log.warning("could not delete from the cache", exc_info=True)
        return False
    return True


_MAX = """
local cur = redis.call('GET', KEYS[1])
if (not cur) or (tonumber(cur) or -1) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
return 0
"""
_lock = threading.Lock()


def raise_to(key: str, number: int, seconds: int, entries: Mapping[str, Any] | None = None,
             entries_seconds: int = 0) -> None:
    """Make the number cached under ``key`` at least ``number`` (never lower it: a late
    writer cannot put an older number back), for ``seconds``; and cache ``entries`` for
    ``entries_seconds``, in the same round trip on Redis (an atomic "max" there, a lock
    in memory). Raises ``ERRORS``: the caller decides what a failure means."""
    backend = cache()
    if isinstance(backend, RedisCache):
        backend.raise_to(key, number, seconds, entries, entries_seconds)
        return
    with _lock:
        current = backend.get(key)
        if current is None or int(current) < number:
            backend.set(key, int(number), seconds)
    if entries:
        backend.set_many(dict(entries), entries_seconds)


# --- what one process keeps ---------------------------------------------------------------

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` entries, the least recently used forgotten first (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            if len(self._data) > self.size:
                self._data.popitem(last=False)

    def pop(self, key: K) -> None:
        with self._lock:
            self._data.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


# --- Redis ------------------------------------------------------------------------------


class Serializer:
    """What goes into Redis: an integer as itself (Redis can count and compare it: the
    Lua "max" of ``raise_to``), anything else pickled. The format of Django's own Redis
    cache, so entries written by either read back."""

    protocol = pickle.HIGHEST_PROTOCOL

    def dumps(self, value: Any) -> Any:
        if type(value) is int:  # not bool, a subclass
            return value
        return pickle.dumps(value, self.protocol)

    def loads(self, data: bytes) -> Any:
        try:
            return int(data)
        except ValueError:
            return pickle.loads(data)


_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def client_for(url: str, options: Mapping[str, Any]) -> redis.Redis:
    """One ``redis.Redis`` per server and process (every thread's backend shares it)."""
    client = _clients.get(url)
    if client is None:
        with _clients_lock:
            client = _clients.get(url)
            if client is None:
                client = _clients[url] = redis.Redis.from_url(url, **options)
    return client


class RedisCache(BaseCache):
    """Django's cache API on one Redis server (``LOCATION``: its URL; ``OPTIONS``: passed
    to ``redis.Redis.from_url``). Timeouts as Django's Redis cache: None keeps an entry
    without end, 0 or less deletes it."""

    serializer = Serializer()

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(params)
        servers = re.split("[;,]", server) if isinstance(server, str) else list(server)
        servers = [s.strip() for s in servers if s.strip()]
        if len(servers) != 1:
            raise ImproperlyConfigured("the cache is one Redis server (read from its primary)")
        self.url = servers[0]
        self.options = dict(params.get("OPTIONS") or {})

    @property
    def client(self) -> redis.Redis:
        return client_for(self.url, self.options)

    def get_backend_timeout(self, timeout: Any = DEFAULT_TIMEOUT) -> int | None:
        if timeout is DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        return None if timeout is None else max(0, int(timeout))

    def _key(self, key: Any, version: int | None = None) -> str:
        return str(self.make_and_validate_key(key, version=version))

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> bool:
        made, seconds = self._key(key, version), self.get_backend_timeout(timeout)
        data = self.serializer.dumps(value)
        if seconds == 0:
            added = bool(self.client.set(made, data, nx=True))
            if added:
                self.client.delete(made)
            return added
        return bool(self.client.set(made, data, ex=seconds, nx=True))

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        data = self.client.get(self._key(key, version))
        return default if data is None else self.serializer.loads(data)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        made, seconds = self._key(key, version), self.get_backend_timeout(timeout)
        if seconds == 0:
            self.client.delete(made)
        else:
            self.client.set(made, self.serializer.dumps(value), ex=seconds)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT,
              version: int | None = None) -> bool:
        made, seconds = self._key(key, version), self.get_backend_timeout(timeout)
        if seconds is None:
            return bool(self.client.persist(made))
        return bool(self.client.expire(made, seconds))

    def delete(self, key: Any, version: int | None = None) -> bool:
        return bool(self.client.delete(self._key(key, version)))

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        # the polls' every read: keys made without memcached's key warnings (a loop over
        # each character), as the fast path always read them
        named = {self.make_key(key, version=version): key for key in keys}
        if not named:
            return {}
        values = self.client.mget(list(named))
        return {named[made]: self.serializer.loads(data)
                for made, data in zip(named, values, strict=True) if data is not None}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return bool(self.client.exists(self._key(key, version)))

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        made = self._key(key, version)
        if not self.client.exists(made):
            raise ValueError(f"Key '{key}' not found.")
        return int(self.client.incr(made, delta))

    def set_many(self, data: Mapping[Any, Any], timeout: Any = DEFAULT_TIMEOUT,
                 version: int | None = None) -> list[Any]:
        if not data:
            return []
        seconds = self.get_backend_timeout(timeout)
        pipe = self.client.pipeline()
        made = {self._key(key, version): self.serializer.dumps(v) for key, v in data.items()}
        pipe.mset(made)
        if seconds is not None:
            for name in made:
                pipe.expire(name, seconds)
        pipe.execute()
        return []

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        made = [self._key(key, version) for key in keys]
        if made:
            self.client.delete(*made)

    def clear(self) -> None:
        """Every entry of this cache (its key prefix), not the whole Redis database:
        others may share it."""
        names = list(self.client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(names), 1000):
            self.client.delete(*names[start:start + 1000])

    def raise_to(self, key: str, number: int, seconds: int,
                 entries: Mapping[str, Any] | None = None, entries_seconds: int = 0) -> None:
        """``raise_to`` on Redis: an atomic "max", and ``entries`` in the same round trip."""
        made = self._key(key)
        if not entries:
            self.client.eval(_MAX, 1, made, int(number), seconds)
            return
        pipe = self.client.pipeline(transaction=False)
        pipe.eval(_MAX, 1, made, int(number), seconds)
        for name, value in entries.items():
            pipe.set(self._key(name), self.serializer.dumps(value), ex=entries_seconds)
        pipe.execute()
