"""A bot that picks its moves with NumPy, which every box offers: a seeded generator
chooses among the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agon_bot import run

generator = np.random.default_rng(7)


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    return legal_actions[int(generator.integers(len(legal_actions)))]


if __name__ == "__main__":
    run(act)
