"""examples/envs/train_pettingzoo.py: its `--tiny` run plays and trains end to end, and
its REINFORCE step makes a rewarded choice more likely and a punished one less."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "envs" / "train_pettingzoo.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_pettingzoo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_pettingzoo"] = module
    spec.loader.exec_module(module)
    return module


def test_the_tiny_run_evaluates_trains_and_evaluates_again(
    example: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert example.main(["--tiny"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("architekton 2p against builtin:random, before training: won ")
    assert lines[-1].startswith("after 4 matches (")


@pytest.mark.parametrize("game", ["megalopolis", "attika"])
def test_it_trains_on_other_games_and_against_greedy(example: ModuleType, game: str) -> None:
    scores = example.train(
        game, 3, "builtin:greedy", max_matches=1, eval_matches=1, report=lambda _: None
    )
    assert scores["matches"] == 1
    assert scores["after"]["wins"] + scores["after"]["ties"] + scores["after"]["losses"] == 1


@pytest.mark.parametrize("advantage", [1.0, -1.0])
def test_reinforce_moves_the_chosen_actions_probability_with_the_advantage(
    example: ModuleType, advantage: float
) -> None:
    policy = example.LinearPolicy(10, 4, np.ones(4, np.float32), features=3)
    phi = policy.featurize(np.array([1.0, -1.0, 0.5, 0.0], np.float32))
    legal = np.array([2, 5, 7])
    before = policy.probabilities(phi, legal)
    policy.reinforce([example.Decision(phi, legal, 1)], advantage, rate=0.5)
    after = policy.probabilities(phi, legal)
    assert np.isclose(after.sum(), 1.0)
    assert (after[1] - before[1]) * advantage > 0
    assert not policy.weights[[0, 1, 3, 4, 6, 8, 9]].any(), "only the legal rows change"
