"""Says on its log which turn it is playing, every turn (after a line at start-up); on
`params["dirty_turn"]` it also writes bytes no text column holds, and on
`params["flood_turn"]` `params["flood_bytes"]` more."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
DIRT = b"\x00nul \xff\xfe invalid \x1b[31m\n"
turns = 0


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    global turns
    sys.stderr.buffer.write(f"turn {turns}\n".encode())
    if turns == PARAMS.get("dirty_turn"):
        sys.stderr.buffer.write(DIRT)
    if turns == PARAMS.get("flood_turn"):
        sys.stderr.buffer.write(b"F" * PARAMS["flood_bytes"])
    sys.stderr.buffer.flush()
    turns += 1
    return legal_actions[0]


if __name__ == "__main__":
    sys.stderr.write("starting\n")
    sys.stderr.flush()
    run(act)
