"""bench/timelines.py runs, tiny: a row per game with both ways' figures."""

from __future__ import annotations

import subprocess
import sys

from tests.platform.pipeline.support import REPO_DIR


def test_the_bench_prints_each_game_made_and_stored() -> None:
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [
            sys.executable,
            str(REPO_DIR / "bench" / "timelines.py"),
            "--matches",
            "1",
            "--repeats",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [row[0] for row in rows] == ["akropolis", "architekton", "attika", "megalopolis"]
    assert all(float(figure) > 0 for row in rows for figure in row[3:])
