"""Leaves a long sleeper behind: double fork, new session, exec with the marker in argv.
Expected: nothing of the box survives the match."""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
SLEEPER = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(1000)"


def leave_a_child() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", SLEEPER, PARAMS["marker"]])  # noqa: S606
        os._exit(0)
    os.wait()
    log("REPORT " + json.dumps({"left": "a sleeper"}))


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        leave_a_child()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
