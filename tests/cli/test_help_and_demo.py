from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.replay import Replay, verify_replay
from tests.cli.support import Outcome


@pytest.mark.parametrize(
    "command",
    [
        (),
        ("play",),
        ("replay",),
        ("replay", "verify"),
        ("replay", "show"),
        ("score",),
        ("demo",),
        ("health",),
    ],
)
def test_every_command_has_help(agon: Callable[..., Outcome], command: tuple[str, ...]) -> None:
    outcome = agon(*command, "--help")
    assert outcome.code == 0
    assert outcome.out.startswith("usage: agon")


def test_the_demo_plays_a_rated_ladder(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    outcome = agon("demo", "--matches", "3", "--replays", str(tmp_path))
    assert outcome.code == 0, outcome.err
    assert "3 matches played" in outcome.out
    assert "builtin:greedy" in outcome.out and "builtin:random" in outcome.out
    replays = sorted(tmp_path.glob("*.json"))
    assert [len(Replay.load(p).bots) for p in replays] == [2, 3, 4]
    for path in replays:
        verify_replay(Replay.load(path))
