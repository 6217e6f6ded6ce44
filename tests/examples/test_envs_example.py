"""examples/envs/random_masked.py plays whole matches, every seat rewarded at the end."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[2] / "examples" / "envs" / "random_masked.py"


def test_the_random_masked_loop_plays_matches_to_their_end() -> None:
    spec = importlib.util.spec_from_file_location("random_masked", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["random_masked"] = module
    spec.loader.exec_module(module)
    totals = module.play("architekton", 2, games=2)
    assert len(totals) == 2
    for rewards in totals:
        assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
