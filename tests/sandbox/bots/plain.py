"""A well-behaved bot: plays the first legal action, every turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon_bot import run


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
