"""Writes to stdout without end (and without a newline) on one turn.
Expected: an `output_limit` fault; the referee's memory stays bounded."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        junk = b"x" * 65536
        while True:
            sys.stdout.buffer.write(junk)
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
