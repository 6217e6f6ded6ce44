"""bench/datasets.py runs, tiny: two builds of one game, with figures that make sense."""

from __future__ import annotations

import subprocess
import sys

from tests.platform.pipeline.support import REPO_DIR


def test_the_bench_prints_a_build_s_cost_and_memory() -> None:
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [
            sys.executable,
            str(REPO_DIR / "bench" / "datasets.py"),
            "--matches",
            "2",
            "--games",
            "architekton",
            "--part-matches",
            "1",
            "--scales",
            "1,2",
            "--row-group-mib",
            "0.01",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [(row[0], row[1]) for row in rows] == [("architekton", "2"), ("architekton", "4")]
    assert all(float(figure) > 0 for row in rows for figure in row[2:8])
