"""Reports the `start` and `end` messages as it got them; can first write `log_bytes`
bytes of log at start-up."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import Bot, log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])


class EchoBot(Bot):
    def start(self, info: dict[str, Any]) -> None:
        log("REPORT " + json.dumps({"start": info}))

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return legal_actions[0]

    def end(self, result: dict[str, Any]) -> None:
        log("REPORT " + json.dumps({"end": result}))


if __name__ == "__main__":
    if PARAMS.get("log_bytes"):
        sys.stderr.write("".join(str(i % 10) for i in range(PARAMS["log_bytes"])))
        sys.stderr.flush()
    run(EchoBot())
