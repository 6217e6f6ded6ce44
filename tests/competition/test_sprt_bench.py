"""bench/sprt.py runs, tiny: its tables come out with every row and column."""

from __future__ import annotations

import pytest

from bench import sprt


def test_the_bench_prints_its_rows_at_a_tiny_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert sprt.main(["--runs", "2", "--coverage-runs", "3", "--max-games", "40"]) == 0
    printed = capsys.readouterr().out
    for row in ("sweep", "+100 Elo", "+50 Elo (elo1)", "equal (elo0)", "-50 Elo"):
        assert row in printed, row
    assert "draw rate 0.3" in printed and "fishtest's GSPRT" in printed
    assert "2-0 or 0-2" in printed
    assert "100 pairs" in printed
