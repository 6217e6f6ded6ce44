"""Exits in the middle of the match. Expected: a `crash` fault naming the exit code."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        log("leaving now")
        sys.exit(PARAMS["exit_code"])
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
