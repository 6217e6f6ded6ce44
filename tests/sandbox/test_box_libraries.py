"""What every box offers a bot besides the standard library, on every isolating backend
(docs/bot-protocol.md lists it; the upload's preflight checks imports against it)."""

from __future__ import annotations

from sandbox.preflight import BOX_LIBRARIES
from sandbox.runner import Program
from tests.sandbox.support import Arena, assert_no_fault


def test_a_bot_using_numpy_plays_a_whole_match(boxed_arena: Arena) -> None:
    assert "numpy" in BOX_LIBRARIES
    record = boxed_arena.play(
        boxed_arena.bot("numpy_chooser"), Program.builtin("random"), limits={"turn_seconds": 5}
    )
    assert_no_fault(record)
    assert record.replay.result["ranks"]
