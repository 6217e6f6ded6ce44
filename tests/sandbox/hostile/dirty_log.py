"""Writes bytes no text column holds to its log on every turn (NUL, invalid UTF-8, an
encoded lone surrogate, control characters), then `params["flood_bytes"]` more, and
plays on. Expected: no fault, and the log's first `log_bytes` kept byte for byte."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
DIRT = b"\x00nul \xff\xfe invalid \xed\xa0\x80 surrogate \x1b[31m\x07\r\n"


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    sys.stderr.buffer.write(DIRT + b"\x00" * PARAMS["flood_bytes"])
    sys.stderr.buffer.flush()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
