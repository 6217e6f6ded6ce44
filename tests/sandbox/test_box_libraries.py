"""What every box offers a bot besides the standard library, on every isolating backend
(docs/bot-protocol.md lists it; the upload's preflight checks imports against it), and
the engine with its compiled cores in use."""

from __future__ import annotations

from sandbox.libraries import BOX_LIBRARY_PATH
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


def test_a_bot_importing_the_engine_gets_the_compiled_cores(boxed_arena: Arena) -> None:
    """Issue 32: bwrap shows the host's build (a copy of the engine folder), the Docker
    image its own (deploy/bot-image's `core` stage); no warning line of the pure-Python
    fallback either way."""
    record = boxed_arena.play(boxed_arena.bot("core_probe"), Program.builtin("random"))
    assert_no_fault(record)
    log = record.seats[0].log
    lines = [line for line in log.splitlines() if line.startswith("CORE ")]
    assert len(lines) == 3, log
    for line, game in zip(lines, ("akropolis", "attika", "megalopolis"), strict=True):
        core = line.removeprefix("CORE ")
        assert core.startswith(f"{BOX_LIBRARY_PATH}/engine/{game}/native/_core."), log
        assert core.endswith(".so"), log
    assert "pure Python" not in log
