"""Every bench script runs, at a tiny size, as its user runs it (`python bench/X.py ...`),
and prints its rows with sane figures: a change of the code under a bench (a new column,
a renamed setting, a moved function) fails here, not in the next person's measurement.
The figures at these sizes mean nothing; that they are there and positive does. The
benches on PostgreSQL and Redis get databases and key prefixes of this test process
(tests/bench/support.py); those on boxes skip where the backend is missing, as the
sandbox's tests do. tests/bench/test_bench_coverage.py checks no script is left out."""

from __future__ import annotations

import json
import re

import pytest

from bench import cpu_table
from sandbox.backends import ISOLATING_BACKENDS
from tests.bench.support import (
    BenchDatabase,
    BenchRedis,
    bench_database,
    bench_redis,
    figures,
    run_bench,
)
from tests.platform.s3 import free_port
from tests.sandbox.support import require_backend


def rows_after(output: str, header: str, count: int) -> list[str]:
    """The `count` lines after the line starting with `header`."""
    lines = output.splitlines()
    (start,) = [n for n, line in enumerate(lines) if line.startswith(header)]
    return lines[start + 1 : start + 1 + count]


def assert_cleaned_up(database: BenchDatabase | None, keys: BenchRedis | None) -> None:
    if database is not None:
        assert not database.exists(), f"the bench left its database {database.name}"
    if keys is not None:
        assert keys.keys() == [], f"the bench left keys under {keys.prefix}"


# --- The engine, the rating systems and the formats: no database ---------------------------


def test_the_engine_bench_prints_its_table_and_every_figure() -> None:
    output = run_bench(
        "engine.py", "--seconds", "0.02", "--positions", "3", "--replays", "1", "--cold-runs", "1"
    )
    table = {
        (row.split()[0], int(row.split()[1])): figures(row.split("|", 1)[1])
        for row in output.splitlines()
        if row.split()[:1] and row.split()[0] in cpu_table.PLAYER_COUNTS
    }
    assert set(table) == {
        (game, players) for game, counts in cpu_table.PLAYER_COUNTS.items() for players in counts
    }
    assert all(len(row) >= 7 and min(row) > 0 for row in table.values()), table
    sections = {
        "Random playouts": 3,
        "Full games with the greedy bot": 4,
        "legal_actions on 3 mid-game": 4,
        "Architekton, games/s": 1,
        "Megalopolis, games/s": 5,
        "Attika, games/s": 3,
        "Cold start (new interpreter": 9,
    }
    for header, count in sections.items():
        for row in rows_after(output, header, count):
            measured = figures(row.split(":", 1)[1])
            assert measured and min(measured) > 0, row
    assert "on 1 recorded matches: median" in output


def test_the_ratings_bench_compares_every_method_at_each_checkpoint() -> None:
    output = run_bench(
        "ratings.py", *("--runs", "2", "--bots", "8", "--games", "2,3", "--players", "2,4")
    )
    for role in ("1 (tuning seed)", "2 (held-out seed)"):
        for players in (2, 4):
            assert f"seed {role}, {players}-player tables: Kendall tau" in output, output
    rows = [line for line in output.splitlines() if line[:9].strip() in ("2", "3")]
    assert len(rows) == 8, output
    for row in rows:
        taus = figures(row)[1::2]  # each cell: mean +- sd
        assert len(taus) == 6 and all(-1 <= tau <= 1 for tau in taus), row


def test_the_tournaments_bench_plays_every_format_to_its_end() -> None:
    output = run_bench("tournaments.py", "--part", "formats", "--runs", "2", "--bots", "8")
    names = ["round robin", "Swiss, 3 rounds", "Swiss, 6 rounds", "knockout"]
    names += ["double elimination", "knockout, 2 pairs a tie", "heats", "heats, 2 meetings"]
    rows = {
        name: figures(line[len(name) :])
        for line in output.splitlines()
        for name in names
        if line.startswith(f"{name} ") and line[len(name) :].lstrip()[:1].isdigit()
    }
    assert set(rows) == set(names), output
    for name, (games, best, tau, _, ladder_best, ladder_tau, _) in rows.items():
        assert games > 0 and 0 <= best <= 1 and 0 <= ladder_best <= 1, name
        assert -1 <= tau <= 1 and -1 <= ladder_tau <= 1, name


# --- The sandbox's benches: in each backend that isolates --------------------------------


@pytest.mark.parametrize("backend", ISOLATING_BACKENDS)  # the benches take the real ones
def test_the_sandbox_bench_times_turns_and_starts_against_a_plain_pipe(backend: str) -> None:
    require_backend(backend)
    output = run_bench(
        "sandbox.py", "--turns", "3", "--starts", "1", "--backends", f"none,{backend}"
    )
    rows = {
        line[:12].strip(): figures(line[12:])
        for line in output.splitlines()
        if line.startswith(("plain pipe", "none", backend))
    }
    assert set(rows) == {"plain pipe", "none", backend}, output
    assert all(len(row) == 4 and min(row) > 0 for row in rows.values()), rows
    assert rows["plain pipe"][1] == rows["plain pipe"][3] == 1


@pytest.mark.parametrize("backend", ISOLATING_BACKENDS)  # the benches take the real ones
def test_the_side_channel_bench_measures_each_channel(backend: str) -> None:
    require_backend(backend)
    output = run_bench("side_channels.py", "--turns", "6", "--backends", backend)
    rows = {
        line[9:31].strip(): line[31:]
        for line in output.splitlines()
        if line.startswith(backend) and "unavailable" not in line
    }
    assert set(rows) == {"thinking time", "CPU caches", "sysinfo free memory"}, output
    for channel, row in rows.items():
        if "closed" in row:
            continue
        bits, accuracy = figures(row)[:2]
        assert 0 <= bits <= 3 and 0 <= accuracy <= 1, (channel, row)


def test_the_c_prototype_bench_times_python_against_c() -> None:
    output = run_bench("prototype/step_bench.py")
    if "C prototype skipped" in output:
        pytest.skip(output.strip())
    python, compiled, ratio = figures(output.split("per placement:", 1)[1])
    assert python > 0 and compiled > 0 and ratio > 0, output


# --- The platform's benches: PostgreSQL, Redis, workers, boxes ---------------------------


def test_the_pipeline_bench_times_every_pairing_and_the_throughput() -> None:
    require_backend("bwrap")
    database, keys = bench_database("pipeline"), bench_redis("pipeline")
    output = run_bench(
        "pipeline.py",
        *("--matches", "2", "--sequential", "1"),
        *("--database-url", database.url, "--broker-url", keys.url, "--redis-prefix", keys.prefix),
    )
    pairings = ["random v random (2p)", "random x4 (4p)", "lookahead v random (2p)"]
    for pairing in pairings:
        (row,) = [line for line in output.splitlines() if line.startswith(f"  {pairing} ")]
        match, task, to_start, to_done, *_ = figures(row[len(pairing) + 2 :])
        assert 0 < match <= task and to_start > 0 and match < to_done, row
    rates = re.findall(
        r"2 matches (?:queued as others finish|all queued): (\d+) matches/min", output
    )
    assert len(rates) == 2 and all(int(rate) > 0 for rate in rates), output
    assert len(re.findall(r"\d+\.\d%  \((within|over) the 10% target\)", output)) == 4, output
    assert_cleaned_up(database, keys)


@pytest.fixture(scope="module")
def side_by_side() -> str:
    """One side-by-side run of the pipeline bench for the two tests below (each run
    migrates a database and starts a worker per contender: 35-50 s on a loaded machine):
    bubblewrap, the fork server, and the fork server again at another concurrency with
    matches kept waiting in the queue."""
    require_backend("bwrap")
    database, keys = bench_database("pipeline"), bench_redis("pipeline")
    output = run_bench(
        "pipeline.py",
        *("--fork-server", "--slots", "3", "--waiting", "2", "--matches", "3", "--rounds", "1"),
        *("--database-url", database.url, "--broker-url", keys.url, "--redis-prefix", keys.prefix),
    )
    assert_cleaned_up(database, keys)
    return output


def test_the_pipeline_bench_sets_the_fork_server_beside_bubblewrap(side_by_side: str) -> None:
    output = side_by_side
    for name, on in (("new", 0), ("fork", 1)):
        (row,) = [line for line in output.splitlines() if line.startswith(f"  {name} (")]
        assert f"AGON_SANDBOX_FORK_SERVER={on}): matches/min" in row, output
        boxes = float(row.rsplit("boxes ", 1)[1])
        assert boxes > 0, row  # the forked boxes' CPU is counted too
    assert re.search(r"  fork / new: [\d.]+x", output), output


def test_the_pipeline_bench_sets_a_worker_of_other_concurrency_with_a_queue_kept(
    side_by_side: str,
) -> None:
    output = side_by_side
    assert "3 matches a turn 2 more kept waiting" in output, output
    (row,) = [line for line in output.splitlines() if line.startswith("  fork@3 (")]
    assert "AGON_SANDBOX_FORK_SERVER=1, concurrency 3): matches/min" in row, output
    memory = [line for line in output.splitlines() if line.startswith("    memory (PSS): ")]
    assert len(memory) == 3, output  # new, fork and fork@3
    for line in memory:
        main, slot = figures(line)
        assert main > 10 and slot > 10, line  # a Python process with Django: tens of MB
    assert re.search(r"  fork@3 / new: [\d.]+x", output), output


def test_the_match_wall_bench_splits_a_match_and_its_turns() -> None:
    require_backend("bwrap")
    database, keys = bench_database("wall"), bench_redis("wall")
    output = run_bench(
        "match_wall.py",
        *("--matches", "3", "--rounds", "1"),
        *("--database-url", database.url, "--broker-url", keys.url, "--redis-prefix", keys.prefix),
    )
    rows = {
        line[2:48].strip(): line[48:].split()
        for line in output.splitlines()
        if line.startswith("  ") and len(line) > 48
    }
    for step in (
        "sent -> received (broker, consumer)",
        "boxes opening -> boxes up",
        "first move -> last move",
        "boxes closed -> finish committed",
        "the task (starts -> ends)",
    ):
        (value,) = rows[step]
        assert float(value) > 0, output
    # Every step of the task is there, and a match's steps add up to its task: one after
    # the other, nothing left out (medians of a few matches need not add up, sums do).
    inside = [s for s in rows if s and s.split(" -> ")[0] in TASK_STEPS_START]
    assert len(inside) == len(TASK_STEPS_START), rows
    (added,), (task,) = rows["its steps added up, per match"], rows["the task (starts -> ends)"]
    assert abs(float(added) - float(task)) <= 0.11, output  # ms, as printed: 0.1 apart
    turn = [line.split() for line in output.splitlines() if line.strip().startswith("turn ")]
    (cells,) = turn
    assert float(cells[1]) >= 10 and float(cells[2]) > 0, output  # 10+ turns a match, each timed
    assert_cleaned_up(database, keys)


TASK_STEPS_START = (
    "task starts",
    "claimed",
    "boxes opening",
    "boxes up",
    "first move",
    "last move",
    "played",
    "boxes closed",
    "committed",
    "timeline stored",
)


def test_the_tournament_pipeline_bench_plays_a_swiss_through_the_worker() -> None:
    require_backend("bwrap")
    database, keys = bench_database("tournament"), bench_redis("tournament")
    output = run_bench(
        "tournaments.py",
        *("--part", "pipeline", "--swiss-bots", "4", "--swiss-rounds", "2"),
        *("--matches", "2", "--beat-seconds", "1", "--entry-seconds", "0.5"),
        *("--database-url", database.url, "--broker-url", keys.url, "--redis-prefix", keys.prefix),
    )
    baseline = re.search(r"2 ranked matches all queued: (\d+) matches/min", output)
    assert baseline and int(baseline[1]) > 0, output
    swiss = re.search(r"Swiss of 4 bots, 2 rounds, 8 games: ([\d.]+) s .* (\d+) games/min", output)
    assert swiss and float(swiss[1]) > 0 and int(swiss[2]) > 0, output
    assert "between rounds:" in output and "beat closed the entry" in output, output
    assert_cleaned_up(database, keys)


def test_the_api_bench_loads_a_site_and_serves_every_endpoint() -> None:
    database, keys = bench_database("api"), bench_redis("api")
    output = run_bench(
        "api.py",
        *("--users", "4", "--bots", "16", "--matches", "50", "--drop"),
        *("--workers", "1", "--clients", "1", "--requests", "3", "--serial-requests", "2"),
        *("--database-url", database.url, "--broker-url", keys.url, "--redis-prefix", keys.prefix),
        *("--port", str(free_port())),
    )
    assert re.search(
        r"loaded 4 auth_user, 16 bots_bot, \d+ bots_botversion, \d+ matches_match", output
    )
    assert re.search(r"2 tournaments_tournament, 8 tournaments_entry", output), output
    endpoints = ["leaderboard p1", "leaderboard middle", "leaderboard last", "matches"]
    endpoints += ["matches ?bot=", "matches ?ladder=", "matches ?status=finished"]
    endpoints += ["matches ?status=queued", "matches ?page=1", "replay"]
    endpoints += ["timeline", "match", "games", "ladders", "bots", "bot", "tournaments"]
    endpoints += ["tournament finished", "tournament running"]
    endpoints += ["tournament games finished", "tournament games running"]
    rows = {
        line[:26].strip(): line[26:]
        for line in output.splitlines()
        if line[:26].strip() in endpoints
    }
    for endpoint in endpoints:
        row = rows[endpoint]
        assert "errors" not in row, row
        alone, rate, p50, p99, longest, app_p50, app_p99, *cpu = figures(row.split(">")[0])
        assert min(alone, rate, p50, app_p50) > 0 and p50 <= p99 <= longest, row
        assert app_p50 <= app_p99 and min(cpu) >= 0, row
    assert_cleaned_up(database, keys)


def test_the_validation_bench_times_an_upload_on_a_busy_agon_up() -> None:
    require_backend("bwrap")
    keys = bench_redis("validation")
    output = run_bench(
        "validation.py",
        *("--brokers", "redis", "--games", "architekton", "--uploads", "1", "--pause", "0"),
        *("--concurrency", "1", "--matchmaking-seconds", "1", "--port", str(free_port())),
        *("--redis-url", keys.url, "--redis-prefix", keys.prefix),
    )
    assert "== redis broker: every ladder busy after" in output, output
    (row,) = [line for line in output.splitlines() if line.startswith("architekton (")]
    validated, wait, match, running, queued = figures(row[len("architekton (active)") :])
    assert row.startswith("architekton (active)") and validated > 0 and wait >= 0, row
    # A validation match on the fork server can take under the 0.05 s the row rounds away.
    assert validated >= match >= 0 and running >= 1 and queued >= 1, row
    summary = json.loads(output.strip().splitlines()[-1])
    assert summary["broker"] == "redis" and len(summary["validated_seconds"]) == 1
    assert "ranked matches made meanwhile" in output
    assert_cleaned_up(None, keys)
