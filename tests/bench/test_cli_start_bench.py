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
