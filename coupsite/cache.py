"""The Redis cache: Django's own, keeping its client objects.

Django's Redis client builds a new ``redis.Redis`` for every operation, which
costs more than a small GET from a local server. Here each process keeps one per
connection pool; a ``redis.Redis`` is safe to share between threads, each command
taking a connection of the pool (which starts afresh in a forked process).
"""

from django.core.cache.backends import redis


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
