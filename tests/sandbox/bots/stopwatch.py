"""Watches the clock without pause in a thread of its own, noting every time it was
kept from running for more than 20 ms; each turn reports those pauses and when the
turn began and ended. Between its turns it must be stopped: one long pause."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import Bot, log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])


class Stopwatch:
    def __init__(self) -> None:
        self.pauses: list[tuple[float, float]] = []

    def run(self) -> None:
        last = time.monotonic()
        while True:
            now = time.monotonic()
            if now - last > 0.02:
                self.pauses.append((last, now))
            last = now

    def take_pauses(self) -> list[tuple[float, float]]:
        taken, self.pauses = self.pauses, []
        return taken


class StopwatchBot(Bot):
    def __init__(self) -> None:
        self.stopwatch = Stopwatch()
        threading.Thread(target=self.stopwatch.run, daemon=True).start()

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        began = time.monotonic()
        pauses = self.stopwatch.take_pauses()
        time.sleep(PARAMS["turn_seconds"])
        report = {"began": began, "pauses": pauses, "ended": time.monotonic()}
        log("REPORT " + json.dumps(report))
        return legal_actions[0]

    def end(self, result: dict[str, Any]) -> None:
        time.sleep(0.05)  # the thread notes the last pause once it runs
        log("REPORT " + json.dumps({"pauses": self.stopwatch.take_pauses()}))


if __name__ == "__main__":
    run(StopwatchBot())
