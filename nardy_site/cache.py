"""The site's Redis cache, which is only ever a cache: when Redis is down or hung, the site
works without it instead of answering 500.

Everything the site keeps there can be computed again (shared pages, page parts, replay
frames) or may be lost (login failure counts: the limits lapse while Redis is away). So
``TolerantRedisCache`` turns a Redis error into a miss: reads answer their default, writes
are dropped, and a warning is logged. After an error the process leaves Redis alone for
``RETRY_SECONDS`` rather than paying a timeout on every call, then tries again. The socket
timeouts (half a second, set in ``nardy_site.env.env_cache``) bound what one call costs when
Redis hangs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

T = TypeVar("T")

log = logging.getLogger(__name__)

#: How long a process works without the cache after an error before it tries Redis again.
RETRY_SECONDS = 5.0


class _Outage:
    """Until when this process leaves Redis alone (shared by its threads' cache objects)."""

    lock = threading.Lock()
    until = 0.0


class _OneClientPerPool(RedisCacheClient):
    """Django's client makes a new ``redis.Redis`` for every call, which costs more than a GET
    on loopback (it builds its table of reply parsers): this one keeps one per connection pool
    (a client is only a pool and that table, safe to share)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class TolerantRedisCache(RedisCache):
    """Django's Redis cache, answering a miss instead of raising when Redis fails."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool

    def _tolerant(self, fallback: T, call: Callable[[], T]) -> T:
        if time.monotonic() < _Outage.until:
            return fallback
        try:
            return call()
        except RedisError as error:
            with _Outage.lock:
                already = time.monotonic() < _Outage.until
                _Outage.until = time.monotonic() + RETRY_SECONDS
            if not already:
                log.warning(
                    "the cache is unreachable (%s): working without it for %.0f s",
                    error,
                    RETRY_SECONDS,
                )
            return fallback

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        parent = super()
        return self._tolerant(default, lambda: parent.get(key, default, version))

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        parent = super()
        return self._tolerant({}, lambda: parent.get_many(keys, version))

    def has_key(self, key: Any, version: int | None = None) -> bool:
        parent = super()
        return self._tolerant(False, lambda: parent.has_key(key, version))

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        parent = super()
        return self._tolerant(False, lambda: parent.add(key, value, timeout, version))

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        parent = super()
        self._tolerant(None, lambda: parent.set(key, value, timeout, version))

    def set_many(
        self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        parent = super()
        return self._tolerant([], lambda: parent.set_many(data, timeout, version))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        parent = super()
        return self._tolerant(False, lambda: parent.touch(key, timeout, version))

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        parent = super()
        return self._tolerant(delta, lambda: parent.incr(key, delta, version))

    def delete(self, key: Any, version: int | None = None) -> bool:
        parent = super()
        return self._tolerant(False, lambda: parent.delete(key, version))

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        parent = super()
        self._tolerant(None, lambda: parent.delete_many(keys, version))

    def clear(self) -> None:
        parent = super()
        self._tolerant(None, parent.clear)
