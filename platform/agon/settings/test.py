"""The test suite: PostgreSQL and Redis on this machine (real services, not stand-ins)."""

from __future__ import annotations

from pathlib import Path

from agon.env import env_float, env_str
from agon.settings.base import *  # noqa: F403
from agon.settings.base import (
    QUEUES_IN_ORDER,
    VAR_DIR,
    broker_transport,
    database,
    filesystem_broker_options,
    sandbox_setting,
    shared_sqlite_options,
)

AGON_TEST_DATABASE_URL = env_str(
    "AGON_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/agon"
)
"""The database the tests' own are named after (pytest-django makes `test_<name>`; the
acceptance suite a database of its own beside them)."""
DATABASES = {"default": database(AGON_TEST_DATABASE_URL)}
AGON_TEST_SQLITE_FILE = env_str("AGON_TEST_SQLITE_FILE", "")
"""On SQLite: the file pytest-django makes the test database in, which the workers a
pipeline test starts share, with `agon up`'s options (empty: in memory, this process's
alone)."""
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and AGON_TEST_SQLITE_FILE:
    DATABASES["default"]["TEST"] = {"NAME": AGON_TEST_SQLITE_FILE}
    DATABASES["default"].setdefault("OPTIONS", {}).update(shared_sqlite_options())
CELERY_BROKER_URL = env_str("AGON_TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
CELERY_BROKER_TRANSPORT = broker_transport(CELERY_BROKER_URL)
# Broker keys of their own for each pytest-xdist process: a worker the tests start
# (tests/platform/pipeline/) inherits the variable and takes only that process's tasks.
_BROKER_PREFIX = env_str("AGON_TEST_BROKER_PREFIX", "agon-test")
_XDIST_WORKER = env_str("PYTEST_XDIST_WORKER", "main")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **QUEUES_IN_ORDER,
    "global_keyprefix": f"{_BROKER_PREFIX}-{_XDIST_WORKER}:",
}
if CELERY_BROKER_URL.startswith("filesystem"):
    # The embedded broker of `agon up`, for the pipeline tests that run on it: a folder
    # of the test's own.
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(
        Path(env_str("AGON_TEST_BROKER_DIR", str(VAR_DIR / "test-broker")))
    )
CELERY_WORKER_LOST_WAIT = env_float("AGON_TEST_WORKER_LOST_WAIT_SECONDS", 10.0)
"""How long a worker waits for the result of a pool process that died before it gives
the task back (Celery's default, 10 s). The pipeline tests that kill pool processes
shorten it: a process killed by SIGKILL sends nothing after."""
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, tests only
AGON_SANDBOX = sandbox_setting("bwrap")
AGON_MATCH_SLOTS = 64
"""Room for every game of a test's tournament or version test at once; the tests of the
background share (tests/platform/matches/test_background_share.py) set their own."""
AGON_LIST_CACHE_SECONDS = 0  # a test reads its own writes; tests/platform/api turn it on

# Static files are served from the apps' own folders (no collectstatic before the tests),
# so the API docs' assets load as they do in development.
STATIC_ROOT = None  # type: ignore[assignment]  # no collected files to serve
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
