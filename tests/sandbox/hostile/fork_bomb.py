"""A fork bomb: every process forks for as long as it can, and keeps trying.
Expected: the box never holds more than `pids` processes; the match finishes, with
this seat faulted for a crash or a timeout or playing on unharmed."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def multiply() -> NoReturn:
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.01)


def bomb() -> None:
    forked, refusal = 0, ""
    while not refusal:
        try:
            pid = os.fork()
        except OSError as error:
            refusal = f"{type(error).__name__}: {error}"
            continue
        if pid == 0:
            multiply()
        forked += 1
    time.sleep(0.3)  # let the others fill every free slot
    processes = [name for name in os.listdir("/proc") if name.isdigit()]
    log("REPORT " + json.dumps({"forked": forked, "refusal": refusal, "seen": len(processes)}))


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        bomb()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
