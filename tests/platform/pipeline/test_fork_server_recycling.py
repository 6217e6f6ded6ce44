"""A real worker whose pool processes are recycled after each task (Celery's
max-tasks-per-child) with bwrap's fork server on (the default): each pool process's
server ends with it, none is left behind."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    json_of,
    py_upload,
    signed_in_client,
    wait_for,
    wait_validated,
)
from tests.sandbox.support import require_backend

pytestmark = pytest.mark.django_db(transaction=True)

SERVER_PROGRAM = b"The fork server's own program"


def fork_servers(pids: list[int]) -> set[int]:
    """Which of these processes are a fork server's interpreter."""
    found = set()
    for pid in pids:
        try:
            if SERVER_PROGRAM in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
        except OSError:
            continue
    return found


def test_recycled_pool_processes_leave_no_fork_server(pipeline: Pipeline) -> None:
    require_backend("bwrap")
    client = signed_in_client("recycler")
    source = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
    bot_ids = [
        json_of(
            client.post(
                "/api/bots/",
                {"name": name, "game": "akropolis", "file": py_upload("bot.py", source)},
                format="multipart",
            ),
            201,
        )["id"]
        for name in ("first", "second", "third")
    ]
    worker = pipeline.start_worker(env={"CELERY_WORKER_MAX_TASKS_PER_CHILD": "1"})
    seen: set[int] = set()
    pools: set[int] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            tree = list(worker.tree())
            seen.update(fork_servers(tree))
            pools.update(worker.pool_processes())
            done.wait(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        wait_validated(client, bot_ids, pipeline.explain())
    finally:
        done.set()
        watcher.join()
    assert len(seen) >= 2, f"a server per pool process: {seen}{pipeline.explain()()}"
    assert len(pools) >= 3, pools  # recycled: a new pool process for each validation
    wait_for(
        lambda: not fork_servers(list(worker.tree())) or None,
        timeout=30,
        what="the recycled pool processes' fork servers to end",
    )
