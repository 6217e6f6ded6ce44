"""The libraries' own checkers pass for every game and player count: PettingZoo's
`api_test` and `seed_test` on the AEC env, Gymnasium's `check_env` on the single-seat
env. The cycles are few (the suite's time) but each covers turns of every seat."""

from __future__ import annotations

import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from agon_bot.envs import aec_env, gym_env
from tests.envs.support import CASES, case_id

# What the checkers say of every env that follows PettingZoo's own convention for masked
# actions (a dict of observation and action_mask), and of an env made without
# `gymnasium.make`: notes, not failures.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes"),
]

CYCLES = 12
"""Rounds of every seat's turn: a dozen decisions per seat, past the setup's first ones."""


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_test(case: tuple[str, int]) -> None:
    game, players = case
    api_test(aec_env(game, players, render_mode="ansi"), num_cycles=CYCLES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_seed_test(case: tuple[str, int]) -> None:
    game, players = case
    seed_test(lambda: aec_env(game, players), num_cycles=CYCLES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gymnasium_check_env(case: tuple[str, int]) -> None:
    game, players = case
    env = gym_env(game, players, "builtin:greedy", render_mode="ansi")
    check_env(env)
    env.close()
