"""Walks the whole file system (but /proc and /sys) and fills every folder it can write
to, keeping what it wrote until it has tried them all; then creates POSIX message queues
and fills them. Also checks that what Python needs of /dev and /dev/shm still works.
Expected: everything it could store comes to no more than `scratch_bytes` in total,
and no message queue can be made."""

from __future__ import annotations

import ctypes
import itertools
import json
import multiprocessing
import os
import tempfile
from collections.abc import Sequence
from multiprocessing import shared_memory
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
SKIPPED = ("/proc", "/sys")
PLACE_CAP = PARAMS["place_cap_bytes"]
"""At most this much per folder: enough to see a folder hold more than the limit."""
CHUNK = 64 * 1024
FILES = itertools.count()
"""Numbers each file: two folders may be one (Docker's /tmp and /dev/shm)."""


def fill(folder: str) -> int | None:
    """Bytes stored in a new file of `folder` (left there), or None if none could be made."""
    path = os.path.join(folder, f".agon-{PARAMS['marker']}-{next(FILES)}")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return None
    written = 0
    try:
        while written < PLACE_CAP:
            written += os.write(fd, b"\1" * CHUNK)
    except OSError:
        pass  # full
    finally:
        os.close(fd)
    return written


def fill_everything() -> dict[str, int]:
    stored = {}
    for folder, subfolders, _ in os.walk("/"):
        subfolders[:] = [name for name in subfolders if os.path.join(folder, name) not in SKIPPED]
        written = fill(folder)
        if written is not None:
            stored[folder] = written
    return stored


def fill_message_queues() -> dict[str, Any]:
    """POSIX message queues need no mounted /dev/mqueue: mq_open is a system call."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mq_open.restype = ctypes.c_int
    queue = libc.mq_open(
        f"/agon-{PARAMS['marker']}".encode(), os.O_CREAT | os.O_RDWR | os.O_NONBLOCK, 0o600, None
    )
    if queue < 0:
        return {"created": False, "error": os.strerror(ctypes.get_errno())}
    sent, message = 0, b"\1" * 1024
    while libc.mq_send(queue, message, len(message), 0) == 0:
        sent += len(message)
    return {"created": True, "bytes": sent}


def write_dev_null() -> None:
    with open("/dev/null", "wb") as sink:
        sink.write(b"x")


def read_dev_urandom() -> None:
    with open("/dev/urandom", "rb") as source:
        assert len(source.read(16)) == 16


def ask_for_random_bytes() -> None:
    assert len(os.urandom(16)) == 16


def use_a_lock() -> None:
    """A semaphore in /dev/shm."""
    lock = multiprocessing.Lock()
    with lock:
        pass


def share_memory() -> None:
    block = shared_memory.SharedMemory(create=True, size=4096)
    block.close()
    block.unlink()


def use_tempfile() -> None:
    with tempfile.TemporaryFile() as file:
        file.write(b"x")


def python_needs() -> dict[str, str]:
    """What the standard library needs of /dev and /dev/shm: each check, "ok" or its error."""
    outcome = {}
    checks = (
        write_dev_null,
        read_dev_urandom,
        ask_for_random_bytes,
        use_a_lock,
        share_memory,
        use_tempfile,
    )
    for check in checks:
        try:
            check()
            outcome[check.__name__] = "ok"
        except Exception as error:
            outcome[check.__name__] = f"{type(error).__name__}: {error}"
    return outcome


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        needs_with_room = python_needs()
        stored = fill_everything()
        log(
            "REPORT "
            + json.dumps(
                {
                    "stored": stored,
                    "message_queues": fill_message_queues(),
                    "python_needs": needs_with_room,
                }
            )
        )
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
