"""The Redis a bench's platform runs on, for bench/api.py and bench/pipeline.py.

Production settings want the cache on a Redis server of its own (capped and evicting,
compose's `cache`), never the broker's: without `--cache-url` a bench starts one for its
run on a free loopback port and stops it at the end. In the broker's Redis, every key
of the bench's platform (Celery's queues, the rate limits' counters) starts with the
bench's prefix, and the bench deletes only those: it never empties a database that
something else may be using.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import redis

CACHE_MAXMEMORY = "64mb"
DEFAULT_PREFIX = "agon-bench:"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def key_prefix(text: str) -> str:
    """An argument's prefix of Redis keys: not empty, as the database may hold others'."""
    if not text:
        raise argparse.ArgumentTypeError("cannot be empty: the database may hold others' keys")
    return text


def prefix_environment(prefix: str) -> dict[str, str]:
    """The settings that put every key of the platform in the broker's Redis (queues,
    rate-limit counters) and in the cache under `prefix`."""
    return {"AGON_BROKER_KEY_PREFIX": prefix, "AGON_CACHE_KEY_PREFIX": f"{prefix}cache"}


def delete_keys(url: str, prefix: str) -> int:
    """Delete the keys starting with `prefix` in the Redis database of `url`; how many."""
    if not prefix:
        raise ValueError("a prefix is needed: the database may hold others' keys")
    client = redis.Redis.from_url(url)
    try:
        deleted = 0
        batch: list[bytes] = []
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            batch.append(key)
            if len(batch) == 1000:
                deleted += int(client.delete(*batch))
                batch = []
        if batch:
            deleted += int(client.delete(*batch))
        return deleted
    finally:
        client.close()


@contextlib.contextmanager
def cache_server(url: str | None) -> Iterator[str]:
    """`url`, or when it is None the URL of a capped Redis started for the run (stopped
    afterwards, whatever happens)."""
    if url is not None:
        yield url
        return
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("no redis-server here for the cache: give --cache-url")
    port = free_port()
    process = subprocess.Popen(  # noqa: S603 - a fixed argv
        [
            *(server, "--bind", "127.0.0.1", "--port", str(port)),
            *("--save", "", "--appendonly", "no"),
            *("--maxmemory", CACHE_MAXMEMORY, "--maxmemory-policy", "allkeys-lru"),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    own_url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while not _answers(own_url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the cache's redis-server on port {port} did not start")
            time.sleep(0.05)
        yield own_url
    finally:
        process.terminate()
        process.wait(timeout=10)


def _answers(url: str) -> bool:
    client = redis.Redis.from_url(url)
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False
    finally:
        client.close()
