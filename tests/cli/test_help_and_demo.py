from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.registry import game_ids, get_game
from engine.replay import Replay, verify_replay
from tests.agon_kit.support import Outcome


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


@pytest.mark.parametrize("game_id", game_ids())
def test_the_demo_seats_every_player_count_of_every_game(
    agon: Callable[..., Outcome], tmp_path: Path, game_id: str
) -> None:
    counts = get_game(game_id).player_counts
    outcome = agon(
        "demo", "--game", game_id, "--matches", str(len(counts)), "--replays", str(tmp_path)
    )
    assert outcome.code == 0, outcome.err
    replays = sorted(tmp_path.glob("*.json"), key=lambda path: int(path.stem.rsplit("-", 1)[1]))
    assert [len(Replay.load(path).bots) for path in replays] == list(counts)
