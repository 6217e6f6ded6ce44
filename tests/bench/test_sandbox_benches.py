"""bench/seccomp_cost.py and bench/reply_padding.py at a tiny size, in each backend that
isolates: they must keep running, and print their rows, as the code under them changes."""

from __future__ import annotations

import pytest

from tests.bench.support import run_bench
from tests.sandbox.support import BOXED_BACKENDS, require_backend


@pytest.mark.parametrize("backend", BOXED_BACKENDS)
def test_the_seccomp_bench_times_boxes_under_both_filters(backend: str) -> None:
    require_backend(backend)
    output = run_bench("seccomp_cost.py", "--boxes", "1", "--turns", "2", "--backends", backend)
    rows = [line.split() for line in output.splitlines() if line.startswith(backend)]
    assert [" ".join(row[1:-6]) for row in rows] == ["sysinfo only (before)", "whole list (after)"]
    assert all(float(figure) > 0 for row in rows for figure in row[-6:])


def test_the_padding_bench_sees_a_megabyte_reply_refused() -> None:
    require_backend("bwrap")
    output = run_bench("reply_padding.py", "--samples", "1", "--padding", str(1024 * 1024))
    rows = [line for line in output.splitlines() if line.startswith(("plain", "padded"))]
    assert len(rows) == 2
    assert rows[0].endswith("taken")
    assert rows[1].endswith("output_limit")
