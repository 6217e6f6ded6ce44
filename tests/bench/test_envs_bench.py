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


def test_the_envs_bench_splits_a_step_into_its_parts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert envs.main(["--seconds", "0", "--games", "attika", "--players", "2", "--split"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("attika"))
    engine, indices, bookkeeping, observe, slowdown, games = figures(row.split(None, 2)[2])
    assert engine > 0 and slowdown > 0 and games == 1
    # Each part is a difference of two loops' times: finite, of either sign in a tiny run.
    assert all(abs(part) < 1e6 for part in (indices, bookkeeping, observe))
