"""Plays a well-formed but illegal action carrying a string of `params["chars"]`
characters (under the line limit). Expected: an `illegal_action` fault whose detail is
cut to a bounded length with a note of how much was left out."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        return {"tile": "\x00" + "x" * PARAMS["chars"], "q": 0, "r": 0, "rotation": 0}
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
