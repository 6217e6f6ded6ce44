"""No bench without a test that runs it: every script in bench/ (a file that runs as
`python bench/X.py`) is run at a tiny size by the test module named here, and every other
module there is imported by a script, so it runs through that script's test. A new bench
script fails here until it has its test."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bench.support import BENCH_DIR
from tests.platform.pipeline.support import REPO_DIR

EVERY = "tests/bench/test_every_bench_runs.py"
RUN_BY = {
    "analysis.py": "tests/bench/test_analysis_bench.py",
    "api.py": EVERY,
    "bot_start.py": "tests/bench/test_bot_start_bench.py",
    "cache_flood.py": "tests/bench/test_cache_flood_bench.py",
    "cli_start.py": "tests/bench/test_cli_start_bench.py",
    "core_bots.py": "tests/bench/test_core_bots_bench.py",
    "core_in_box.py": "tests/bench/test_core_in_box_bench.py",
    "datasets.py": "tests/bench/test_datasets_bench.py",
    "engine.py": EVERY,
    "envs.py": "tests/bench/test_envs_bench.py",
    "fair_share.py": "tests/bench/test_fair_share_bench.py",
    "fork_server_memory.py": "tests/bench/test_sandbox_benches.py",
    "game_stats.py": "tests/bench/test_game_stats_bench.py",
    "human_games.py": "tests/bench/test_human_games_bench.py",
    "pairing.py": "tests/competition/formats/test_pairing_bench.py",
    "peer.py": "tests/engine/akropolis/test_peer_bench.py",
    "match_wall.py": EVERY,
    "pipeline.py": EVERY,
    "prototype/step_bench.py": EVERY,
    "ratings.py": EVERY,
    "reply_padding.py": "tests/bench/test_sandbox_benches.py",
    "sandbox.py": EVERY,
    "scheduling.py": "tests/bench/test_scheduling_bench.py",
    "search_bots.py": "tests/bench/test_search_bots_bench.py",
    "seccomp_cost.py": "tests/bench/test_sandbox_benches.py",
    "side_channels.py": EVERY,
    "sprt.py": "tests/competition/test_sprt_bench.py",
    "timelines.py": "tests/bench/test_timelines_bench.py",
    "tournaments.py": EVERY,
    "twin_deals.py": "tests/bench/test_twin_deals_bench.py",
    "validation.py": EVERY,
}
"""Each bench script, and the test module that runs it."""

MAIN_GUARD = re.compile(r"^if __name__ == .__main__.:", re.MULTILINE)


def bench_files() -> dict[str, str]:
    """Every Python file under bench/, by its path there: its text."""
    return {
        path.relative_to(BENCH_DIR).as_posix(): path.read_text()
        for path in sorted(BENCH_DIR.rglob("*.py"))
    }


def is_script(text: str) -> bool:
    return MAIN_GUARD.search(text) is not None


def names_the_script(test_text: str, script: str) -> bool:
    """The test runs `script` as a file ("X.py") or calls it after `from bench import X`."""
    dotted = script.removesuffix(".py").replace("/", ".")
    package, _, module = f"bench.{dotted}".rpartition(".")
    return (
        f'"{script}"' in test_text
        or re.search(rf"^from {re.escape(package)} import {module}$", test_text, re.MULTILINE)
        is not None
    )


def imports_the_module(text: str, module: str) -> bool:
    """`text` imports bench/`module` in one of the ways the scripts do: `from X import`
    (bench/ on the path, as a script's own folder), `from bench.X import` or
    `from bench[.package] import X`."""
    dotted = module.removesuffix(".py").replace("/", ".")
    package, _, name = f"bench.{dotted}".rpartition(".")
    patterns = [
        rf"^\s*from {re.escape(dotted)} import ",
        rf"^\s*from bench\.{re.escape(dotted)} import ",
        rf"^\s*from {re.escape(package)} import {name}\b",
    ]
    return any(re.search(pattern, text, re.MULTILINE) for pattern in patterns)


def test_every_bench_script_has_a_test_that_runs_it() -> None:
    scripts = {name for name, text in bench_files().items() if is_script(text)}
    untested = sorted(scripts - set(RUN_BY))
    assert not untested, (
        f"bench/{', bench/'.join(untested)} has no test running it: add one that runs it at a "
        f"tiny size as its user would ({EVERY} shows how, with the databases, Redis prefixes "
        f"and backends of the test run) and name it in RUN_BY of {Path(__file__).name}"
    )
    gone = sorted(set(RUN_BY) - scripts)
    assert not gone, f"RUN_BY names {gone}, which are not bench scripts (any more)"


def test_each_named_test_module_runs_its_script() -> None:
    for script, test in RUN_BY.items():
        test_path = REPO_DIR / test
        assert test_path.is_file(), f"{test}, named for bench/{script}, does not exist"
        assert names_the_script(test_path.read_text(), script), (
            f'{test} does not run bench/{script}: neither runs "{script}" nor imports it '
            "from bench to call its main"
        )


def test_every_other_bench_module_runs_through_a_script() -> None:
    files = bench_files()
    reached = {name for name, text in files.items() if is_script(text)}
    while True:  # what the scripts import, and what that imports
        more = {
            module
            for module in set(files) - reached
            if any(imports_the_module(files[user], module) for user in reached)
        }
        if not more:
            break
        reached |= more
    unreached = sorted(set(files) - reached)
    assert not unreached, (
        f'bench/{", bench/".join(unreached)}: no script (no `if __name__ == "__main__":`) '
        "and imported by no bench script, so no test runs it. Import it from a script, or "
        "make it a script with its own test"
    )


def test_the_checks_tell_a_script_from_a_module_and_find_their_users() -> None:
    assert is_script('def main():\n    pass\n\n\nif __name__ == "__main__":\n    main()\n')
    assert not is_script('"""Not run: `if __name__ == "__main__":` only quoted."""\n')
    assert names_the_script('    run_bench("api.py", "--users", "4")', "api.py")
    assert names_the_script("from bench import sprt\n", "sprt.py")
    assert not names_the_script('run_bench("api.py")', "pipeline.py")
    assert imports_the_module("from cpu_table import print_table\n", "cpu_table.py")
    assert imports_the_module("from bench.prototype import c_cities\n", "prototype/c_cities.py")
    assert imports_the_module(
        "from bench.prototype.build import NoCompiler\n", "prototype/build.py"
    )
    assert not imports_the_module("from bench.cpu_table import x\n", "ratings.py")
