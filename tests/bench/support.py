"""Running a bench script as its user would, on parts of this test process's own.

A bench that makes a PostgreSQL database gets one named after the tests' database
(AGON_TEST_DATABASE_URL), the bench and the pytest-xdist worker; a bench on Redis gets
the tests' broker (AGON_TEST_BROKER_URL) and a key prefix under this process's broker
prefix (AGON_TEST_BROKER_PREFIX and the worker): it deletes only keys under it, never a
whole database that other tests or runs share.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from django.conf import settings

from tests.platform.pipeline.support import REPO_DIR

BENCH_DIR = REPO_DIR / "bench"


def run_bench(script: str, *arguments: str, timeout: float = 300) -> str:
    """`python bench/<script> <arguments>` from the checkout, in a shell's environment
    (none of the tests' AGON_ or Django settings); its output, once it exited with 0."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("AGON_") and name != "DJANGO_SETTINGS_MODULE"
    }
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, str(BENCH_DIR / script), *arguments],
        cwd=REPO_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{script} exited with {done.returncode}:\n" + (
        done.stdout[-3000:] + done.stderr[-5000:]
    )
    return done.stdout


def xdist_worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@dataclass(frozen=True)
class BenchDatabase:
    url: str
    name: str
    admin_url: str

    def exists(self) -> bool:
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [self.name])
            return found.fetchone() is not None


def bench_database(bench: str) -> BenchDatabase:
    """A PostgreSQL database name of this test run for `bench` (the bench makes and drops
    it); skip where the tests run on another database."""
    from agon.settings.test import AGON_TEST_DATABASE_URL

    tests_database = urlsplit(AGON_TEST_DATABASE_URL)
    if not tests_database.scheme.startswith("postgres"):
        pytest.skip("the bench needs PostgreSQL, and the tests run on another database")
    name = f"{tests_database.path.strip('/')}_bench_{bench}_{xdist_worker()}"[:63]
    return BenchDatabase(
        url=urlunsplit(tests_database._replace(path=f"/{name}")),
        name=name,
        admin_url=urlunsplit(tests_database._replace(scheme="postgresql", path="/postgres")),
    )


@dataclass(frozen=True)
class BenchRedis:
    url: str
    prefix: str

    def keys(self) -> list[bytes]:
        client = redis.Redis.from_url(self.url)
        try:
            return list(client.scan_iter(match=f"{self.prefix}*", count=1000))
        finally:
            client.close()


def bench_redis(bench: str) -> BenchRedis:
    """The tests' Redis, and a key prefix of this test process for `bench`."""
    broker = settings.CELERY_BROKER_URL
    prefix = str(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "agon-test:"))
    return BenchRedis(
        url=broker if broker.startswith("redis") else "redis://127.0.0.1:6379/15",
        prefix=f"{prefix.rstrip(':')}-bench-{bench}:",
    )


def figures(line: str) -> list[float]:
    """The numbers of a printed row (a trailing %, x, us or ms dropped)."""
    found = []
    for word in line.split():
        text = word.rstrip("%xusm").rstrip(",;")
        try:
            found.append(float(text))
        except ValueError:
            continue
    return found
