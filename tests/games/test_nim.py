"""Nim, the tests' fifth game, is its package plus one registry line: the engine plays it,
the registry finds it, the sandbox's limits and the documents take it from its spec, and
no file outside its package names it. tests/platform/pipeline/test_a_fifth_game.py plays
it through a worker, the boxes, the API, the timeline and the viewer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.bots import builtin_bot
from engine.match import play_match
from engine.registry import UnknownGame, game_ids, get_game
from engine.replay import verify_replay
from engine.spec import GameSpec
from sandbox.limits import limits_for
from tests.games.nim.rules import NIM
from tests.games.nim.spectator import NimSpectator

REPO = Path(__file__).resolve().parents[2]
OUTSIDE_TESTS = ("engine", "sandbox", "agon_bot", "platform", "docs", "examples", "deploy")


def test_nim_is_unknown_until_its_registry_line_is_there() -> None:
    assert "nim" not in game_ids()
    with pytest.raises(UnknownGame):
        get_game("nim")


def test_its_registry_line_makes_it_a_game_like_the_others(nim: GameSpec[Any]) -> None:
    assert "nim" in game_ids() and game_ids() == sorted(game_ids())
    assert get_game("nim") is NIM and nim.game is NIM
    assert isinstance(nim.spectator(), NimSpectator)
    assert limits_for("nim").turn_seconds == 2.0, "the spec's own limits"
    assert limits_for("nim", {"turn_seconds": 3}).turn_seconds == 3.0


@pytest.mark.usefixtures("nim")
@pytest.mark.parametrize("seed", range(6))
def test_a_match_between_the_builtin_bots_replays(seed: int) -> None:
    replay = play_match(
        get_game("nim"),
        seed=seed,
        players=2,
        options={},
        bots=[builtin_bot("greedy", "nim", seed, 0), builtin_bot("random", "nim", seed, 1)],
        bot_ids=["greedy", "random"],
    )
    verify_replay(replay)
    assert sorted(replay.result["scores"]) == [0, 1]
    assert 15 <= sum(action["take"] for action in replay.actions) <= 24


def test_no_file_outside_its_package_names_it() -> None:
    """Besides the registry line in tests/conftest.py, only tests say "nim"."""
    word = re.compile(r"\bnim\b", re.IGNORECASE)
    naming = [
        str(path.relative_to(REPO))
        for folder in OUTSIDE_TESTS
        for path in (REPO / folder).rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".md", ".js", ".html", ".css", ".toml", ".yml", ".yaml"}
        and word.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert naming == []
