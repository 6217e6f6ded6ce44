"""CPU time of one decision of each search bot (`builtin:mcts-1/2/3`), per game.

    python bench/search_bots.py [--games akropolis,attika] [--positions 6] [--players 2]

The positions are those of a match of greedy bots (seed 1), every k-th decision so that
`--positions` of them spread over the game; each level decides on each of them and the
median CPU seconds (process time) of a decision is printed with the iterations it ran.
The machine's load is printed too: the figures hold for a quiet core only in ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]  # before this folder, whose engine.py is not the engine

from engine.bots import SEARCH_BOTS, builtin_bot  # noqa: E402
from engine.registry import game_ids, get_game  # noqa: E402
from engine.search.bot import LEVELS, SearchBot  # noqa: E402


def positions(game_id: str, players: int, count: int) -> list[tuple[Any, Any]]:
    """Observations and legal actions of `count` decisions spread over a greedy match."""
    game = get_game(game_id)
    state = game.new_state(1, players, {})
    greedy = [builtin_bot("greedy", game_id, 1, seat) for seat in range(players)]
    seen = []
    while not game.is_over(state):
        seat = game.current_player(state)
        observation, legal = game.observation(state, seat), game.legal_actions(state)
        seen.append((observation, legal))
        game.apply(state, greedy[seat].act(observation, legal))
    choices = [entry for entry in seen if len(entry[1]) > 1]
    step = max(1, len(choices) // count)
    return choices[::step][:count]


def decision_seconds(game_id: str, level: str, spots: list[tuple[Any, Any]]) -> list[float]:
    times = []
    for number, (observation, legal) in enumerate(spots):
        bot = SearchBot(game_id, LEVELS[level], number)
        started = time.process_time()
        bot.act(observation, legal)
        times.append(time.process_time() - started)
    return times


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--levels", default=",".join(SEARCH_BOTS))
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; median CPU seconds per decision")
    rows = []
    for game_id in args.games.split(","):
        spots = positions(game_id, args.players, args.positions)
        for level in args.levels.split(","):
            times = decision_seconds(game_id, level, spots)
            row = {
                "game": game_id,
                "players": args.players,
                "level": level,
                "iterations": LEVELS[level].iterations,
                "median_seconds": statistics.median(times),
                "max_seconds": max(times),
            }
            rows.append(row)
            print(
                f"  {game_id:12} {args.players}p {level}: {row['median_seconds']:.3f} s "
                f"(worst {row['max_seconds']:.3f} s, {row['iterations']} iterations)",
                flush=True,
            )
    return rows


if __name__ == "__main__":
    main()
