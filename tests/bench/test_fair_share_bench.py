"""bench/fair_share.py at a tiny size: `agon up` on the embedded defaults, a small
private Swiss and a short version test, each window a few seconds, beat every second and
the Swiss's entry open for 3 s. It must keep running as the platform changes; its figures
at this size mean nothing."""

from __future__ import annotations

import subprocess
import sys

from tests.platform.pipeline.support import REPO_DIR


def test_the_fair_share_bench_measures_each_window_on_agon_up() -> None:
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [
            sys.executable,
            str(REPO_DIR / "bench" / "fair_share.py"),
            *("--minutes", "0.05", "--entrants", "4", "--rounds", "1", "--max-games", "2"),
            *("--entry-seconds", "3", "--beat-seconds", "1"),
            *("--games", "architekton", "--game", "architekton", "--test-minutes", "3"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "with the private Swiss: ranked" in done.stdout
    assert "the version test ended (finished" in done.stdout, done.stdout
