"""Makes each system call of `params["calls"]` ({name: [number, [argument, ...]]}) once,
with harmless arguments (an argument {"buffer": N} is N zero bytes), and reports the
error number each gave (0: it was carried out); then does what a Python bot does: file
I/O with os.preadv and os.pwritev, a thread, a child process, a memory map, NumPy.
Expected: exactly the refused calls fail with ENOSYS, and the rest of Python works."""

from __future__ import annotations

import ctypes
import itertools
import json
import mmap
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long


def argument(value: int | dict[str, int]) -> Any:
    if isinstance(value, dict):
        return ctypes.create_string_buffer(value["buffer"])
    return ctypes.c_long(value)


def error_number(number: int, arguments: Sequence[int | dict[str, int]]) -> int:
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(number), *(argument(value) for value in arguments))
    return ctypes.get_errno() if result == -1 else 0


def file_io() -> None:
    path = "/tmp/probe"  # noqa: S108 - the box's own scratch
    with open(path, "w+b") as file:
        file.write(b"abc" * 1000)
        file.flush()
        os.pwritev(file.fileno(), [b"xyz"], 0)
        buffer = bytearray(3)
        os.preadv(file.fileno(), [buffer], 0)
        assert buffer == b"xyz", buffer
        with mmap.mmap(file.fileno(), 0) as mapped:
            assert mapped[3:6] == b"abc"
    os.remove(path)


def thread() -> None:
    seen: list[int] = []
    worker = threading.Thread(target=lambda: seen.append(threading.get_native_id()))
    worker.start()
    worker.join()
    assert seen


def child_process() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 7


def numpy() -> None:
    import numpy as np

    product = np.ones((300, 300)) @ np.ones((300, 300))
    assert product[0, 0] == 300
    assert np.linalg.solve(np.eye(3) * 2, np.ones(3)).tolist() == [0.5, 0.5, 0.5]


PYTHON: dict[str, Callable[[], object]] = {
    "file_io": file_io,
    "thread": thread,
    "child_process": child_process,
    "numpy": numpy,
    "urandom": lambda: os.urandom(16) and None,  # getrandom(2)
}


def python_works() -> dict[str, str]:
    outcome = {}
    for name, check in PYTHON.items():
        try:
            check()
        except Exception as error:  # reported, not raised: the test names what broke
            outcome[name] = f"{type(error).__name__}: {error}"
        else:
            outcome[name] = "ok"
    return outcome


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        errors = {
            name: error_number(number, arguments)
            for name, (number, arguments) in PARAMS["calls"].items()
        }
        log("REPORT " + json.dumps({"errno": errors, "python": python_works()}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
