"""A PettingZoo loop over any game: every seat plays a uniformly random legal action,
read from the action mask. Swap `choose` for your policy.

    .venv/bin/python examples/envs/random_masked.py --game megalopolis --players 3 --games 2
"""

from __future__ import annotations

import argparse

import numpy as np

from agon_bot.envs import aec_env


def choose(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    """A random action among those the mask allows (a policy would score them)."""
    # The mask holds 0 and 1: read as booleans, finding its ones is ten times faster.
    legal = np.flatnonzero(observation["action_mask"].view(bool))
    return int(rng.choice(legal))


def play(game: str, players: int, games: int, seed: int = 0) -> list[dict[str, float]]:
    env = aec_env(game, players, render_mode="ansi")
    rng = np.random.default_rng(seed)
    totals = []
    for match in range(games):
        env.reset(seed=seed + match)  # the deal of `agon play --seed <seed + match>`
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            rewards[agent] += reward
            env.step(None if terminated or truncated else choose(observation, rng))
        print(f"match {match}: rewards {rewards}")
        totals.append(rewards)
    print(env.render() if env.state is not None else "")
    env.close()
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="akropolis")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    play(args.game, args.players, args.games)


if __name__ == "__main__":
    main()
