"""The env keeps one observation vector and one mask per agent and rewrites only what
changed since that agent was last observed: whatever the agents observed and when,
across matches, each observation is the JSON encoding's and each mask the legal set."""

from __future__ import annotations

import numpy as np
import pytest

from agon_bot.envs import aec_env, gym_env
from tests.envs.support import CASES, case_id


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observations_seen_now_and_then_are_the_positions(case: tuple[str, int]) -> None:
    game, players = case
    env = aec_env(game, players)
    rng = np.random.default_rng(11)
    encode = env.encoding.encode_observation
    for seed in (5, 6):  # a second match: every kept array is of the match before
        env.reset(seed=seed)
        for _ in range(120 if game == "akropolis" else 30):
            agent = env.agent_selection
            if env.terminations[agent]:
                break
            info = env.infos[agent]
            for seen in env.agents:
                if rng.random() < 0.4:  # each agent observed on some turns only
                    observed = env.observe(seen)
                    json = env.game.observation(env.state, env.agent_seats[seen])
                    np.testing.assert_array_equal(observed["observation"], encode(json))
                    legal = sorted(info["legal_indices"].tolist()) if seen == agent else []
                    assert np.flatnonzero(observed["action_mask"]).tolist() == legal
            legal = info["legal_indices"]
            env.step(int(legal[rng.integers(len(legal))]))


def test_the_arrays_are_kept_unless_fresh_ones_are_asked_for() -> None:
    env = aec_env("akropolis", 2)
    env.reset(seed=1)
    agent = env.agent_selection
    first = env.observe(agent)
    mask = first["action_mask"].copy()
    assert mask.any()
    again = env.observe(agent)
    assert again["observation"] is first["observation"]
    assert again["action_mask"] is first["action_mask"]
    env.step(int(env.infos[agent]["legal_indices"][0]))
    # Kept by the caller, the arrays stay as they were until that agent is observed again.
    np.testing.assert_array_equal(first["action_mask"], mask)
    env.observe(agent)
    assert not first["action_mask"].any()  # not its turn now: rewritten in place
    fresh = aec_env("akropolis", 2, fresh_observations=True)
    fresh.reset(seed=1)
    one, two = fresh.observe(agent), fresh.observe(agent)
    assert one["observation"] is not two["observation"]
    assert one["action_mask"] is not two["action_mask"]
    np.testing.assert_array_equal(one["action_mask"], mask)


def test_the_gym_env_gives_new_arrays_each_step() -> None:
    env = gym_env("akropolis", 2)
    first, _ = env.reset(seed=1)
    kept = first["observation"].copy(), first["action_mask"].copy()
    second, *_ = env.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert second["observation"] is not first["observation"]
    np.testing.assert_array_equal(first["observation"], kept[0])
    np.testing.assert_array_equal(first["action_mask"], kept[1])
