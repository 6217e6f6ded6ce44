"""The Redis cache shares one client object per connection pool (Django's makes one for
every call), and works as Django's does, from several threads at once."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

from agon.redis_cache import SharedClientRedisCache


@pytest.fixture
def redis_cache() -> Iterator[SharedClientRedisCache]:
    url = settings.CELERY_BROKER_URL
    if not url.startswith("redis://"):
        pytest.skip("the tests' broker is not Redis")
    prefix = f"{settings.CELERY_BROKER_TRANSPORT_OPTIONS['global_keyprefix']}cache-test-"
    cache = SharedClientRedisCache(url, {"KEY_PREFIX": prefix + secrets.token_hex(4)})
    yield cache


def test_every_call_gets_the_same_client(redis_cache: SharedClientRedisCache) -> None:
    clients = redis_cache._cache  # type: ignore[attr-defined]
    client = clients.get_client()

    assert clients.get_client() is client
    assert clients.get_client("a key", write=True) is client  # one server


def test_it_keeps_and_forgets_values_from_many_threads(
    redis_cache: SharedClientRedisCache,
) -> None:
    def round_trip(number: int) -> tuple[object, object, object]:
        key = f"value-{number}"
        redis_cache.set(key, {"number": number, "bytes": bytes([number % 256]) * 1000}, 30)
        kept = redis_cache.get(key)
        many = redis_cache.get_many([key, "nothing"])
        redis_cache.delete(key)
        return kept, many, redis_cache.get(key)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(round_trip, range(64)))

    for number, (kept, many, after) in enumerate(results):
        value = {"number": number, "bytes": bytes([number % 256]) * 1000}
        assert kept == value
        assert many == {f"value-{number}": value}
        assert after is None
