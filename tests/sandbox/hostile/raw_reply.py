"""Answers one turn with the raw line `params["line"]`: JSON the decoder chokes on in
ways other than a syntax error (an integer of thousands of digits, a float too large for
a double, NaN, nesting deep enough to break the encoder, a lone surrogate).
Expected: `bad_output` (or `illegal_action` for a well-formed action the rules refuse),
never `crash`, and a fault detail that is bounded and printable."""

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
        sys.stdout.write(PARAMS["line"] + "\n")
        sys.stdout.flush()
        time.sleep(3600)  # that line is this turn's whole answer
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
