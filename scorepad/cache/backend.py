"""Django's Redis cache, with one client object per server instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache
operation; redis-py's constructor copies its table of ~130 response callbacks each time,
about 60 µs, which was a tenth of a fast poll's whole cost and five times that per deal
POST (bench/README.md). A ``redis.Redis`` is safe to share between threads (each command
takes a connection from the pool), so one per connection pool is enough.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients.setdefault(index, self._client(connection_pool=pool))
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
