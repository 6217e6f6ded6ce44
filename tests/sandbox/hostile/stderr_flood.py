"""Writes far more log than it may keep, on every turn, and plays on.
Expected: no fault; the log is cut at `log_bytes` with a note of what was dropped."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    sys.stderr.buffer.write(b"L" * PARAMS["flood_bytes"])
    sys.stderr.buffer.flush()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
