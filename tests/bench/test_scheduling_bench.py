"""bench/scheduling.py at a tiny size, on both databases the platform runs on: it must
keep running (and its tournament must finish) as the code under it changes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.platform.pipeline.support import REPO_DIR


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_scheduling_bench_plays_a_small_swiss_to_its_end(database: str) -> None:
    if database == "postgres":
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        database = f"postgres://postgres@127.0.0.1:5432/agon_bench_scheduling_{worker}"
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [
            sys.executable,
            str(REPO_DIR / "bench" / "scheduling.py"),
            "--entrants",
            "8",
            "--rounds",
            "3",
            "--database",
            database,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("       8")]
    assert [int(row[1]) for row in rows] == [1, 2, 3]
    assert "(finished)" in done.stdout, done.stdout
