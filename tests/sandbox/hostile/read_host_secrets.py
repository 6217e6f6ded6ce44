"""Looks for the host's secrets: a file the test planted, /etc/hostname, /root, /home,
/etc/shadow, its own and pid 1's environment. Expected: it finds none of the host's."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def look(path: str) -> dict[str, Any]:
    try:
        if os.path.isdir(path):
            return {"entries": sorted(os.listdir(path))}
        with open(path, "rb") as file:
            return {"content": file.read(4096).decode("utf-8", "replace")}
    except OSError as error:
        return {"error": f"{type(error).__name__}: {error}"}


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        paths = [PARAMS["secret_file"], "/etc/hostname", "/etc/shadow", "/root", "/home"]
        paths += ["/proc/self/environ", "/proc/1/environ", f"/proc/{os.getppid()}/environ"]
        found = {path: look(path) for path in paths}
        log("REPORT " + json.dumps({"files": found, "environ": dict(os.environ)}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
