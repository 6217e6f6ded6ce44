"""bench/seccomp_cost.py, bench/reply_padding.py and bench/fork_server_memory.py at a tiny
size, in each backend that isolates: they must keep running, and print their rows, as the
code under them changes."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bench import reply_padding
from sandbox.backends import ISOLATING_BACKENDS
from tests.bench.support import run_bench
from tests.sandbox.support import require_backend

# Imported by name, not followed by mypy: the module it imports, bench/sandbox.py, does
# not pass mypy strict yet.
seccomp_cost = importlib.import_module("bench.seccomp_cost")


@pytest.mark.parametrize("backend", ISOLATING_BACKENDS)  # the benches take the real ones
def test_the_seccomp_bench_times_boxes_under_both_filters(backend: str) -> None:
    require_backend(backend)
    output = run_bench("seccomp_cost.py", "--boxes", "1", "--turns", "2", "--backends", backend)
    rows = [line.split() for line in output.splitlines() if line.startswith(backend)]
    assert [" ".join(row[1:-6]) for row in rows] == ["sysinfo only (before)", "whole list (after)"]
    assert all(float(figure) > 0 for row in rows for figure in row[-6:])


def test_the_padding_bench_sees_a_megabyte_reply_refused() -> None:
    require_backend("bwrap")
    output = run_bench("reply_padding.py", "--samples", "1", "--padding", str(1024 * 1024))
    rows = [line for line in output.splitlines() if line.startswith(("plain", "padded"))]
    assert len(rows) == 2
    assert rows[0].endswith("taken")
    assert rows[1].endswith("output_limit")


def test_the_two_filters_boxes_take_turns_the_order_rotated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    in_use: list[tuple[str, ...]] = []
    opened: list[str] = []
    monkeypatch.setattr(seccomp_cost, "use_filter", in_use.append)

    def one_box(backend: str, folder: object, turns: int) -> tuple[float, list[float]]:
        opened.append("before" if in_use[-1] == ("sysinfo",) else "after")
        return 0.1 * len(opened), [1e-4] * turns

    monkeypatch.setattr(seccomp_cost, "one_box", one_box)
    seccomp_cost.main(["--boxes", "3", "--turns", "2", "--backends", "bwrap"])
    assert opened == ["before", "after", "after", "before", "before", "after"]
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    starts = {" ".join(row[1:-6]): row[-6:-3] for row in rows if row[0] == "bwrap"}
    # before's boxes were the 1st, 4th and 5th opened; after's the 2nd, 3rd and 6th
    assert starts == {
        "sysinfo only (before)": ["100.00", "400.00", "500.00"],
        "whole list (after)": ["200.00", "300.00", "600.00"],
    }


def test_plain_and_padded_boxes_take_turns_the_order_rotated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []

    def one_turn(backend: str, folder: Path) -> tuple[float, float, str]:
        padded = "PADDING, PIECE = 0," not in (folder / "main.py").read_text()
        opened.append("padded" if padded else "plain")
        return 0.001 * len(opened), 0.002 if padded else 0.001, "taken"

    monkeypatch.setattr(reply_padding, "one_turn", one_turn)
    reply_padding.main(["--samples", "3", "--padding", "1000"])
    assert opened == ["plain", "padded", "padded", "plain", "plain", "padded"]
    output = capsys.readouterr().out
    assert "ratio, padded / plain, of the medians: turn wall 0.75x, referee CPU 2.00x" in output


def test_the_fork_server_memory_bench_prints_the_server_s_memory_as_boxes_go() -> None:
    require_backend("bwrap")
    output = run_bench("fork_server_memory.py", "--boxes", "4", "--every", "2")
    rows = [
        line.split() for line in output.splitlines() if line.split()[:1] in (["0"], ["2"], ["4"])
    ]
    assert [row[0] for row in rows] == ["0", "2", "4"]
    assert all(int(figure) > 0 for row in rows for figure in row[1:]), rows
    assert "growth: VmRSS" in output
