"""Every Python example of the bot author's page (docs/bot-protocol.md, served at
/docs/) is a complete bot, played here in a real match through the protocol, so the
page cannot drift from the library it documents."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from agon_bot import Bot, run
from sandbox.runner import Program, run_match

PAGE = Path(__file__).parents[2] / "docs" / "bot-protocol.md"
STARTER_README = Path(__file__).parents[2] / "platform/agon/web/starter_kit/README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks(page: Path = PAGE) -> list[str]:
    return PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))


def every_example() -> list[str]:
    """The page's examples, then the starter kit's README's."""
    return python_blocks() + python_blocks(STARTER_README)


def test_the_page_shows_a_bot_before_anything_else() -> None:
    text = PAGE.read_text(encoding="utf-8")
    first_code = text.index("```")
    assert text.startswith("```python\nfrom agon_bot import run", first_code)
    for needed in ("log(", "def end(", "self.time_left_ms", "Lookahead(", "builtin:greedy"):
        assert needed in text
    assert "](/my/token/)" in text, "the upload section names the token page"


def test_the_starter_kit_shows_the_clock_the_move_the_log_and_the_end() -> None:
    (example,) = [block for block in python_blocks(STARTER_README) if "class " in block]
    for needed in ("self.time_left_ms", "self.move", "log(", "def end(", "def start("):
        assert needed in example, needed
    assert "builtin `greedy`" in STARTER_README.read_text(encoding="utf-8")


def test_the_page_has_an_example_of_each_part_of_the_library() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 6
    for needed in (
        "class ",
        "log(",
        "def end(",
        "time_left_ms",
        "self.move",
        "lead_after",
        "after(",
    ):
        assert any(needed in block for block in blocks), needed


@pytest.mark.parametrize("index", range(len(every_example())))
def test_each_python_example_plays_a_whole_match_without_a_fault(
    index: int, tmp_path: Path
) -> None:
    source = every_example()[index]
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


def turn_messages(moves: int, *, with_move: bool = True) -> str:
    start = '{"type":"start","game":"akropolis","player":0,"players":2}\n'
    turns = (
        json.dumps(
            {
                "type": "turn",
                **({"move": n + 1} if with_move else {}),
                "turn": n,
                "observation": {},
                "legal_actions": [1],
                "time_left_ms": 9,
            }
        )
        + "\n"
        for n in range(moves)
    )
    return start + "".join(turns)


class Mover(Bot):
    def __init__(self) -> None:
        self.seen: list[int] = []

    def act(self, observation, legal_actions):  # type: ignore[no-untyped-def]
        self.seen.append(self.move)
        return observation["move"] if self.move == 3 else legal_actions[0]


def test_a_bot_knows_its_own_move_and_guessing_it_in_the_observation_says_where_it_is() -> None:
    bot = Mover()
    with pytest.raises(KeyError, match=r"self\.move"):
        run(bot, stdin=io.StringIO(turn_messages(3)), stdout=io.StringIO())
    assert bot.seen == [1, 2, 3]


def test_a_referee_from_before_move_gives_the_same_count() -> None:
    bot = Mover()
    run(bot, stdin=io.StringIO(turn_messages(2, with_move=False)), stdout=io.StringIO())
    assert bot.seen == [1, 2]
