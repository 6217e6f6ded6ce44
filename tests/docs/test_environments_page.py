"""docs/environments.md: its Python examples run as written, its size table is the
encodings' own, and each game's section names every segment of its observation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agon_bot.envs import make_encoding
from tests.envs.support import CASES, GAMES

PAGE = Path(__file__).parents[2] / "docs" / "environments.md"
TEXT = PAGE.read_text(encoding="utf-8")
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
SIZE_ROW = re.compile(r"^\| `(\w+)` \| (\d)(, `all_tiles`)? \| ([\d,]+) \| ([\d,]+) \|$", re.M)


@pytest.mark.parametrize("block", PYTHON_BLOCK.findall(TEXT))
def test_each_example_runs(block: str) -> None:
    exec(compile(block, str(PAGE), "exec"), {})  # noqa: S102 - the page's own example


def test_the_size_table_is_the_encodings() -> None:
    rows = SIZE_ROW.findall(TEXT)
    shown = {(game, int(players), bool(long)) for game, players, long, _, _ in rows}
    assert {(game, players, False) for game, players in CASES} <= shown
    for game, players, long, actions, floats in rows:
        encoding = make_encoding(game, int(players), {"all_tiles": True} if long else {})
        assert int(actions.replace(",", "")) == encoding.n_actions, (game, players, long)
        assert int(floats.replace(",", "")) == encoding.observation_size, (game, players)


@pytest.mark.parametrize("game", GAMES)
def test_each_games_section_names_every_segment(game: str) -> None:
    section = TEXT.split(f"\n## {game.capitalize()}\n", 1)[1].split("\n## ", 1)[0]
    encoding = make_encoding(game, 2, {})
    for segment in encoding.segments:
        assert f"| `{segment.name}` |" in section, (game, segment.name)
