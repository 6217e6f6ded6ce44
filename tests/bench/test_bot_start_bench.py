"""bench/bot_start.py at a tiny size, in each backend that isolates, this checkout beside
itself as the "old" code (and, on bwrap, with its fork server): it must keep running,
and print every stage's row, as the sandbox under it changes."""

from __future__ import annotations

import re

import pytest

from sandbox.backends import ISOLATING_BACKENDS
from tests.bench.support import run_bench
from tests.platform.pipeline.support import REPO_DIR
from tests.sandbox.support import require_backend

FIGURE = r" +([\d.]+)ms +[\d.]+x"
ROW = re.compile(rf"^  (bwrap|raw|import|random){FIGURE}{FIGURE}(?:{FIGURE}| +- +-)?$")


@pytest.mark.parametrize("backend", ISOLATING_BACKENDS)
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
    if backend == "bwrap":  # the fork server's column, but for bubblewrap alone
        assert all(float(rows[stage][4]) > 0 for stage in stages if stage != "bwrap")
        assert rows["bwrap"][4] is None
    assert "time to first answer" in output
