"""The Redis cache: Django's own, keeping its client objects, and surviving a Redis
that cannot be reached.

Django's Redis client builds a new ``redis.Redis`` for every operation, which
costs more than a small GET from a local server. Here each process keeps one per
connection pool; a ``redis.Redis`` is safe to share between threads, each command
taking a connection of the pool (which starts afresh in a forked process).

Redis is also the broker, and a move made while it is down is saved all the same
(the outbox keeps its emails, ``outbox/services.py``); the page that answers it
must not fail either. What the pages cache (a game's history as each reader is
told it, the games a player is awaited in) is derived from the database: while
Redis cannot be reached, reading it finds nothing and storing it stores nothing,
so the page is built from the database. The other uses of the cache (locks,
counters, the marks of replies already read) still fail loudly: a guess there
could run something twice or lift a limit.
"""

import logging

import redis as redis_py
from django.core.cache.backends import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT

log = logging.getLogger(__name__)

UNREACHABLE = (redis_py.ConnectionError, redis_py.TimeoutError)


class KeptClients(redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        # Django's private members, which django-stubs leave out.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
            client = self._clients[index] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients

    def delete_matching(self, pattern: str) -> int:
        """Delete the keys matching ``pattern`` (a key with ``*`` wildcards); their
        count. Scanned in steps, so the server serves other clients meanwhile."""
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=self.make_and_validate_key(pattern), count=1000))
        return client.delete(*keys) if keys else 0

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except UNREACHABLE as error:
            _unreachable(error)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except UNREACHABLE as error:
            _unreachable(error)
            return {}

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except UNREACHABLE as error:
            _unreachable(error)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set_many(data, timeout, version)
        except UNREACHABLE as error:
            _unreachable(error)
            return list(data)  # the keys not stored


def _unreachable(error: Exception) -> None:
    log.warning("The cache (Redis) cannot be reached; the page is built without it: %s", error)
