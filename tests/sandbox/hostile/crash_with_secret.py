"""Writes a secret to its log, then dies: by an exception whose message holds the secret
(`params["how"] == "raise"`) or by a segmentation fault (`"segfault"`).
Expected: a `crash` fault that says how it ended (the exit code or signal, the
exception's type) and never quotes the log, which is its owner's alone."""

from __future__ import annotations

import ctypes
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


class SecretPlanError(Exception):
    pass


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        log(f"my plan: {PARAMS['secret']}")
        if PARAMS["how"] == "segfault":
            ctypes.string_at(0)
        raise SecretPlanError(PARAMS["secret"])
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
