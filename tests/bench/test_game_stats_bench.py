"""bench/game_stats.py runs, tiny: two table sizes, each contender timed, and a digest's
cost for every game; the bench leaves no database behind."""

from __future__ import annotations

from tests.bench.support import bench_database, run_bench


def test_the_bench_times_the_counting_the_cache_and_the_digests() -> None:
    database = bench_database("game_stats")
    output = run_bench(
        "game_stats.py",
        *("--matches", "30", "60", "--windows", "40", "10", "--rounds", "2"),
        *("--digest-replays", "1", "--database", database.url),
    )
    lines = output.splitlines()
    timed = [line.split() for line in lines if line.lstrip().startswith(("30 ", "60 "))]
    assert [(row[0], " ".join(row[1:-3])) for row in timed] == [
        (size, name)
        for size in ("30", "60")
        for name in ("count, window 40", "count, window 10", "kept")
    ]
    assert all(float(row[-3]) > 0 and float(row[-2]) > 0 for row in timed)
    assert [int(row[-1]) for row in timed] == [6, 6, 0] * 2
    digests = [line.split() for line in lines if line.startswith(("akropolis ", "attika "))]
    assert [(row[0], row[1]) for row in digests] == [
        ("akropolis", "2"),
        ("akropolis", "4"),
        ("attika", "2"),
        ("attika", "4"),
    ]
    assert all(float(row[2]) > 0 and int(row[4]) > 0 for row in digests)
    assert "load: " in output
    assert not database.exists(), "the bench left its database"
