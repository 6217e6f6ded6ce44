"""Every Python example of the bot author's page (docs/bot-protocol.md, served at
/docs/) is a complete bot, played here in a real match through the protocol, so the
page cannot drift from the library it documents."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from agon_bot import Bot, run
from sandbox.runner import Program, run_match

PAGE = Path(__file__).parents[2] / "docs" / "bot-protocol.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks() -> list[str]:
    return PYTHON_BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_shows_a_bot_before_anything_else() -> None:
    text = PAGE.read_text(encoding="utf-8")
    first_code = text.index("```")
    assert text.startswith("```python\nfrom agon_bot import run", first_code)
    for needed in ("log(", "def end(", "self.time_left_ms", "Lookahead(", "builtin:greedy"):
        assert needed in text
    assert "](/my/token/)" in text, "the upload section names the token page"


def test_the_page_has_an_example_of_each_part_of_the_library() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 6
    for needed in ("class ", "log(", "def end(", "time_left_ms", "lead_after", "after("):
        assert any(needed in block for block in blocks), needed


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_each_python_example_plays_a_whole_match_without_a_fault(
    index: int, tmp_path: Path
) -> None:
    source = python_blocks()[index]
    record = run_match(
        game_id="akropolis",
        seed=1,
        options={},
        programs=[
            Program(bot_id="example", package=source.encode(), filename="main.py"),
            Program.builtin("greedy"),
        ],
        sandbox="none",
        workdir=tmp_path,
    )
    assert record.replay.faults == [], record.seats[0].log
    assert len(record.replay.result["scores"]) == 2


def test_guessing_the_clock_in_the_observation_says_where_it_is() -> None:
    class Guesser(Bot):
        def act(self, observation, legal_actions):  # type: ignore[no-untyped-def]
            return observation["time_left_ms"]

    messages = '{"type":"start","game":"akropolis","player":0,"players":2}\n'
    messages += '{"type":"turn","turn":0,"observation":{},"legal_actions":[1],"time_left_ms":9}\n'
    with pytest.raises(KeyError, match=r"self\.time_left_ms"):
        run(Guesser(), stdin=io.StringIO(messages), stdout=io.StringIO())
