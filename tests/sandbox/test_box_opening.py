"""A match's boxes are opened at the same time, each held still once open, and none is
left open when one of them cannot be opened (`sandbox.runner.open_boxes`)."""

from __future__ import annotations

import contextlib
import ctypes
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from sandbox.backends import BoxSpec, SandboxError
from sandbox.limits import limits_for
from sandbox.runner import open_boxes
from tests.sandbox.support import GAME, LingeringBox

LIMITS = limits_for(GAME)
WAIT_SECONDS = 30.0
"""How long a box's opening waits for the other's to begin: any machine's, one after the
other it waits for ever."""


class MeetingBackend:
    """Each opening waits until every seat's opening has begun."""

    name = "meeting"

    def __init__(self, seats: int, failing: str | None = None) -> None:
        self.meeting = threading.Barrier(seats, timeout=WAIT_SECONDS)
        self.failing = failing
        self.boxes: list[LingeringBox] = []

    def check(self) -> None:
        pass

    def open(self, spec: BoxSpec) -> LingeringBox:
        self.meeting.wait()
        if spec.label == self.failing:
            raise SandboxError("no room for this box")
        box = LingeringBox()
        self.boxes.append(box)
        return box


PR_SET_PDEATHSIG = 1


class ThreadBoundBackend(MeetingBackend):
    """Each box holds a process that dies with the thread that started it, as
    bubblewrap's does (--die-with-parent sets PR_SET_PDEATHSIG, which follows the
    starting thread, not the process)."""

    def __init__(self, seats: int) -> None:
        super().__init__(seats)
        self.processes: list[subprocess.Popen[bytes]] = []

    def open(self, spec: BoxSpec) -> LingeringBox:
        libc = ctypes.CDLL(None, use_errno=True)
        process = subprocess.Popen(
            ["sleep", "60"],  # noqa: S607
            preexec_fn=lambda: libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0),
        )
        self.processes.append(process)
        return super().open(spec)


def specs(tmp_path: Path, seats: int) -> dict[int, BoxSpec]:
    return {seat: BoxSpec(tmp_path, LIMITS, label=f"seat{seat}") for seat in range(seats)}


def test_the_seats_boxes_open_at_the_same_time(tmp_path: Path) -> None:
    backend = MeetingBackend(3)
    with contextlib.ExitStack() as cleanup:
        bots = open_boxes(backend, specs(tmp_path, 3), LIMITS, cleanup)  # type: ignore[arg-type]
        assert sorted(bots) == [0, 1, 2]
        assert not any(box.closed for box in backend.boxes)
        assert all(box.frozen for box in backend.boxes)  # held still from the start
    assert all(box.closed for box in backend.boxes)  # cleanup closes every one


def test_a_box_that_cannot_open_leaves_none_of_the_others_open(tmp_path: Path) -> None:
    backend = MeetingBackend(3, failing="seat1")
    with pytest.raises(SandboxError, match="no room"), contextlib.ExitStack() as cleanup:
        open_boxes(backend, specs(tmp_path, 3), LIMITS, cleanup)  # type: ignore[arg-type]
    assert len(backend.boxes) == 2 and all(box.closed for box in backend.boxes)


def test_one_box_opens_without_a_thread(tmp_path: Path) -> None:
    backend = MeetingBackend(1)
    with contextlib.ExitStack() as cleanup:
        bots = open_boxes(backend, specs(tmp_path, 1), LIMITS, cleanup)  # type: ignore[arg-type]
        assert list(bots) == [0]
    assert backend.boxes[0].closed


def test_a_box_outlives_the_thread_that_opened_it_until_it_is_closed(tmp_path: Path) -> None:
    backend = ThreadBoundBackend(2)
    try:
        with contextlib.ExitStack() as cleanup:
            open_boxes(backend, specs(tmp_path, 2), LIMITS, cleanup)  # type: ignore[arg-type]
            time.sleep(0.2)  # a signal on the thread's end has come by now
            assert [process.poll() for process in backend.processes] == [None, None]
    finally:
        for process in backend.processes:
            process.kill()
            process.wait()
