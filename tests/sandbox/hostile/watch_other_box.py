"""Tries to see the other bot think: at each of its turns it reads every file of /proc
and /sys it can (but its own processes' and its own cgroup's) and what sysinfo(2) says,
and compares how each number moved between its turns with what the other bot did
meanwhile (it works hard on its odd turns and rests on its even ones).
Expected: nothing it can read moves at all between its turns, let alone with the other
bot's work; the box shows one CPU and the box's own memory limit."""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
NUMBER = re.compile(rb"-?\d+")
UNREADABLE = {"kmsg", "kcore", "pagemap", "trace_pipe"}
"""Files that block, or are huge, when read."""
RANDOM = {"/proc/sys/kernel/random/uuid"}
"""Files that differ at every read, whatever anyone does."""


def own(path: str) -> bool:
    """Whether the file shows this box itself: its processes, its network namespace (one
    loopback), or the counters of its own cgroup (mounted at /sys/fs/cgroup/<controller>)."""
    parts = path.split("/")
    if parts[1] == "proc" and len(parts) > 2:
        return parts[2].isdigit() or parts[2] in ("self", "thread-self", "net")
    return parts[1:4] == ["sys", "fs", "cgroup"] and len(parts) <= 5


def readable_files() -> Iterator[str]:
    for top in ("/proc", "/sys"):
        for folder, subfolders, files in os.walk(top):
            subfolders[:] = [name for name in subfolders if not own(f"{folder}/{name}/")]
            for name in files:
                path = f"{folder}/{name}"
                if name not in UNREADABLE and path not in RANDOM and not own(path):
                    yield path


def read(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return os.read(fd, 1 << 20)
    except OSError:
        return None
    finally:
        os.close(fd)


class Sysinfo(ctypes.Structure):
    _fields_ = [
        ("uptime", ctypes.c_long),
        ("loads", ctypes.c_ulong * 3),
        ("totalram", ctypes.c_ulong),
        ("freeram", ctypes.c_ulong),
        ("sharedram", ctypes.c_ulong),
        ("bufferram", ctypes.c_ulong),
        ("totalswap", ctypes.c_ulong),
        ("freeswap", ctypes.c_ulong),
        ("procs", ctypes.c_ushort),
        ("padding", ctypes.c_char * 22),
    ]


def sysinfo() -> bytes | None:
    """sysinfo(2) but its uptime (the wall clock, which the box sees anyway)."""
    info = Sysinfo()
    if ctypes.CDLL(None, use_errno=True).sysinfo(ctypes.byref(info)) != 0:
        return None
    fields = [*info.loads, info.freeram, info.sharedram, info.bufferram, info.freeswap, info.procs]
    return " ".join(map(str, fields)).encode()


def snapshot() -> dict[str, bytes]:
    found = {path: read(path) for path in readable_files()}
    found["sysinfo()"] = sysinfo()
    return {path: content for path, content in found.items() if content is not None}


def compare(snapshots: list[dict[str, bytes]]) -> dict[str, list[str]]:
    """What moved between turns, and which numbers moved with the other bot's work:
    every move while it worked above (or below) every move while it rested.
    The first interval, which holds the other bot's start, is left out."""
    moved, followed = set(), []
    for path in sorted(set.intersection(*(set(s) for s in snapshots))):
        contents = [s[path] for s in snapshots]
        if len(set(contents)) == 1:
            continue
        moved.add(path)
        numbers = [[int(n) for n in NUMBER.findall(c)] for c in contents]
        if len({len(n) for n in numbers}) != 1:
            continue
        for index in range(len(numbers[0])):
            moves = [after[index] - before[index] for before, after in itertools.pairwise(numbers)]
            busy, rest = moves[1::2], moves[2::2]
            if min(busy) > max(rest) or max(busy) < min(rest):
                followed.append(f"{path} #{index}")
    return {"moved": sorted(moved), "followed": followed}


def meminfo_total_bytes() -> int | None:
    for line in (read("/proc/meminfo") or b"").decode().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return None


SNAPSHOTS: list[dict[str, bytes]] = []


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    turn = next(TURNS)
    if turn <= PARAMS["report_turn"]:
        SNAPSHOTS.append(snapshot())
    if turn == PARAMS["report_turn"]:
        log(
            "REPORT "
            + json.dumps(
                {
                    "files": len(SNAPSHOTS[0]),
                    **compare(SNAPSHOTS),
                    "cpu_count": os.cpu_count(),
                    "memory_bytes": meminfo_total_bytes(),
                }
            )
        )
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
