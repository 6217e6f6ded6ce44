"""Searches the whole file system for the other bot's code: file names everywhere, file
contents everywhere but the system's /usr (there, the contents of any folder holding a
main.py), and every visible process's command line and environment.
Expected: the other bot's secret is nowhere to be found."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
NEEDLE = PARAMS["needle_reversed"][::-1].encode()
SKIPPED = ("/proc", "/sys", "/dev")


def walk() -> Iterator[tuple[str, list[str]]]:
    for folder, subfolders, files in os.walk("/"):
        subfolders[:] = [name for name in subfolders if os.path.join(folder, name) not in SKIPPED]
        yield folder, subfolders + files


def holds_needle(path: str) -> bool:
    try:
        if os.path.islink(path) or not os.path.isfile(path) or os.path.getsize(path) > 8 << 20:
            return False
        with open(path, "rb") as file:
            return NEEDLE in file.read()
    except OSError:
        return False


def search() -> dict[str, Any]:
    started, found, read = time.monotonic(), [], 0
    for folder, names in walk():
        found += [os.path.join(folder, name) for name in names if NEEDLE in name.encode()]
        system = folder == "/usr" or folder.startswith("/usr/")
        if system and "main.py" not in names:
            continue
        for name in names:
            read += 1
            if holds_needle(os.path.join(folder, name)):
                found.append(os.path.join(folder, name))
    for pid in filter(str.isdigit, os.listdir("/proc")):
        for part in ("cmdline", "environ"):
            read += 1
            if holds_needle(f"/proc/{pid}/{part}"):
                found.append(f"/proc/{pid}/{part}")
    return {"found": found, "read": read, "seconds": round(time.monotonic() - started, 2)}


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        log("REPORT " + json.dumps(search()))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
