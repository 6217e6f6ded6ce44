"""A bot that takes its time: `startup_seconds` before it starts, then on each turn the
seconds `sleep_on_turns` names for it (by the bot's own turn index, from 0), or else
`seconds_per_turn` from turn `slow_from_turn` on. Reports what each turn told it."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import Bot, log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])


class SlowBot(Bot):
    turns = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        turn, self.turns = self.turns, self.turns + 1
        log("REPORT " + json.dumps({"turn": turn, "time_left_ms": self.time_left_ms}))
        delay = PARAMS.get("sleep_on_turns", {}).get(str(turn))
        if delay is None and turn >= PARAMS.get("slow_from_turn", 1):
            delay = PARAMS.get("seconds_per_turn", 0)
        time.sleep(delay or 0)
        return legal_actions[0]


if __name__ == "__main__":
    time.sleep(PARAMS.get("startup_seconds", 0))
    run(SlowBot())
