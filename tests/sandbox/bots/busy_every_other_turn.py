"""A bot whose work can be told apart turn by turn: on its odd turns it computes for
`busy_seconds`, takes `busy_bytes` of memory (given back on its next turn), starts a
child process and opens files; on its even turns it answers at once."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
HELD: list[bytearray] = []


def work() -> None:
    HELD.append(bytearray(b"\1" * PARAMS["busy_bytes"]))
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    for _ in range(200):
        with open(__file__, "rb") as file:
            file.read()
    deadline = time.process_time() + PARAMS["busy_seconds"]
    while time.process_time() < deadline:
        pass


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) % 2 == 1:
        work()
    else:
        HELD.clear()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
