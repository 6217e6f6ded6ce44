"""bench/cpu_table.py: a row's rates and the calibration they are divided by are timed in
alternating spells (`bench.interleave.rates`), so the "/kcal" figures hold on a busy
machine; each row has its own calibration, not one taken before the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from bench import cpu_table, interleave


def test_a_row_times_its_figures_and_the_calibration_in_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[str]] = []
    real = interleave.rates

    def spy(contenders: Mapping[str, Callable[[], object]], seconds: float) -> dict[str, float]:
        calls.append(list(contenders))
        return real(contenders, seconds, spell=0.002)

    monkeypatch.setattr(interleave, "rates", spy)
    row = cpu_table.row_rates("akropolis", 2, 0.01)
    assert calls == [["calibration", "playouts", "evaluations", "rescoring", "mover"]]
    assert set(row) == set(calls[0])
    assert all(rate > 0 for rate in row.values())


def test_a_game_without_a_mover_score_or_running_scores_times_fewer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[str]] = []

    def names(contenders: Mapping[str, Callable[[], object]], seconds: float) -> dict[str, float]:
        calls.append(list(contenders))
        return {}

    monkeypatch.setattr(interleave, "rates", names)
    for game_id, counts in cpu_table.PLAYER_COUNTS.items():
        cpu_table.row_rates(game_id, counts[0], 0.01)
    assert all(call[:3] == ["calibration", "playouts", "evaluations"] for call in calls)


def test_the_printed_per_kcal_figures_use_the_row_own_calibration(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calibrations = iter(range(1000, 100_000, 1000))

    def rates(game_id: str, players: int, seconds: float) -> dict[str, float]:
        return {"calibration": float(next(calibrations)), "playouts": 500.0, "evaluations": 8000.0}

    monkeypatch.setattr(cpu_table, "row_rates", rates)
    monkeypatch.setattr(cpu_table, "referee_turn_costs", lambda game_id, players: (1e-5, 2e-5))
    cpu_table.print_table(0.01)
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    # playouts 500/s against 1000 calibration runs/s, then 2000, 3000: 500, 250, 167 /kcal
    assert [row[4] for row in rows[:3]] == ["500", "250", "167"]
    assert [row[-1] for row in rows[:3]] == ["1000", "2000", "3000"]
