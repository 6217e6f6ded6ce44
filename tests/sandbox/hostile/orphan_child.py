"""Leaves a long sleeper behind: double fork, new session, exec with the marker in argv.
Expected: nothing of the box survives the match.

The turn that leaves it waits until the sleeper says it is up, then lingers a little, so
that the test, watching the host's processes every few milliseconds, sees it alive."""

from __future__ import annotations

import itertools
import json
import os
import select
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
SLEEPER = (
    "import os, signal, sys, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "os.write(int(sys.argv[1]), b'up')\n"
    "time.sleep(1000)"
)
LINGER_SECONDS = 0.25
"""Well within the turn's 0.5 s: the test polls the host's processes every 20 ms."""


def leave_a_child() -> None:
    ready, up = os.pipe()
    os.set_inheritable(up, True)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            argv = [sys.executable, "-c", SLEEPER, str(up), PARAMS["marker"]]
            os.execv(sys.executable, argv)  # noqa: S606
        os._exit(0)
    os.close(up)
    os.wait()
    is_up = bool(select.select([ready], [], [], 2)[0]) and os.read(ready, 2) == b"up"
    time.sleep(LINGER_SECONDS)
    log("REPORT " + json.dumps({"left": "a sleeper", "up": is_up}))


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        leave_a_child()
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
