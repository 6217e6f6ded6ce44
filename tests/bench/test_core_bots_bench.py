"""bench/core_bots.py runs, tiny: the lookahead bot and a search bot decide with the
compiled core and without, each at a positive rate, and the core is left as it was."""

from __future__ import annotations

import pytest

from bench import core_bots
from engine.akropolis import native


def test_the_core_bots_bench_times_each_bot_with_the_core_and_without(
    capsys: pytest.CaptureFixture[str],
) -> None:
    core = native.CORE
    figures = core_bots.main(
        ["--players", "2", "--levels", "mcts-1", "--positions", "1", "--seconds", "0.05"]
    )
    assert native.CORE is core
    assert list(figures) == [(2, "lookahead"), (2, "mcts-1")]
    ways = ["core", "pure Python"] if core is not None else ["pure Python"]
    for rates in figures.values():
        assert list(rates) == ways
        assert all(rate > 0 for rate in rates.values())
    printed = capsys.readouterr().out
    assert printed.startswith("load average ")
    assert "2p lookahead" in printed
