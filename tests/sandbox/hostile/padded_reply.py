"""Answers one turn with a legal action followed by `params["padding"]` bytes of
whitespace (under the old 1 MiB line limit), written `params["piece"]` bytes at a time:
JSON allows it, and the referee read, kept and parsed all of it. Expected: an
`output_limit` fault as soon as the line passes `message_bytes`, which no game's action
comes near."""

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


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        sys.stdout.write(json.dumps({"action": legal_actions[0]}))
        left = PARAMS["padding"]
        while left > 0:
            piece = min(PARAMS["piece"], left)
            sys.stdout.write(" " * piece)
            sys.stdout.flush()
            left -= piece
        sys.stdout.write("\n")
        sys.stdout.flush()
        time.sleep(3600)  # that line is this turn's whole answer
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
