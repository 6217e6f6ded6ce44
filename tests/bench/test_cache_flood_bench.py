"""bench/cache_flood.py runs, tiny: the entries' sizes, then a flood of a Redis capped at
4 MiB of its own, which stays at its cap, evicting, and leaves the broker's Redis alone."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator

import pytest
import redis

from bench import cache_flood
from tests.platform.pipeline.support import wait_for
from tests.platform.s3 import free_port
from tests.required import missing


@pytest.fixture
def capped_redis() -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        missing("redis", "redis-server is not installed")
    port = free_port()
    started = subprocess.Popen(  # noqa: S603 - the test's own server
        [
            *(server, "--port", str(port), "--save", "", "--appendonly", "no"),
            *("--maxmemory", "4mb", "--maxmemory-policy", "allkeys-lru"),
        ],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_for(lambda: _answers(url), timeout=10, what="the capped redis-server")
        yield url
    finally:
        started.terminate()
        started.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url).ping())
    except redis.ConnectionError:
        return False


def test_a_flood_keeps_the_capped_cache_at_its_cap(
    capped_redis: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--games", "architekton", "--seeds", "1", "--cache-url", capped_redis]
    assert cache_flood.main([*argv, "--matches", "200"]) == 0
    printed = capsys.readouterr().out
    assert "architekton 2p seed 1:" in printed and "largest entry:" in printed
    assert "Flood: 200 matches" in printed and "(maxmemory 4 MiB, allkeys-lru)" in printed
    assert " 0 keys evicted" not in printed
