"""bench/envs.py runs, tiny: a row per game and player count with positive figures."""

from __future__ import annotations

import pytest

from bench import envs
from tests.bench.support import figures


def test_the_envs_bench_times_env_steps_against_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        envs.main(["--seconds", "0", "--games", "architekton,megalopolis", "--players", "2"]) == 0
    )
    printed = capsys.readouterr().out
    rows = {
        line.split()[0]: line for line in printed.splitlines() if line.endswith(tuple("0123456789"))
    }
    for game in ("architekton", "megalopolis"):
        engine, env, bare, slowdown, bare_slowdown, observation, games = figures(
            rows[game].split(None, 2)[2]
        )
        assert min(engine, env, bare, slowdown, bare_slowdown, observation) > 0, rows[game]
        assert games == 1
