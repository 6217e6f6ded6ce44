"""bench/bot_start.py at a tiny size, in each backend that isolates (on bwrap this
checkout beside itself as the "old" code, and with its fork server): it must keep
running, and print every stage's row, as the sandbox under it changes."""

from __future__ import annotations

import os
import re

import pytest

from sandbox.backends import ISOLATING_BACKENDS
from sandbox.backends.docker import IMAGE_ENV
from tests.bench.support import run_bench
from tests.platform.pipeline.support import REPO_DIR
from tests.sandbox.support import require_backend

FIGURE = r" +([\d.]+)ms +[\d.]+x"
ROW = re.compile(rf"^  (bwrap|launch|raw|import|random){FIGURE}(?:{FIGURE})?(?:{FIGURE}| +- +-)?$")
OWN = re.compile(r"^  (raw|import|random) own +(-?[\d.]+)ms +-?[\d.]+x$")


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
        # Docker's boxes cost seconds each: its table is run for one column (the code
        # that reads --old is the same for every backend).
        *(["--old", str(REPO_DIR)] if backend == "bwrap" else []),
        # The bot image the sandbox tests use (run_bench leaves out AGON_ variables).
        *(["--new-image", os.environ[IMAGE_ENV]] if os.environ.get(IMAGE_ENV) else []),
    )
    rows = {match[1]: match for line in output.splitlines() if (match := ROW.match(line))}
    extra = {"bwrap": ["bwrap"], "docker": ["launch"]}[backend]
    stages = ["raw", "import", "random", *extra]
    assert sorted(rows) == sorted(stages), output
    assert all(float(rows[stage][2]) > 0 for stage in stages)
    assert all(float(rows[stage][3]) > 0 for stage in stages if backend == "bwrap")
    if backend == "bwrap":  # the fork server's column, but for bubblewrap alone
        assert all(float(rows[stage][4]) > 0 for stage in stages if stage != "bwrap")
        assert rows["bwrap"][4] is None
    assert "time to first answer" in output
    if backend == "docker":  # the bot's own share, and what Docker's daemons spent
        own = [match[1] for line in output.splitlines() if (match := OWN.match(line))]
        assert own == ["raw", "import", "random"], output
        assert "python3 -c pass in its image (new " in output
        assert "Docker's daemons a random bot's box" in output
