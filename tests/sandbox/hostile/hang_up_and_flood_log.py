"""On one turn, closes its stdout (the referee may see the program end) but stays alive,
writing its log without end from several threads at once, so the log pipe is never
empty. Expected: a `crash` fault, promptly."""

from __future__ import annotations

import itertools
import json
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def pour() -> NoReturn:
    junk = b"z" * 65536
    while True:
        os.write(2, junk)


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        sys.stdout.flush()
        os.close(1)
        for _ in range(3):
            threading.Thread(target=pour, daemon=True).start()
        pour()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
