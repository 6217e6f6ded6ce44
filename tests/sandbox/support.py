"""Running bot programs in real boxes, and checking that a match leaves nothing behind.

An `Arena` is one test's view of one backend: it packs bots from files (with their
`params.json`), plays a match in a thread with a hard time limit, and as soon as
`run_match` returns checks that no process, cgroup, container or folder of the match
survives. Everything it looks for carries the test's own marker or was recorded in
this process, so tests can run in parallel (pytest-xdist) without seeing each other.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.match import play_match
from engine.players import RandomBot
from engine.registry import get_game
from engine.replay import verify_replay
from sandbox.backends import ISOLATING_BACKENDS, Backend, SandboxError, get_backend
from sandbox.backends.bwrap import BwrapBackend
from sandbox.cgroups import ROOT as CGROUP_ROOT
from sandbox.cgroups import BoxCgroup
from sandbox.runner import MatchRecord, Program, run_match
from tests.required import missing

HERE = Path(__file__).parent
HOSTILE = HERE / "hostile"
BOTS = HERE / "bots"
GAME = "akropolis"
FORK_SERVER = "bwrap-fork"
"""The bwrap backend making its boxes with its fork server (AGON_SANDBOX_FORK_SERVER):
a name of the tests only, so that every hostile bot meets both ways of making a box."""
BOXED_BACKENDS = (*ISOLATING_BACKENDS, FORK_SERVER)
TEST_LABEL = "agon.test"
"""Docker label carrying the test's marker on every container the test starts."""

FAST_LIMITS: dict[str, Any] = {
    "turn_seconds": 0.5,
    "first_turn_seconds": 3,
    "time_bank_seconds": 0.5,
    "memory_bytes": 128 * 1024 * 1024,
    "pids": 16,
    "log_bytes": 64 * 1024,
    "scratch_bytes": 4 * 1024 * 1024,
}
MATCH_SECONDS = 60.0
"""A match that has not returned by then is reported as hung (the limits are far smaller)."""


def require_backend(name: str) -> None:
    """Skip the test, with the reason, unless the backend works on this machine (fail it
    instead where AGON_TEST_REQUIRE names the backend: tests.required)."""
    if name == FORK_SERVER:
        name = "bwrap"
    try:
        get_backend(name)
    except SandboxError as error:
        missing(name, f"the {name} sandbox is not available here: {error}")


def new_marker() -> str:
    """15 characters: it fits a process name (/proc/PID/comm) whole."""
    return "agon" + uuid.uuid4().hex[:11]


def pack(main: bytes, params: Mapping[str, Any], extra: Mapping[str, bytes] | None = None) -> bytes:
    """A .zip bot package: `main.py`, its `params.json` and any extra files."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("main.py", main)
        archive.writestr("params.json", json.dumps(params))
        for name, content in (extra or {}).items():
            archive.writestr(name, content)
    return data.getvalue()


@functools.cache
def full_game_length(seed: int, players: int = 2) -> int:
    """How many actions a whole match has (the same whoever plays it)."""
    bots = [RandomBot(seat) for seat in range(players)]
    replay = play_match(
        get_game(GAME), seed=seed, players=players, options={}, bots=bots, bot_ids=["r"] * players
    )
    return len(replay.actions)


def reports(log: str) -> list[dict[str, Any]]:
    """What a bot reported in its log, as `REPORT {json}` lines."""
    found = []
    for line in log.splitlines():
        if line.startswith("REPORT "):
            found.append(json.loads(line.removeprefix("REPORT ")))
    return found


def only_report(log: str) -> dict[str, Any]:
    found = reports(log)
    assert len(found) == 1, f"expected one report in the bot's log, got: {log[-2000:]!r}"
    return found[0]


def assert_played_to_the_end(record: MatchRecord) -> None:
    """Every seat's turns were played (by a fallback for a faulted seat) and the replay
    reproduces the result."""
    assert len(record.replay.actions) == full_game_length(record.replay.seed)
    verify_replay(record.replay)


def assert_fault(record: MatchRecord, *, seat: int, kind: str, turn: int | None = None) -> None:
    """Exactly one fault, of that seat and kind; that seat ranked last; a whole game."""
    faults = record.replay.faults
    assert [(f["seat"], f["kind"]) for f in faults] == [(seat, kind)], faults
    if turn is not None:
        assert faults[0]["turn"] == turn, faults
    ranks = record.replay.result["ranks"]
    assert ranks[seat] == len(ranks), f"the faulted seat ranks {ranks[seat]} of {ranks}"
    assert_played_to_the_end(record)


def assert_no_fault(record: MatchRecord) -> None:
    assert record.replay.faults == []
    assert_played_to_the_end(record)


def processes_marked(marker: str) -> list[str]:
    """Live processes (not zombies) named `marker` or with `marker` in their argv."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
            argv = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # ended while we looked
        if state not in ("Z", "X") and (name == marker or marker.encode() in argv):
            found.append(f"pid {entry.name} {name!r} {argv!r} state {state}")
    return found


def docker_containers(label: str) -> list[str]:
    return docker_listing(["ps", "-aq"], label)


def docker_volumes(label: str) -> list[str]:
    return docker_listing(["volume", "ls", "-q"], label)


def docker_listing(command: list[str], label: str) -> list[str]:
    docker = shutil.which("docker")
    if docker is None:
        return []
    listing = subprocess.run(  # noqa: S603 - fixed argv
        [docker, *command, "--filter", f"label={label}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return listing.stdout.split()


@dataclass
class Arena:
    """One test's matches on one backend."""

    backend_name: str
    workdir: Path
    marker: str = field(default_factory=new_marker)
    cgroups: list[BoxCgroup] = field(default_factory=list)

    def sandbox(self) -> str | Backend:
        if self.backend_name == "docker":
            from sandbox.backends.docker import DockerBackend

            return DockerBackend(labels={TEST_LABEL: self.marker})
        if self.backend_name in ("bwrap", FORK_SERVER):
            return BwrapBackend(fork_server=self.backend_name == FORK_SERVER)
        return self.backend_name

    def program(
        self,
        path: Path,
        *,
        extra: Mapping[str, bytes] | None = None,
        marker: str | None = None,
        **params: Any,
    ) -> Program:
        """A packed bot from a file; its params always include the test's marker."""
        params = {"marker": marker or self.marker, "attack_turn": 2, **params}
        package = pack(path.read_bytes(), params, extra)
        return Program(bot_id=path.stem, package=package, filename=f"{path.stem}.zip")

    def hostile(self, name: str, **params: Any) -> Program:
        return self.program(HOSTILE / f"{name}.py", **params)

    def bot(self, name: str, **params: Any) -> Program:
        return self.program(BOTS / f"{name}.py", **params)

    def play(
        self,
        *programs: Program,
        limits: Mapping[str, Any] | None = None,
        seed: int = 1,
        watch: Callable[[], None] | None = None,
    ) -> MatchRecord:
        """Play a match; fail if it hangs; check at once that it left nothing behind.

        `watch` is called every few milliseconds while the match runs.
        """
        outcome: list[MatchRecord | BaseException] = []

        def match() -> None:
            try:
                outcome.append(
                    run_match(
                        game_id=GAME,
                        seed=seed,
                        options={},
                        programs=programs,
                        sandbox=self.sandbox(),
                        limits={**FAST_LIMITS, **(limits or {})},
                        workdir=self.workdir,
                    )
                )
            except BaseException as error:  # handed to the test's thread
                outcome.append(error)

        thread = threading.Thread(target=match, daemon=True)
        deadline = time.monotonic() + MATCH_SECONDS
        thread.start()
        while thread.is_alive() and time.monotonic() < deadline:
            if watch is not None:
                watch()
            thread.join(0.02)
        if thread.is_alive():
            pytest.fail(f"the match did not finish within {MATCH_SECONDS:.0f} s")
        result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        self.assert_nothing_left()
        return result

    def assert_nothing_left(self) -> None:
        assert processes_marked(self.marker) == []
        assert self.cgroups_left() == []
        assert list(self.workdir.iterdir()) == []
        assert self.copies_left() == []
        if self.backend_name == "docker":
            assert docker_containers(f"{TEST_LABEL}={self.marker}") == []
            assert docker_volumes(f"{TEST_LABEL}={self.marker}") == []

    def copies_left(self) -> list[Path]:
        """Copies of this test's bots that a backend made elsewhere (bwrap, run by root,
        copies each bot to a folder of the system's temporary folder)."""
        left = []
        # Folder by folder: another test's box may vanish while it is read (a glob over
        # the shared temporary folder fails when one does).
        # A fork server's boxes are one level deeper, in its staging folder.
        for parent in Path(tempfile.gettempdir()).glob("agon-*"):
            with contextlib.suppress(OSError):
                folders = list(parent.iterdir())
                with contextlib.suppress(OSError):
                    for folder in list(folders):
                        if folder.is_dir() and folder.name.startswith("agon-"):
                            folders += list(folder.iterdir())
                for params in [folder / "params.json" for folder in folders]:
                    with contextlib.suppress(OSError):
                        if self.marker in params.read_text():
                            left.append(params.parent)
        return left

    def cgroups_left(self) -> list[Path]:
        left = []
        for cgroup in self.cgroups:
            assert cgroup.name.startswith("agon-box-")
            left += [folder for folder in cgroup.folders.values() if folder.exists()]
            left += list(CGROUP_ROOT.glob(f"*/agon/{cgroup.name}"))
            left += list(CGROUP_ROOT.glob(f"agon/{cgroup.name}"))
        return left


def record_cgroups(monkeypatch: pytest.MonkeyPatch, into: list[BoxCgroup]) -> None:
    """Keep every BoxCgroup this process makes from now on in `into`."""
    original = BoxCgroup.__init__

    @functools.wraps(original)
    def recording_init(self: BoxCgroup, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        into.append(self)

    monkeypatch.setattr(BoxCgroup, "__init__", recording_init)


class LingeringBox:
    """A box on real pipes whose program the test plays: it exits when told to."""

    def __init__(self) -> None:
        self._stdin_read, stdin_write = os.pipe()
        self.stdin = os.fdopen(stdin_write, "wb")
        self.stdout_fd, self._stdout_write = os.pipe()
        self.stderr_fd, self._stderr_write = os.pipe()
        self.code: int | None = None
        self.closed = False
        self.frozen = False

    def told(self) -> bytes:
        os.set_blocking(self._stdin_read, False)
        try:
            return os.read(self._stdin_read, 65536)
        except BlockingIOError:
            return b""

    def leave(self) -> None:
        os.write(self._stderr_write, b"bye\n")
        os.close(self._stdout_write)
        os.close(self._stderr_write)
        self.code = 0

    def freeze(self) -> None:
        self.frozen = True

    def thaw(self) -> None:
        self.frozen = False

    def exit_code(self) -> int | None:
        return self.code

    def oom_killed(self) -> bool:
        return False

    def memory_peak(self) -> int | None:
        return None

    def close(self) -> None:
        self.closed = True
        os.close(self._stdin_read)
        self.stdin.close()
        if self.code is None:
            os.close(self._stdout_write)
            os.close(self._stderr_write)
