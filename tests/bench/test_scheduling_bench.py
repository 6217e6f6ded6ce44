"""bench/scheduling.py at a tiny size, on both databases the platform runs on: it must
keep running (and its tournament must finish) as the code under it changes."""

from __future__ import annotations

import pytest

from tests.bench.support import bench_database, run_bench


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_scheduling_bench_plays_a_small_swiss_to_its_end(database: str) -> None:
    postgres = bench_database("scheduling") if database == "postgres" else None
    output = run_bench(
        "scheduling.py",
        *("--entrants", "8", "--rounds", "3"),
        *("--database", postgres.url if postgres else database),
    )
    rows = [line.split() for line in output.splitlines() if line.startswith("       8")]
    assert [int(row[1]) for row in rows] == [1, 2, 3]
    assert "(finished)" in output, output
    assert postgres is None or not postgres.exists(), "the bench left its database"
