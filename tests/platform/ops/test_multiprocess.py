"""Multiprocess mode: gunicorn's workers each count their own requests, and `/metrics`
from any one of them gives the sum of all, the counts of a worker that died included."""

from __future__ import annotations

import os
import signal
import subprocess
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from tests.platform.ops.support import gunicorn as serve
from tests.platform.ops.support import metric
from tests.platform.pipeline import support as pipeline

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 2


def get(url: str) -> tuple[int, str]:
    # A worker's first request loads the app: seconds on a loaded machine, with eight
    # waiting on two workers. These tests count requests; they do not time them.
    with urllib.request.urlopen(url, timeout=90) as response:  # noqa: S310 - a local http URL
        return response.status, response.read().decode()


class Gunicorn:
    def __init__(self, process: subprocess.Popen[bytes], url: str, log: Path) -> None:
        self.process, self.url, self.log = process, url, log

    def workers(self) -> list[int]:
        return sorted(set(pipeline.process_tree(self.process.pid)) - {self.process.pid})

    def explain(self) -> str:
        return "\n--- gunicorn's log ---\n" + self.log.read_text(errors="replace")[-4000:]


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[Gunicorn]:
    """The web app as `agon up` serves it (gunicorn, two workers), counting in a
    multiprocess folder of its own, against this test's database."""
    folder = tmp_path / "prometheus"
    folder.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "agon.settings.test",
        "PYTHONPATH": os.pathsep.join(
            [str(pipeline.REPO_DIR), str(pipeline.REPO_DIR / "platform")]
        ),
        "AGON_TEST_DATABASE_URL": pipeline.test_database_url(),
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
    }
    log = tmp_path / "gunicorn.log"
    with serve(env, log, workers=WORKERS) as (process, url):
        server = Gunicorn(process, url, log)
        pipeline.wait_for(lambda: len(server.workers()) == WORKERS, timeout=30, what="both workers")
        yield server
    sessions_ended()


def sessions_ended() -> None:
    """Wait for the database sessions of gunicorn's workers to end, so that the test
    database can be emptied after the test."""

    def other_sessions() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            (count,) = cursor.fetchone()
        return int(count)

    pipeline.wait_for(
        lambda: other_sessions() == 0, timeout=30, what="gunicorn's database sessions to end"
    )


def requests_counted(server: Gunicorn) -> float:
    status, text = get(f"{server.url}/metrics")
    assert status == 200
    return metric(text, "agon_http_request_duration_seconds_count", route="games", method="GET")


def test_every_worker_reports_the_requests_of_all(gunicorn: Gunicorn, tmp_path: Path) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda _: get(f"{gunicorn.url}/api/games/")[0], range(40)))
    assert statuses == [200] * 40
    writers = {path.stem.rsplit("_", 1)[-1] for path in (tmp_path / "prometheus").glob("*.db")}
    assert len(writers) == WORKERS, f"both workers served requests: {writers}"
    # Each scrape is answered by one worker or the other: all give the whole count.
    assert [requests_counted(gunicorn) for _ in range(6)] == [40] * 6


def test_the_counts_of_a_worker_that_died_are_kept(gunicorn: Gunicorn) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda _: get(f"{gunicorn.url}/api/games/"), range(20)))
    victim = gunicorn.workers()[0]
    os.kill(victim, signal.SIGKILL)
    pipeline.wait_for(
        lambda: victim not in gunicorn.workers() and len(gunicorn.workers()) == WORKERS,
        timeout=30,
        what="gunicorn to replace the killed worker",
        explain=gunicorn.explain,
    )
    assert [requests_counted(gunicorn) for _ in range(4)] == [20] * 4
