"""bench/analysis.py runs, tiny: a row per game, player count and level, with a
positive time, the player counts a game does not have left out."""

from __future__ import annotations

import pytest

from bench import analysis


def test_the_analysis_bench_times_a_match_per_game_and_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = analysis.main(["--games", "architekton,akropolis", "--players", "2,3", "--matches", "1"])

    assert [(row["game"], row["players"]) for row in rows] == [
        ("architekton", 2),
        ("akropolis", 2),
        ("akropolis", 3),
    ]
    assert all(row["median_seconds"] > 0 and row["median_steps"] > 1 for row in rows)
    assert all(0 < row["share_of_two_cores"] < 1 for row in rows)
    printed = capsys.readouterr().out
    assert printed.startswith("load average ")
    assert "akropolis    3p mcts-1:" in printed
