"""bench/search_bots.py runs, tiny: a row per game and level with a positive time."""

from __future__ import annotations

import pytest

from bench import search_bots


def test_the_search_bots_bench_times_a_decision_of_each_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = search_bots.main(["--games", "architekton,akropolis", "--positions", "1"])
    assert [(row["game"], row["level"]) for row in rows] == [
        (game, level)
        for game in ("architekton", "akropolis")
        for level in ("mcts-1", "mcts-2", "mcts-3")
    ]
    assert all(row["median_seconds"] > 0 for row in rows)
    assert [row["iterations"] for row in rows[:3]] == sorted(row["iterations"] for row in rows[:3])
    printed = capsys.readouterr().out
    assert printed.startswith("load average ")
    assert "architekton  2p mcts-3:" in printed
