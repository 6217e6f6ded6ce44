"""Spins the CPU forever on one turn. Expected: a `timeout` fault on that turn."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        log("REPORT " + json.dumps({"spinning": True}))
        while True:
            pass
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
