"""On one turn, closes its stdout but stays alive (it sleeps, holding nothing else).
Expected: a `crash` fault at once, not after the whole turn's allowance: the referee
sees stdout's end as soon as the bot has closed it, whatever launched the bot."""

from __future__ import annotations

import itertools
import json
import os
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
        sys.stdout.flush()
        os.close(1)
        time.sleep(3600)
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
