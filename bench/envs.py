"""Environment steps per second against the engine's own random playouts (issue 29).

For each game and player count, whole games are played in turn, interleaved so that
both see the same load: an engine playout (uniform over `legal_actions`, `apply`, as
`bench/engine.py` times them) and the same number of games in the PettingZoo env
(`agon_bot.envs.aec_env`) with a uniformly random masked action, in two loops:

- `env`: the PettingZoo loop as a learner runs it, `env.last()` (the encoded observation
  and the mask of the seat to move) then `env.step(index)`;
- `env, no obs`: `env.last(observe=False)`: the env's own cost without encoding an
  observation.

Both pick a random index from `info["legal_indices"]` (the mask's nonzero entries) with
the playouts' own draw (`SplitMix64.below`), so the policy's cost is the same small one
in all three loops.

It prints steps per second for each, the env's slowdown against the playouts (the goal:
within 2x), and what the engine's `observation()` alone costs per step, which every
observing loop pays. Run with `.venv/bin/python bench/envs.py [--seconds S] [--games a,b]`
(pinned to one core). `--split` prints instead where a step's time goes beyond the
engine's: the legal indices (a fourth loop, the playout computing them each step), the
env's bookkeeping and the observation, each the difference of two loops. Every figure
is the process's CPU time (`time.process_time`), not wall time, so other jobs on the
machine slow it less; the load still shows in the absolute rates, which is why the
loops are interleaved.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


from agon_bot.envs import AgonEnv, aec_env  # noqa: E402
from engine.registry import get_game  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402

GAMES = ("akropolis", "architekton", "attika", "megalopolis")


def playout(game_id: str, players: int, seed: int) -> tuple[int, float]:
    """One random engine game: (steps, seconds in the engine's observation() had it
    been asked for each step's seat, timed apart)."""
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    steps = 0
    while not game.is_over(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
        steps += 1
    return steps, 0.0


def observation_cost(game_id: str, players: int, seed: int) -> tuple[int, float]:
    """A random game again, timing only `observation()` for the seat to move."""
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    steps, spent = 0, 0.0
    while not game.is_over(state):
        started = time.process_time()
        game.observation(state, game.current_player(state))
        spent += time.process_time() - started
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
        steps += 1
    return steps, spent


def playout_with_indices(env: AgonEnv, seed: int) -> int:
    """`playout` computing, at each step, the legal actions' indices as the env does
    (`Encoding.state_legal_indices`); its steps."""
    game, players, encoding = env.game, env.players, env.encoding
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    steps = 0
    while not game.is_over(state):
        legal = game.legal_actions(state)
        encoding.state_legal_indices(state, legal)
        game.apply(state, legal[rng.below(len(legal))])
        steps += 1
    return steps


def env_game(env: AgonEnv, seed: int, observe: bool) -> int:
    """One game in the env with random masked actions; its steps."""
    rng = SplitMix64(seed)
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        _, _, terminated, truncated, info = env.last(observe=observe)
        if terminated or truncated:
            env.step(None)
            continue
        # The choice is the policy's cost, the same in every loop: the playouts' draw
        # (numpy's `Generator.integers` costs twice as much a call), of an index among
        # the legal ones (the mask's nonzero entries, which `np.flatnonzero` of the int8
        # mask would find 10x slower than of `mask.view(bool)`).
        legal = info["legal_indices"]
        env.step(int(legal[rng.below(len(legal))]))
        steps += 1
    return steps


def measure(game_id: str, players: int, seconds: float, split: bool = False) -> dict[str, float]:
    """Steps per second of each loop, interleaved game by game for `seconds` in all
    (`split`: with the playouts that also compute the legal indices)."""
    env = aec_env(game_id, players)
    loops: dict[str, Callable[[int], int]] = {
        "engine": lambda seed: playout(game_id, players, seed)[0],
        "env": lambda seed: env_game(env, seed, observe=True),
        "env, no obs": lambda seed: env_game(env, seed, observe=False),
    }
    if split:
        loops["engine + indices"] = lambda seed: playout_with_indices(env, seed)
    steps = dict.fromkeys(loops, 0)
    spent = dict.fromkeys(loops, 0.0)
    seed = 0
    started = time.perf_counter()
    while seed == 0 or time.perf_counter() - started < seconds:
        for name, loop in loops.items():
            begun = time.process_time()
            steps[name] += loop(seed)
            spent[name] += time.process_time() - begun
        seed += 1
    rates = {name: steps[name] / spent[name] for name in loops}
    observed, observing = observation_cost(game_id, players, 0)
    rates["observation us"] = 1e6 * observing / observed
    rates["games"] = seed
    return rates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="per game and player count")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--players", default="", help="player counts (default: every one)")
    parser.add_argument(
        "--split",
        action="store_true",
        help="where a step's time goes beyond the engine's: the legal indices, the env's "
        "bookkeeping, the observation (us per step)",
    )
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, one core, CPU time, load average {load:.1f}\n")
    if args.split:
        return print_split(args)
    print("Steps/s: engine random playouts | env (last + step) | env without observing;")
    print("the env's slowdown against the playouts (goal: within 2x); observation() per step")
    header = f"{'game':<12} {'players':>7}  {'engine':>8} {'env':>8} {'no obs':>8}"
    print(header + f"  {'env x':>6} {'no obs x':>8}  {'observation()':>13}  games")
    wanted = {int(n) for n in args.players.split(",") if n}
    for game_id in args.games.split(","):
        for players in get_game(game_id).player_counts:
            if wanted and players not in wanted:
                continue
            rates = measure(game_id, players, args.seconds)
            engine, env, bare = rates["engine"], rates["env"], rates["env, no obs"]
            print(
                f"{game_id:<12} {players:>7}  {engine:8.0f} {env:8.0f} {bare:8.0f}"
                f"  {engine / env:5.1f}x {engine / bare:7.1f}x"
                f"  {rates['observation us']:10.0f} us  {rates['games']:5.0f}"
            )
    return 0


def print_split(args: argparse.Namespace) -> int:
    """Per step, what the env adds to the engine's playout step, each part the
    difference of two loops timed in turn: the legal indices (the playout computing
    them), the bookkeeping (the env not observing, less that), the observation (the
    env observing, less the env not observing)."""
    print("Microseconds per step: the engine's playout step, then what the env adds")
    print(f"{'game':<12} {'players':>7}  {'engine':>7} {'indices':>8} {'bookkeeping':>11}", end="")
    print(f" {'observe':>8}  {'env x':>6}  games")
    wanted = {int(n) for n in args.players.split(",") if n}
    for game_id in args.games.split(","):
        for players in get_game(game_id).player_counts:
            if wanted and players not in wanted:
                continue
            rates = measure(game_id, players, args.seconds, split=True)
            engine, indexed = 1e6 / rates["engine"], 1e6 / rates["engine + indices"]
            bare, env = 1e6 / rates["env, no obs"], 1e6 / rates["env"]
            print(
                f"{game_id:<12} {players:>7}  {engine:7.1f} {indexed - engine:+8.1f}"
                f" {bare - indexed:+11.1f} {env - bare:+8.1f}  {env / engine:5.2f}x"
                f"  {rates['games']:5.0f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
