"""The bwrap backend's own housekeeping: run by root, it starts each box as uid 65534
from a copy of the bot in the system's temporary folder (tests/sandbox/
test_hostile_bots.py checks that the copies go with their boxes). A referee that dies
without closing its boxes leaves its copies behind: the next box removes them."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.backends.bwrap import LIBRARIES_PREFIX, STAGING_PREFIX, compiled_libraries
from sandbox.runner import Program
from tests.required import missing
from tests.sandbox.conftest import make_arena
from tests.sandbox.support import Arena, assert_no_fault


@pytest.fixture
def arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Arena:
    if os.geteuid() != 0:
        missing("root", "bwrap copies bots only when the referee runs as root")
    return make_arena("bwrap", tmp_path, monkeypatch)


@pytest.fixture
def dead_pid() -> int:
    process = subprocess.Popen(["true"])  # noqa: S607 - any short-lived program will do
    process.wait()
    return process.pid


@pytest.fixture
def copies(dead_pid: int) -> Iterator[dict[str, Path]]:
    """A copy left by a dead referee, and one of a live referee (this process)."""
    made = {
        "dead": Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{dead_pid}-")),
        "live": Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-")),
    }
    for folder in made.values():
        (folder / "bot").mkdir()
        (folder / "bot" / "main.py").write_text("left behind\n")
    yield made
    for folder in made.values():
        shutil.rmtree(folder, ignore_errors=True)


def test_the_next_box_removes_the_copies_of_a_dead_referee(
    arena: Arena, copies: dict[str, Path]
) -> None:
    record = arena.play(arena.bot("plain"), Program.builtin("random"))
    assert_no_fault(record)
    assert not copies["dead"].exists()
    assert (copies["live"] / "bot" / "main.py").read_text() == "left behind\n"


def test_a_referee_keeps_one_compiled_library_copy_the_next_removes_a_dead_ones(
    arena: Arena, dead_pid: int
) -> None:
    dead = Path(tempfile.mkdtemp(prefix=f"{LIBRARIES_PREFIX}{dead_pid}-"))
    try:
        record = arena.play(arena.bot("plain"), Program.builtin("random"))
        assert_no_fault(record)
        assert not dead.exists()
        own = compiled_libraries()
        assert own == compiled_libraries()
        assert {folder.parent.name for folder in own.values()} == {
            next(iter(own.values())).parent.name
        }
        assert next(iter(own.values())).parent.name.startswith(f"{LIBRARIES_PREFIX}{os.getpid()}-")
        assert all((folder / "__init__.py").is_file() for folder in own.values())
    finally:
        shutil.rmtree(dead, ignore_errors=True)
