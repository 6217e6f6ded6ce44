"""Django's Redis cache, with one client object per connection pool instead of a new one
for every call.

Django's `RedisCacheClient.get_client` builds a `redis.Redis` for each get or set: about
0.2 ms of Python (it fills the client's table of response callbacks anew), paid by every
cached page, some of them twice (bench/README.md, "Every read endpoint under 100 ms p99").
A `redis.Redis` holds no connection of its own (it borrows one from the pool for each
command) and is safe to share between threads, so one per pool serves every call.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[object, Any] = {}  # by pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own attributes, which its stubs leave out.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
