"""Tries the exact page-cache channel on a file every box shares (the standard library's
os.py, in the host's /usr or the image's layers): evicts it with fadvise(DONTNEED),
reads without waiting for the disk (preadv2 with RWF_NOWAIT fails with EAGAIN on a page
not in memory), asks mincore and cachestat which pages are in memory, and loads them with
readahead. Expected: every call refused with ENOSYS."""

from __future__ import annotations

import ctypes
import errno
import itertools
import json
import mmap
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
NUMBERS: dict[str, int] = PARAMS["numbers"]
POSIX_FADV_DONTNEED, RWF_NOWAIT = 4, 0x8
PAGE = mmap.PAGESIZE
PROT_READ, MAP_SHARED = 1, 1
LIBC.mmap.restype = ctypes.c_void_p
LIBC.mmap.argtypes = [
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_long,
]


class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def call(name: str, *arguments: Any) -> str:
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(NUMBERS[name]), *arguments)
    if result == -1:
        number = ctypes.get_errno()
        return f"refused: {errno.errorcode.get(number, number)}"
    return f"answered: {result}"


def try_the_channel(fd: int, address: int, size: int) -> dict[str, str]:
    page = ctypes.create_string_buffer(PAGE)
    vector = IoVec(ctypes.addressof(page), PAGE)
    residency = ctypes.create_string_buffer((size + PAGE - 1) // PAGE)
    whole_file = (ctypes.c_uint64 * 2)(0, 0)
    statistics = ctypes.create_string_buffer(5 * 8)
    fd_ = ctypes.c_long(fd)
    return {
        "fadvise DONTNEED": call("fadvise64", fd_, 0, ctypes.c_long(0), POSIX_FADV_DONTNEED),
        "preadv2 RWF_NOWAIT": call(
            "preadv2", fd_, ctypes.byref(vector), 1, ctypes.c_long(0), 0, RWF_NOWAIT
        ),
        "mincore": call("mincore", ctypes.c_void_p(address), ctypes.c_size_t(size), residency),
        "cachestat": call("cachestat", fd_, whole_file, statistics, 0),
        "readahead": call("readahead", fd_, ctypes.c_long(0), ctypes.c_size_t(size)),
    }


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        with open(os.__file__, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            address = LIBC.mmap(None, size, PROT_READ, MAP_SHARED, file.fileno(), 0)
            found = try_the_channel(file.fileno(), address, size)
            LIBC.munmap(ctypes.c_void_p(address), ctypes.c_size_t(size))
        log("REPORT " + json.dumps(found))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
