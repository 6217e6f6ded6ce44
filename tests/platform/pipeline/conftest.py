"""Fixtures of the pipeline tests: real workers against this process's test database and
broker keys, started on demand and always killed (with everything under them) at the end."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pytest_django import Settings

from sandbox.cgroups import reap_orphans
from tests.platform.pipeline.support import (
    CeleryWorker,
    embedded_broker,
    purge_broker,
    start_worker,
)


@dataclass
class Pipeline:
    folder: Path
    workers: list[CeleryWorker] = field(default_factory=list)

    def start_worker(
        self, *, concurrency: int = 1, env: Mapping[str, str] | None = None, beat: bool = False
    ) -> CeleryWorker:
        worker = start_worker(self.folder / "workers", concurrency=concurrency, env=env, beat=beat)
        self.workers.append(worker)
        return worker

    def explain(self) -> Callable[[], str]:
        """For failure messages: the end of each worker's log."""
        return lambda: "".join(worker.log_tail() for worker in self.workers)


@pytest.fixture
def pipeline(transactional_db: None, settings: Settings, tmp_path: Path) -> Iterator[Pipeline]:
    """Replays and bot archives in this test's folder, shared with its workers; an empty
    queue at the start; no process of any worker left at the end (bot boxes included),
    whatever happened."""
    settings.MEDIA_ROOT = tmp_path / "var" / "media"
    settings.AGON_WORK_DIR = tmp_path / "var" / "work"
    purge_broker()
    pipeline = Pipeline(tmp_path)
    try:
        yield pipeline
    finally:
        for worker in pipeline.workers:
            worker.kill()
        reap_orphans()  # boxes that were frozen when their worker died
        for worker in pipeline.workers:
            worker.assert_gone()
        purge_broker()


@pytest.fixture(params=["redis", "filesystem"])
def broker(request: pytest.FixtureRequest, pipeline: Pipeline, settings: Settings) -> Iterator[str]:
    """Redis (production), or the file-system broker of `agon up`: the test runs on each."""
    name: str = request.param
    if name == "redis":
        yield name
        return
    with embedded_broker(settings, pipeline.folder / "broker"):
        yield name
