"""The running platforms of the acceptance suite: one `agon up` per stack for the whole
test run, shared by every pytest-xdist worker.

The first worker that needs a stack starts it (under a lock, in a folder all workers of
the run share) and writes down where it is; the others attach to it. The run's end
stops every one of them, whichever worker started it (`stop_shared_platforms`, called
from tests/conftest.py in the process that ran the session: the controller under xdist).

- `embedded`: exactly what `make run` gives: SQLite, kombu's file-system broker and
  bubblewrap boxes under a fresh data folder;
- `production-parts`: the same command on a fresh PostgreSQL database (made here, dropped
  at the end, named after the test database and the xdist worker that made it) and a
  Redis broker and cache (the test settings' Redis, under a key prefix of its own), as
  production runs them; boxes are bubblewrap's still (Docker's have tests/deploy).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from psycopg import sql

from tests.acceptance.support import AgonUp
from tests.platform.pipeline.support import REPO_DIR

EMBEDDED, PRODUCTION_PARTS = "embedded", "production-parts"
READY_SECONDS = 180.0
SHARED_FOLDER = "acceptance-platforms"
FAST_BEATS = {
    # Beat's steps: entries closed and rounds paired, ranked matches made, each second.
    "AGON_TOURNAMENT_SECONDS": "1",
    "AGON_MATCHMAKING_SECONDS": "1",
    "AGON_BROKER_POLLING_SECONDS": "0.2",
    # Few ranked matches queued ahead of the rest; a version test's games wait little.
    "AGON_QUEUE_TARGET": "2",
    "AGON_BACKGROUND_MAX_WAIT_SECONDS": "5",
    # Finished ranked matches sent to be analysed every two seconds.
    "AGON_ANALYSIS_SECONDS": "2",
    # A competition's phases moved on each second; its notices to the suite's local
    # webhook receiver, tried again after a second (tests/acceptance/test_competition.py).
    "AGON_COMPETITION_SECONDS": "1",
    "AGON_WEBHOOKS_ALLOW_PRIVATE": "true",
    "AGON_NOTIFICATION_BACKOFF_SECONDS": "1",
    # Every acceptance test signs its authors up on the one shared platform, from one
    # address: the default 10 an hour refused the season's three past the tenth.
    "AGON_SIGNUP_RATE": "1000/hour",
}


def _xdist_worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def shared_folder(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this test run that every xdist worker sees (the controller's temporary
    folder holds the workers' own)."""
    base = tmp_path_factory.getbasetemp()
    if hasattr(config, "workerinput"):
        base = base.parent
    folder = base / SHARED_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _base_env(var_dir: Path) -> dict[str, str]:
    """This process's environment without its Agon and Django settings (the test ones),
    as a user's shell has it, and beat's short intervals."""
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

    def __init__(self, record: dict[str, Any]) -> None:
        self.database: str = record["database"]
        self.admin_url: str = record["admin_url"]
        self.redis_url: str = record["redis_url"]
        self.prefix: str = record["prefix"]

    @classmethod
    def named(cls) -> ProductionParts:
        """Named after this process's test database and xdist worker, on its Redis."""
        from django.conf import settings

        from agon.settings.test import AGON_TEST_DATABASE_URL

        tests_database = urlsplit(AGON_TEST_DATABASE_URL)
        assert tests_database.scheme.startswith("postgres"), "the test settings use PostgreSQL"
        broker = settings.CELERY_BROKER_URL
        prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "agon-test:")
        return cls(
            {
                "database": f"{tests_database.path.strip('/')}_accept_{_xdist_worker()}"[:63],
                "admin_url": urlunsplit(tests_database._replace(path="/postgres")),
                "redis_url": broker if broker.startswith("redis") else "redis://127.0.0.1:6379/15",
                "prefix": f"{str(prefix).rstrip(':')}-accept",
            }
        )

    def record(self) -> dict[str, str]:
        return {
            "database": self.database,
            "admin_url": self.admin_url,
            "redis_url": self.redis_url,
            "prefix": self.prefix,
        }

    def _execute(self, statement: sql.Composed) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(statement)

    def _clear_redis(self) -> None:
        client = redis.Redis.from_url(self.redis_url)
        try:
            keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()

    def create(self) -> dict[str, str]:
        """Made afresh (a database left by a killed run is dropped first): the
        environment that gives `agon up` these parts."""
        self.remove()
        self._execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.database)))
        return self.environment()

    def environment(self) -> dict[str, str]:
        """The environment that gives `agon up` (or a command beside it) these parts."""
        database_url = urlunsplit(urlsplit(self.admin_url)._replace(path=f"/{self.database}"))
        return {
            "AGON_DATABASE_URL": database_url,
            "AGON_BROKER_URL": self.redis_url,
            "AGON_BROKER_KEY_PREFIX": f"{self.prefix}:",
            "AGON_CACHE_URL": self.redis_url,
            "AGON_CACHE_KEY_PREFIX": f"{self.prefix}-cache",
        }

    def remove(self) -> None:
        self._execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.database))
        )
        self._clear_redis()


def shared(folder: Path, name: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """What `make` gave the first worker of the run to ask for `name` (made under a lock
    the others wait on), as JSON."""
    record_path = folder / f"{name}.data"
    with _locked(folder / f"{name}.lock"):
        if not record_path.exists():
            record_path.write_text(json.dumps(make()))
        data: dict[str, Any] = json.loads(record_path.read_text())
        return data


def platform_for(stack: str, folder: Path) -> AgonUp:
    """The run's `agon up` on `stack`: started by the first worker to ask, under a lock
    the others wait on; attached to by the others."""
    record_path = folder / f"{stack}.json"
    with _locked(folder / f"{stack}.lock"):
        if record_path.exists():
            up = AgonUp(json.loads(record_path.read_text()))
            up.alive()
            return up
        var_dir = folder / stack / "var"
        env = _base_env(var_dir)
        parts = ProductionParts.named() if stack == PRODUCTION_PARTS else None
        if parts is not None:
            env.update(parts.create())
        up = AgonUp.start(stack, var_dir, env, **(parts.record() if parts else {}))
        try:
            up.wait_ready(READY_SECONDS)
        except BaseException:
            stop_platform(up.record)
            raise
        record_path.write_text(json.dumps(up.record))
        return up


def platform_env(up: AgonUp) -> dict[str, str]:
    """The environment `agon up` runs with on its stack: a `manage.py` command given it
    works on that platform's database, as its staff would."""
    env = _base_env(up.var_dir)
    if "database" in up.record:
        env.update(ProductionParts(up.record).environment())
    return env


def stop_platform(record: dict[str, Any]) -> None:
    AgonUp(record).stop()
    if "database" in record:
        ProductionParts(record).remove()


def stop_shared_platforms(config: pytest.Config) -> None:
    """At the run's end: stop every platform a worker started, drop its database. Only
    where this run has a temporary folder already (xdist's controller makes one for its
    workers; a run without xdist, for its first test that asked): none, nothing started."""
    basetemp = getattr(getattr(config, "_tmp_path_factory", None), "_basetemp", None)
    folder = Path(basetemp) / SHARED_FOLDER if basetemp is not None else None
    if folder is None or not folder.is_dir():
        return
    for record_path in sorted(folder.glob("*.json")):
        stop_platform(json.loads(record_path.read_text()))
        record_path.unlink()
