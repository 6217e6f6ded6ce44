"""bench/core_in_box.py runs, tiny: a box of the bot image plays Akropolis with the
compiled core and without, and the table has a row per player count."""

from __future__ import annotations

from tests.bench.support import run_bench
from tests.sandbox.support import require_backend


def test_the_bench_times_the_core_in_a_docker_box() -> None:
    require_backend("docker")
    output = run_bench("core_in_box.py", "--seconds", "0.2")
    rows = {
        int(line.split()[0]): [float(value.rstrip("x")) for value in line.split()[1:]]
        for line in output.splitlines()
        if line.strip()[:1].isdigit()
    }
    assert sorted(rows) == [2, 4], output
    for core, pure, ratio in rows.values():
        assert core > 0 and pure > 0 and ratio > 0, output
