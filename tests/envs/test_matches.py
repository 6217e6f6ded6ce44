"""The envs play the engine's own matches: a seeded reset deals what `agon play` deals
with that seed, the Gymnasium env's opponents are the bots `agon play` runs (builtin
ones seeded alike, files run the same way), `render()` is the game's text, and
`import agon_bot` alone loads none of the envs' libraries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agon_bot.envs import aec_env, gym_env, outcome_rewards
from engine.bots import builtin_bot
from engine.match import play_match
from engine.registry import get_game
from sandbox.runner import Program, run_match
from tests.envs.support import CASES, case_id

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_seeded_reset_deals_the_engines_match_with_that_seed(case: tuple[str, int]) -> None:
    game_id, players = case
    game = get_game(game_id)
    env = aec_env(game_id, players)
    for seed in (0, 7, 12345):
        env.reset(seed=seed)
        assert game.state_to_json(env.state) == game.state_to_json(
            game.new_state(seed, players, {})
        )
    env.reset(seed=7)
    first = env.observe(env.agent_selection)["observation"].copy()  # the env's kept array
    env.reset()  # unseeded resets go on from the last seed, the same way every time
    env.reset(seed=7)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_gym_env_plays_the_match_agon_play_plays(case: tuple[str, int]) -> None:
    """Seat 0 moves as `agon play`'s builtin:random would; the others are greedy and
    random bots: every action and the result are the referee's, move for move."""
    game_id, players = case
    seed = 11
    others = ["builtin:greedy", *["builtin:random"] * (players - 2)]
    replay = play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=[
            builtin_bot(spec.removeprefix("builtin:"), game_id, seed, seat)
            for seat, spec in enumerate(["builtin:random", *others])
        ],
        bot_ids=["builtin:random", *others],
    )
    env = gym_env(game_id, players, others)
    me = builtin_bot("random", game_id, seed, 0)
    actions: list[Any] = []
    env.aec.game.apply = _recording(env.aec.game.apply, actions)  # type: ignore[method-assign]
    try:
        observation, info = env.reset(seed=seed)
        terminated = False
        reward = 0.0
        while not terminated:
            move = me.act(info["observation_json"], info["legal_actions"])
            index = env.encoding.encode_action(move, info["observation_json"])
            assert observation["action_mask"][index] == 1
            observation, reward, terminated, truncated, info = env.step(index)
            assert not truncated
    finally:
        del env.aec.game.apply
    assert info["result"]["ranks"] == replay.result["ranks"]
    assert info["result"]["scores"] == replay.result["scores"]
    assert reward == outcome_rewards(replay.result["ranks"])[0]
    assert actions == replay.actions


def _recording(apply: Any, actions: list[Any]) -> Any:
    def recorded(state: Any, action: Any) -> None:
        actions.append(action)
        apply(state, action)

    return recorded


def test_a_bot_file_opponent_plays_as_agon_play_runs_it() -> None:
    bot = REPO / "examples" / "bots" / "random_bot.py"
    seed = 5
    record = run_match(
        game_id="architekton",
        seed=seed,
        options={},
        programs=[Program.builtin("greedy"), Program.from_file(bot)],
        sandbox="none",
    )
    env = gym_env("architekton", 2, str(bot), sandbox="none")
    me = builtin_bot("greedy", "architekton", seed, 0)
    _, info = env.reset(seed=seed)
    terminated = False
    while not terminated:
        move = me.act(info["observation_json"], info["legal_actions"])
        index = env.encoding.encode_action(move, info["observation_json"])
        _, _, terminated, _, info = env.step(index)
    env.close()
    assert info["faults"] == [] and record.replay.faults == []
    assert info["result"]["scores"] == record.replay.result["scores"]


def test_an_illegal_action_ends_the_gym_match_as_a_fault() -> None:
    env = gym_env("megalopolis", 3)
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, illegal)


@pytest.mark.parametrize("game_id", ["akropolis", "megalopolis"])
def test_render_is_the_games_text(game_id: str) -> None:
    env = aec_env(game_id, 2, render_mode="ansi")
    env.reset(seed=4)
    assert env.render() == get_game(game_id).render_text(env.state)
    assert aec_env(game_id, 2).render() is None  # no render_mode, no render


def test_outcome_rewards_count_the_seats_beaten() -> None:
    assert outcome_rewards([1, 2]) == [1.0, -1.0]
    assert outcome_rewards([1, 1]) == [0.0, 0.0]
    assert outcome_rewards([2, 1, 2, 4]) == [0.0, 1.0, 0.0, -1.0]


def test_importing_agon_bot_loads_none_of_the_envs_libraries() -> None:
    code = (
        "import sys, agon_bot\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'agon_bot.envs')"
        " if m in sys.modules))\n"
    )
    shown = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert shown.stdout.strip() == "[]", shown.stdout + shown.stderr
