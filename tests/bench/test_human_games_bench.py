"""bench/human_games.py runs, tiny: a turn of each way of polling on PostgreSQL and on
SQLite, each figure there, and no database left behind."""

from __future__ import annotations

from pathlib import Path

from tests.bench.support import bench_database, run_bench

WAYS = ["backoff 50-500 ms", "fixed 50 ms", "fixed 1 s"]


def rows(output: str) -> dict[str, list[str]]:
    found = {}
    for line in output.splitlines():
        for way in WAYS:
            if line.startswith(way):
                found[way] = line.removeprefix(way).split()
    return found


def test_the_bench_polls_each_way_on_postgresql() -> None:
    database = bench_database("human_games")
    output = run_bench(
        "human_games.py", "--think", "0.3", "--rounds", "1", "--database", database.url
    )
    found = rows(output)
    assert list(found) == WAYS, output
    pickup, _, cpu, db_cpu, looks, held = (float(value) for value in found[WAYS[0]])
    assert 0 <= pickup <= 2000 and cpu >= 0 and db_cpu >= 0 and looks > 0 and held >= 0.3
    # A look a second takes fewer looks than one every 50 ms, whatever the load.
    assert float(found["fixed 1 s"][4]) < float(found["fixed 50 ms"][4])
    assert "load: " in output
    assert not database.exists(), "the bench left its database"


def test_the_bench_runs_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "bench.sqlite3"
    output = run_bench(
        "human_games.py", "--think", "0.2", "--rounds", "1", "--database", f"sqlite:///{path}"
    )
    found = rows(output)
    assert list(found) == WAYS, output
    assert found[WAYS[0]][3] == "-"  # no server process to read
    assert not path.exists()
