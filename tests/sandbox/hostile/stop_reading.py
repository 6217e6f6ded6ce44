"""Shrinks its stdin pipe to one page, answers one turn by hand and then never reads
again, so the referee's next turn message (more than a page by then) cannot be
written whole. Expected: a `timeout` on that turn, as for any bot that does not
answer; the referee must not wait on the write for ever."""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
F_SETPIPE_SZ, F_GETPIPE_SZ = 1031, 1032


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        sys.stdout.write(json.dumps({"action": legal_actions[0]}) + "\n")
        sys.stdout.flush()
        time.sleep(3600)  # never back to reading stdin
    return legal_actions[0]


if __name__ == "__main__":
    with contextlib.suppress(OSError):
        fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
    log("REPORT " + json.dumps({"stdin_pipe_bytes": fcntl.fcntl(0, F_GETPIPE_SZ)}))
    run(act)
