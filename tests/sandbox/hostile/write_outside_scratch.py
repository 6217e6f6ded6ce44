"""Tries to write everywhere but /tmp, to change its own code and Agon's library, and
fills /tmp. Expected: only /tmp takes writes, and no more than `scratch_bytes`."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
SCRATCH = "/tmp"  # noqa: S108 - the box's own
FOLDERS = ["/bot", "/", "/opt/agon/lib", "/opt/agon/lib/agon_bot", "/usr", "/usr/lib", SCRATCH]
EXISTING = ["/bot/main.py", "/opt/agon/lib/agon_bot/__init__.py", "/usr/bin/python3"]


def try_write(path: str, mode: str) -> str:
    try:
        with open(path, mode) as file:
            file.write("# changed by a bot\n")
    except OSError as error:
        return f"refused: {type(error).__name__}: {error}"
    return "written"


def fill(path: str) -> dict[str, Any]:
    written, chunk = 0, b"\0" * 65536
    try:
        with open(path, "wb") as file:
            while written < 1 << 30:
                file.write(chunk)
                file.flush()
                written += len(chunk)
    except OSError as error:
        return {"bytes": written, "stopped": f"{type(error).__name__}: {error}"}
    return {"bytes": written, "stopped": "never"}


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        name = f"agon-{PARAMS['marker']}"
        created = {folder: try_write(f"{folder.rstrip('/')}/{name}", "x") for folder in FOLDERS}
        changed = {path: try_write(path, "a") for path in EXISTING}
        log("REPORT " + json.dumps({"created": created, "changed": changed}))
        log("REPORT " + json.dumps({"filled": fill(f"{SCRATCH}/{name}.fill")}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
