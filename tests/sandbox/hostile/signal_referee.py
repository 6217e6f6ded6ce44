"""Sends SIGKILL to its parent (if it can see it), to pid 1, to every process it may
signal (-1) and to the test's own pid. Expected: nothing outside the box is touched;
the match finishes."""

from __future__ import annotations

import itertools
import json
import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def send(pid: int) -> str:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as error:
        return f"{type(error).__name__}: {error}"
    return "sent"


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        targets = {"init": 1, "all": -1, "test": PARAMS["test_pid"]}
        if os.getppid() > 0:  # 0: the parent lives outside this pid namespace
            targets["parent"] = os.getppid()
        outcome = {name: send(pid) for name, pid in targets.items()}
        log("REPORT " + json.dumps({"targets": targets, "outcome": outcome}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
