"""One running platform per stack, shared by every scenario of the suite.

`agon` starts `agon up` once per stack (the scenarios of one stack go to one pytest-xdist
worker: `xdist_group`, with `--dist loadgroup` in the project's pytest options) on a
fresh data folder, with short beat intervals so that rounds and matchmaking follow one
another within a second or two:

- `embedded`: exactly what `make run` gives: SQLite, kombu's file-system broker and
  bubblewrap boxes under the data folder;
- `production-parts`: the same command on a fresh PostgreSQL database (made and dropped
  here, named after this process's test database and xdist worker) and a Redis broker
  and cache (the test settings' Redis, under a key prefix of its own), as production
  runs them; boxes are bubblewrap's still (Docker's have tests/deploy).

Both need bubblewrap: missing, the suite is skipped, or fails where AGON_TEST_REQUIRE
names bwrap (tests.required), as under `make test`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from django.conf import settings
from psycopg import sql

from tests.acceptance.support import AgonUp
from tests.platform.pipeline.support import REPO_DIR
from tests.sandbox.support import require_backend

STACKS = [
    pytest.param("embedded", marks=pytest.mark.xdist_group("acceptance-embedded")),
    pytest.param("production-parts", marks=pytest.mark.xdist_group("acceptance-production-parts")),
]
READY_SECONDS = 180.0

FAST_BEATS = {
    # Beat's steps: entries closed and rounds paired, ranked matches made, each second.
    "AGON_TOURNAMENT_SECONDS": "1",
    "AGON_MATCHMAKING_SECONDS": "1",
    "AGON_BROKER_POLLING_SECONDS": "0.2",
    # Few ranked matches queued ahead of the rest; a version test's games wait little.
    "AGON_QUEUE_TARGET": "2",
    "AGON_BACKGROUND_MAX_WAIT_SECONDS": "5",
}


def _xdist_worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _base_env(var_dir: Path) -> dict[str, str]:
    """This process's environment without its Agon and Django settings (the test ones),
    as a user's shell has it."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("AGON_", "PROMETHEUS_")) and key != "DJANGO_SETTINGS_MODULE"
    }
    env.update(
        AGON_VAR_DIR=str(var_dir),
        PYTHONPATH=os.pathsep.join([str(REPO_DIR), str(REPO_DIR / "platform")]),
        NO_COLOR="1",
        **FAST_BEATS,
    )
    return env


class ProductionParts:
    """A fresh PostgreSQL database and a Redis key prefix for one `agon up`."""

    def __init__(self) -> None:
        tests_database = urlsplit(settings.AGON_TEST_DATABASE_URL)
        assert tests_database.scheme.startswith("postgres"), "the test settings use PostgreSQL"
        self.name = f"{tests_database.path.strip('/')}_accept_{_xdist_worker()}"[:63]
        self.database_url = urlunsplit(tests_database._replace(path=f"/{self.name}"))
        self.admin_url = urlunsplit(tests_database._replace(path="/postgres"))
        broker = settings.CELERY_BROKER_URL
        self.redis_url = broker if broker.startswith("redis") else "redis://127.0.0.1:6379/15"
        prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "agon-test:")
        self.prefix = f"{str(prefix).rstrip(':')}-accept"

    def _drop(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(self.name)
                )
            )

    def _clear_redis(self) -> None:
        client = redis.Redis.from_url(self.redis_url)
        try:
            keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()

    def __enter__(self) -> dict[str, str]:
        self._drop()  # left by a run that was killed
        self._clear_redis()
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))
        return {
            "AGON_DATABASE_URL": self.database_url,
            "AGON_BROKER_URL": self.redis_url,
            "AGON_BROKER_KEY_PREFIX": f"{self.prefix}:",
            "AGON_CACHE_URL": self.redis_url,
            "AGON_CACHE_KEY_PREFIX": f"{self.prefix}-cache",
        }

    def __exit__(self, *exc: object) -> None:
        self._drop()
        self._clear_redis()


@pytest.fixture(scope="session", params=STACKS)
def agon(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AgonUp]:
    """`agon up` on one stack, serving, until the last scenario of that stack is done."""
    require_backend("bwrap")
    stack: str = request.param
    var_dir = tmp_path_factory.mktemp(f"acceptance-{stack}") / "var"
    env = _base_env(var_dir)
    parts = ProductionParts() if stack == "production-parts" else None
    with parts if parts is not None else contextlib.nullcontext({}) as extra:
        env.update(extra)
        up = AgonUp(stack, var_dir, env)
        try:
            up.wait_ready(READY_SECONDS)
            yield up
        finally:
            up.stop()
