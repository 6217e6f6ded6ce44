"""CPU time of one match's analysis (agon.analysis), per game, player count and level.

    python bench/analysis.py [--games akropolis,attika] [--players 2,4] [--matches 3]
                             [--levels mcts-1,mcts-2]

Each match is played by greedy against random bots (seeds 1, 2, ...), then analysed as
the `analysis` queue's worker does (`engine.search.analysis.analyse_replay`: every step
searched by the level's playouts); the CPU seconds (process time) of each analysis are
printed with the match's steps, the median per step, and what a day of AGON_ANALYSIS_PER_DAY
analyses at that cost takes of two cores. The machine's load is printed too: the figures
hold for a quiet core only in ratio.
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

from engine.bots import builtin_bot  # noqa: E402
from engine.match import play_match  # noqa: E402
from engine.registry import game_ids, get_spec  # noqa: E402
from engine.replay import Replay  # noqa: E402
from engine.search.analysis import analyse_replay  # noqa: E402

PER_DAY = 2000
"""AGON_ANALYSIS_PER_DAY's default: the day's share of two cores is printed for it."""
DAY_SECONDS = 24 * 3600


def played(game_id: str, players: int, seed: int) -> Replay:
    bots = [
        builtin_bot("greedy" if seat % 2 == 0 else "random", game_id, seed, seat)
        for seat in range(players)
    ]
    return play_match(
        get_spec(game_id).game,
        seed=seed,
        players=players,
        options={},
        bots=bots,
        bot_ids=[f"seat{seat}" for seat in range(players)],
    )


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--players", default="2,4", help="player counts (each game's own)")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--levels", default="mcts-1")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; CPU seconds per analysed match")
    rows = []
    for game_id in args.games.split(","):
        game = get_spec(game_id).game
        for players in (int(count) for count in args.players.split(",")):
            if players not in game.player_counts:
                continue
            replays = [played(game_id, players, seed) for seed in range(1, args.matches + 1)]
            for level in args.levels.split(","):
                seconds, steps = [], []
                for replay in replays:
                    started = time.process_time()
                    analyse_replay(replay, level)
                    seconds.append(time.process_time() - started)
                    steps.append(len(replay.actions) + 1)
                median = statistics.median(seconds)
                row = {
                    "game": game_id,
                    "players": players,
                    "level": level,
                    "median_seconds": median,
                    "max_seconds": max(seconds),
                    "median_steps": statistics.median(steps),
                    "ms_per_step": 1000 * sum(seconds) / sum(steps),
                    "share_of_two_cores": PER_DAY * median / (2 * DAY_SECONDS),
                }
                rows.append(row)
                print(
                    f"  {game_id:12} {players}p {level}: {median:.2f} s a match "
                    f"(worst {row['max_seconds']:.2f} s, {row['median_steps']:.0f} steps, "
                    f"{row['ms_per_step']:.1f} ms a step); {PER_DAY} a day: "
                    f"{100 * row['share_of_two_cores']:.1f}% of two cores",
                    flush=True,
                )
    return rows


if __name__ == "__main__":
    main()
