"""bench/twin_deals.py runs, tiny: each design gets its row and the comparison its line."""

from __future__ import annotations

import pytest

from bench import twin_deals


def test_the_bench_prints_both_designs_at_a_tiny_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert twin_deals.main(["--pairs", "2", "--games", "architekton", "--runs", "20"]) == 0
    printed = capsys.readouterr().out
    assert "Architekton, 2 pairs:" in printed
    for design in ("twin deals", "fresh deals"):
        assert f"  {design}" in printed and "version test:" in printed
    assert "fresh / twin" in printed or "no variance to compare" in printed
