"""Spins a thread from the moment it starts; at its first turn reports the CPU time the
process has used so far. A box that is not held still before its first turn would have
spun all the while the seats before it thought."""

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


def spin() -> None:
    while True:
        pass


threading.Thread(target=spin, daemon=True).start()


class EarlySpinner(Bot):
    reported = False

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        if not self.reported:
            log("REPORT " + json.dumps({"cpu_seconds": time.process_time()}))
            self.reported = True
        return legal_actions[0]


run(EarlySpinner())
