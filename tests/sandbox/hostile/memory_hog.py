"""Grabs memory until something stops it. Expected: a `memory` fault on that turn."""

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
CHUNK = 8 * 1024 * 1024


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        hoard = []
        while True:
            hoard.append(b"\x01" * CHUNK)  # written, so really resident
            log("REPORT " + json.dumps({"held_bytes": len(hoard) * CHUNK}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
