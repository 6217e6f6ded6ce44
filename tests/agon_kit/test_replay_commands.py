from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.agon_kit.support import Outcome


@pytest.fixture
def replay_file(agon: Callable[..., Outcome], tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "21",
        "--replay",
        str(path),
        "builtin:greedy",
        "builtin:random",
    )
    assert outcome.code == 0
    return path


def tamper(path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads(path.read_text())
    change(data)
    bad = path.with_name("tampered.json")
    bad.write_text(json.dumps(data))
    return bad


def test_verify_accepts_an_honest_replay(agon: Callable[..., Outcome], replay_file: Path) -> None:
    outcome = agon("replay", "verify", str(replay_file))
    assert outcome.code == 0
    assert "OK" in outcome.out


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["actions"][3].update(q=d["actions"][3]["q"] + 9), "action 3"),
        (lambda d: d["result"]["scores"].__setitem__(0, 999), "does not reproduce"),
        (lambda d: d.update(seed=d["seed"] + 1), ""),
        (lambda d: d["actions"].pop(), "stops before the end"),
        (lambda d: d["actions"].append(d["actions"][-1]), "after the end"),
        (lambda d: d.update(format="something-else"), "not an Agon replay"),
        (lambda d: d.update(game="chess"), "unknown game"),
    ],
)
def test_verify_rejects_a_tampered_replay(
    agon: Callable[..., Outcome],
    replay_file: Path,
    change: Callable[[dict[str, Any]], None],
    reason: str,
) -> None:
    outcome = agon("replay", "verify", str(tamper(replay_file, change)))
    assert outcome.code == 1
    assert "INVALID" in outcome.out and reason in outcome.out


def test_verify_reports_an_unreadable_file(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{not json")
    outcome = agon("replay", "verify", str(path))
    assert outcome.code == 1 and "cannot read replay" in outcome.out


def test_show_draws_the_position_at_a_step(agon: Callable[..., Outcome], replay_file: Path) -> None:
    start = agon("replay", "show", str(replay_file), "--step", "0")
    assert start.code == 0
    assert "turn 0" in start.out and "h1*" in start.out  # the starting plaza
    later = agon("replay", "show", str(replay_file), "--step", "7")
    assert "turn 7" in later.out and "Last action:" in later.out
    final = agon("replay", "show", str(replay_file))
    assert "game over" in final.out


def test_show_rejects_a_step_out_of_range(agon: Callable[..., Outcome], replay_file: Path) -> None:
    outcome = agon("replay", "show", str(replay_file), "--step", "999")
    assert outcome.code == 2 and "--step must be between 0 and 36" in outcome.err
