"""Tries to run between its turns, in case the box is stopped one process at a time:
three helper processes send SIGCONT without pause to the bot and to each other, and
the bot's own thread resumes the helpers, so one left running a moment too long
resumes them all. That thread watches the clock, and each turn the bot reports how
long it was kept from running (as bots/stopwatch.py does).
Expected: the bot is stopped between its turns all the same."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from agon_bot import Bot, log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
HELPERS = 3


def resume(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


def helper(pids: list[int]) -> NoReturn:
    others = [pid for pid in pids if pid != os.getpid()]
    while True:
        resume(others)


def start_helpers() -> list[int]:
    """Each helper learns every pid of the group through a pipe of its own."""
    pids, tell = [os.getpid()], []
    for _ in range(HELPERS):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            with os.fdopen(read_end) as pipe:
                helper([int(word) for word in pipe.read().split()])
        os.close(read_end)
        pids.append(pid)
        tell.append(write_end)
    for write_end in tell:
        os.write(write_end, " ".join(map(str, pids)).encode())
        os.close(write_end)
    return pids[1:]


class ResumingBot(Bot):
    def __init__(self) -> None:
        self.pauses: list[tuple[float, float]] = []
        self.helpers = start_helpers()
        threading.Thread(target=self.watch, daemon=True).start()

    def watch(self) -> None:
        """Note every pause of more than 20 ms; keep the helpers going."""
        last = time.monotonic()
        while True:
            now = time.monotonic()
            if now - last > 0.02:
                self.pauses.append((last, now))
            last = now
            resume(self.helpers)
            time.sleep(0.001)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        began = time.monotonic()
        pauses, self.pauses = self.pauses, []
        time.sleep(PARAMS["turn_seconds"])
        report = {"began": began, "pauses": pauses, "ended": time.monotonic()}
        log("REPORT " + json.dumps(report))
        return legal_actions[0]

    def end(self, result: dict[str, Any]) -> None:
        time.sleep(0.05)  # the thread notes the last pause once it runs
        pauses, self.pauses = self.pauses, []
        log("REPORT " + json.dumps({"pauses": pauses}))


if __name__ == "__main__":
    run(ResumingBot())
