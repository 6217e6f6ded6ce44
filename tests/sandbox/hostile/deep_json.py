"""Answers one turn with valid JSON nested 8,000 deep (16 KB, under the line limit),
which Python's JSON decoder cannot follow. Expected: `bad_output`, like any other
answer the referee cannot read; not a crash of the referee, nor of the bot."""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
DEPTH = 8_000


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        sys.stdout.write('{"action": ' + "[" * DEPTH + "]" * DEPTH + "}\n")
        sys.stdout.flush()
        time.sleep(3600)  # that line is this turn's whole answer
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
