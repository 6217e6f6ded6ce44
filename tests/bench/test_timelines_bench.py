"""bench/timelines.py runs, tiny: a row per game with both ways' figures."""

from __future__ import annotations

import gc
import itertools
import subprocess
import sys

import pytest

from bench import interleave, timelines
from tests.platform.pipeline.support import REPO_DIR


def test_the_bench_prints_each_game_made_and_stored() -> None:
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [
            sys.executable,
            str(REPO_DIR / "bench" / "timelines.py"),
            "--matches",
            "1",
            "--seconds",
            "0.02",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [row[0] for row in rows] == ["akropolis", "architekton", "attika", "megalopolis"]
    assert all(float(figure) > 0 for row in rows for figure in row[3:])


def test_both_ways_take_turns_each_serving_its_matches_in_a_cycle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    served: list[str] = []
    contenders: list[list[str]] = []
    real = interleave.rates

    def spy(ways: dict[str, object], seconds: float) -> dict[str, float]:
        contenders.append(list(ways))
        return real(ways, seconds, spell=0.001)  # type: ignore[arg-type]

    monkeypatch.setattr(interleave, "rates", spy)
    requests = {
        "engine": [lambda: served.append("engine 1"), lambda: served.append("engine 2")],
        "stored": [lambda: served.append("stored 1")],
    }
    figures = timelines.request_ms(requests, 0.005)
    assert contenders == [["engine", "stored"]]
    assert figures.keys() == {"engine", "stored"} and min(figures.values()) > 0
    engine = [call for call in served if call.startswith("engine")]
    assert engine[:4] == ["engine 1", "engine 2", "engine 1", "engine 2"]
    switches = sum(a[:6] != b[:6] for a, b in itertools.pairwise(served))
    assert switches >= 5  # in one block each, after a first call each apart: 3


def test_the_collector_is_paused_while_the_ways_are_timed() -> None:
    seen: list[bool] = []
    timelines.request_ms({"engine": [lambda: seen.append(gc.isenabled())]}, 0.001)
    assert seen and not any(seen)
    assert gc.isenabled()
