"""Train a small policy in the PettingZoo env against the builtin bots, with numpy alone.

One seat learns (it changes seat every match, so it learns no seat's edge), the others
are builtin bots (`builtin:random` by default, or `builtin:greedy`), seeded from the
match seed and their seat as `agon play` seeds them. The policy is linear and masked:
the encoded observation, scaled to [-1, 1] and projected onto a few random features,
gives each legal action a logit; the action is drawn from their softmax. It learns by
REINFORCE: after each match, every decision the learner took is made more likely by
its reward (+1 won, -1 lost, 0 tied) minus the running mean of the rewards.

It prints the learner's wins, ties and losses against the bots before training (the
untrained policy is uniform over the legal actions) and after, on the same held-out
match seeds:

    .venv/bin/python examples/envs/train_pettingzoo.py --game architekton --minutes 3
    .venv/bin/python examples/envs/train_pettingzoo.py --tiny   # a few seconds (CI)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agon_bot.envs import AgonEnv, aec_env
from engine.bots import builtin_bot

EVAL_SEEDS = 1_000_000
"""Evaluation matches use seeds from here on, training matches seeds below it."""


@dataclass
class LinearPolicy:
    """Logits `weights[a] . features(observation)` over the legal actions a."""

    n_actions: int
    observation_size: int
    scale: np.ndarray
    features: int = 64
    seed: int = 0
    weights: np.ndarray = field(init=False)
    projection: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.projection = rng.standard_normal(
            (self.features, self.observation_size), dtype=np.float32
        ) / np.float32(np.sqrt(self.observation_size))
        self.weights = np.zeros((self.n_actions, self.features + 1), np.float32)

    def featurize(self, vector: np.ndarray) -> np.ndarray:
        projected = np.tanh(self.projection @ (vector * self.scale))
        return np.append(projected, np.float32(1.0))

    def probabilities(self, phi: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.weights[legal] @ phi
        logits -= logits.max()
        odds = np.exp(logits)
        return np.asarray(odds / odds.sum())

    def reinforce(self, decisions: Sequence[Decision], advantage: float, rate: float) -> None:
        """Make each decision more likely by `advantage` (less if it is negative): the
        gradient of log p(choice) for a softmax over the legal actions."""
        for decision in decisions:
            probabilities = self.probabilities(decision.phi, decision.legal)
            gradient = -probabilities
            gradient[decision.choice] += 1.0
            self.weights[decision.legal] += (rate * advantage) * np.outer(gradient, decision.phi)


@dataclass
class Decision:
    phi: np.ndarray
    legal: np.ndarray
    choice: int
    """The position of the chosen action in `legal`."""


def observation_scale(env: AgonEnv) -> np.ndarray:
    """1 / the largest magnitude each observation entry may take."""
    space = env.encoding.observation_space()
    bound = np.maximum(np.abs(space.low), np.abs(space.high))
    return np.asarray(1.0 / np.maximum(bound, 1.0), dtype=np.float32)


def play_match(
    env: AgonEnv,
    policy: LinearPolicy,
    seed: int,
    learner: int,
    opponent: str,
    rng: np.random.Generator,
) -> tuple[float, list[Decision]]:
    """One match: the learner's seat draws from the policy, the others are `opponent`
    bots. Returns the learner's reward and its decisions."""
    env.reset(seed=seed)
    seats = env.agent_seats
    bots = {
        seat: builtin_bot(opponent.removeprefix("builtin:"), env.game.id, seed, seat)
        for seat in range(env.players)
        if seat != learner
    }
    for seat, bot in bots.items():
        bot.start(
            {"game": env.game.id, "players": env.players, "options": env.match_options}
            | {"player": seat}
        )
    decisions: list[Decision] = []
    reward = 0.0
    for agent in env.agent_iter():
        seat = seats[agent]
        observation, agent_reward, terminated, truncated, info = env.last(observe=seat == learner)
        if seat == learner:
            reward += agent_reward
        if terminated or truncated:
            env.step(None)
        elif seat == learner and observation is not None:
            legal = info["legal_indices"]
            phi = policy.featurize(observation["observation"])
            choice = int(rng.choice(len(legal), p=policy.probabilities(phi, legal)))
            decisions.append(Decision(phi, legal, choice))
            env.step(int(legal[choice]))
        else:
            move = bots[seat].act(info["observation_json"], info["legal_actions"])
            env.apply_json(move)
    return reward, decisions


def evaluate(
    env: AgonEnv, policy: LinearPolicy, opponent: str, matches: int, seed: int
) -> dict[str, float]:
    """Wins, ties and losses of the policy over `matches` held-out matches, the learner
    in each seat in turn, and the mean reward."""
    rng = np.random.default_rng(seed)
    rewards = [
        play_match(env, policy, EVAL_SEEDS + match, match % env.players, opponent, rng)[0]
        for match in range(matches)
    ]
    return {
        "wins": sum(r > 0 for r in rewards) / matches,
        "ties": sum(r == 0 for r in rewards) / matches,
        "losses": sum(r < 0 for r in rewards) / matches,
        "mean reward": float(np.mean(rewards)),
    }


def train(
    game: str = "architekton",
    players: int = 2,
    opponent: str = "builtin:random",
    seconds: float = 180.0,
    max_matches: int | None = None,
    eval_matches: int = 200,
    rate: float = 0.05,
    seed: int = 0,
    report: Any = print,
) -> dict[str, Any]:
    """Evaluate, train for `seconds` (or `max_matches`), evaluate again."""
    env = aec_env(game, players)
    policy = LinearPolicy(
        env.encoding.n_actions, env.encoding.observation_size, observation_scale(env), seed=seed
    )
    before = evaluate(env, policy, opponent, eval_matches, seed)
    report(f"{game} {players}p against {opponent}, before training: {_line(before)}")
    rng = np.random.default_rng(seed + 1)
    baseline, matches, decisions_made = 0.0, 0, 0
    started = time.process_time()
    while time.process_time() - started < seconds and (
        max_matches is None or matches < max_matches
    ):
        reward, decisions = play_match(env, policy, matches, matches % players, opponent, rng)
        policy.reinforce(decisions, reward - baseline, rate)
        baseline += 0.02 * (reward - baseline)
        matches += 1
        decisions_made += len(decisions)
        if matches % 500 == 0:
            report(f"  {matches} matches, mean reward lately {baseline:+.2f}")
    spent = time.process_time() - started
    after = evaluate(env, policy, opponent, eval_matches, seed)
    report(
        f"after {matches} matches ({decisions_made} decisions, {spent:.0f} s of CPU): "
        f"{_line(after)}"
    )
    env.close()
    return {"before": before, "after": after, "matches": matches, "seconds": spent}


def _line(scores: dict[str, float]) -> str:
    return (
        f"won {scores['wins']:.0%}, tied {scores['ties']:.0%}, lost {scores['losses']:.0%} "
        f"(mean reward {scores['mean reward']:+.2f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--game", default="architekton")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="builtin:random", help="builtin:random or greedy")
    parser.add_argument("--minutes", type=float, default=3.0, help="of CPU time, training")
    parser.add_argument("--eval-matches", type=int, default=200)
    parser.add_argument("--rate", type=float, default=0.05, help="the learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tiny", action="store_true", help="a few matches only (for CI)")
    args = parser.parse_args(argv)
    if args.opponent not in ("builtin:random", "builtin:greedy"):
        parser.error("--opponent is builtin:random or builtin:greedy")
    train(
        args.game,
        args.players,
        args.opponent,
        seconds=args.minutes * 60,
        max_matches=4 if args.tiny else None,
        eval_matches=4 if args.tiny else args.eval_matches,
        rate=args.rate,
        seed=args.seed,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
