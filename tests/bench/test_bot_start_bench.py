"""bench/bot_start.py at a tiny size, in each backend that isolates, this checkout beside
itself as the "old" code: it must keep running, and print every stage's row, as the
sandbox under it changes."""

from __future__ import annotations

import re

import pytest

from tests.bench.support import run_bench
from tests.platform.pipeline.support import REPO_DIR
from tests.sandbox.support import BOXED_BACKENDS, require_backend

ROW = re.compile(r"^  (bwrap|raw|import|random) +([\d.]+)ms +[\d.]+x +([\d.]+)ms +[\d.]+x$")


@pytest.mark.parametrize("backend", BOXED_BACKENDS)
def test_the_bot_start_bench_splits_a_box_s_cpu_for_old_and_new(backend: str) -> None:
    require_backend(backend)
    output = run_bench(
        "bot_start.py",
        "--boxes",
        "1",
        "--rounds",
        "1",
        "--backends",
        backend,
        "--old",
        str(REPO_DIR),
    )
    rows = {match[1]: match for line in output.splitlines() if (match := ROW.match(line))}
    stages = ["raw", "import", "random"] + (["bwrap"] if backend == "bwrap" else [])
    assert sorted(rows) == sorted(stages), output
    assert all(float(rows[stage][2]) > 0 and float(rows[stage][3]) > 0 for stage in stages)
    assert "time to first answer" in output
