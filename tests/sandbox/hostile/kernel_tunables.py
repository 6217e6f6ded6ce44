"""Opens the host kernel's knobs for writing (never writes): core_pattern (a program
the host runs as root on every crash), modprobe, drop_caches, sysrq-trigger; and
creates a user namespace of its own, which would make it root again inside it.
Expected: each is refused; the box's processes are not root on the host."""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
CLONE_NEWUSER = 0x10000000
KNOBS = [
    "/proc/sys/kernel/core_pattern",
    "/proc/sys/kernel/modprobe",
    "/proc/sys/vm/drop_caches",
    "/proc/sysrq-trigger",
]


def open_for_writing(path: str) -> str:
    try:
        os.close(os.open(path, os.O_WRONLY))
    except OSError as error:
        return f"refused: {type(error).__name__}: {error}"
    return "writable"


def new_user_namespace() -> str:
    pid = os.fork()
    if pid == 0:  # os.unshare is Python 3.12's; the box may have an older one
        os._exit(ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWUSER))
    _, status = os.waitpid(pid, 0)
    return "created" if os.waitstatus_to_exitcode(status) == 0 else "refused"


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        knobs = {path: open_for_writing(path) for path in KNOBS}
        log("REPORT " + json.dumps({"knobs": knobs, "user_namespace": new_user_namespace()}))
        time.sleep(PARAMS["linger_seconds"])  # the test looks at the box's processes meanwhile
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
