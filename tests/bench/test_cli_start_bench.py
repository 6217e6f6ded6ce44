"""bench/cli_start.py runs, tiny: a row for the bare interpreter and for each command."""

from __future__ import annotations

import pytest

from bench import cli_start


def test_the_bench_prints_every_command_against_a_bare_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_start.main(["--repeats", "1"]) == 0
    rows = {
        line[:26].strip(): line[26:].split() for line in capsys.readouterr().out.splitlines()[2:]
    }
    assert set(rows) == set(cli_start.CONTENDERS)
    assert rows["python -c pass"][1] == "1.0"
    assert all(float(ms) > 0 for ms, _ in rows.values())


def test_the_bench_compares_two_checkouts_run_in_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--compare runs every command of another checkout in turn with this one's: here
    the same checkout twice, so that the path is taken without a worktree."""
    assert cli_start.main(["--repeats", "1", "--compare", str(cli_start.ROOT)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line[:26].strip(): line[26:].split() for line in lines[2:-1]}
    assert set(rows) == set(cli_start.CONTENDERS)
    assert all(len(row) == 4 and row[1] == row[3] == "1.0" for row in [rows["python -c pass"]])
    assert lines[-1].startswith("first columns: ")
