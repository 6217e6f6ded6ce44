"""What dealing every game afresh costs the statistics (issue 25).

A meeting of two bots is a pair of games with the seats swapped. Played on one seed, its two
games deal the same face-down stacks, hands and piles, and the luck of the deal cancels
within the pair; but a bot that remembers the first game (the host's page cache outlives
a sandbox: docs/threat-model.md) knows the second's hidden order. The platform now deals
each game afresh (`formats.core.deal_seed`), and the deal's luck is noise the pair carries.

For each game, this plays the same pairs both ways, in process: builtin greedy against a
greedy that plays a share of its turns at random (`--random-share`, a version a little
weaker), and prints per design the mean pair score (the Elo it implies), the pair score's
standard deviation, and what the extra variance costs: the pairs needed for the same
standard error (the variance ratio) and the mean length of a version test (elo0 0,
elo1 50, alpha = beta = 0.05) on pairs drawn from each design's outcomes (bootstrap).

Run with `.venv/bin/python bench/twin_deals.py [--pairs N] [--games a,b]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from agon.cli.demo import Entrant  # noqa: E402
from competition.formats.core import ScheduledGame, deal_seed, game_points, meeting  # noqa: E402
from competition.sprt import PAIR_SCORES, Sprt, logistic_elo  # noqa: E402
from engine.match import play_match  # noqa: E402
from engine.registry import game_ids, get_game  # noqa: E402

STRONG, WEAK = 0, 1
DESIGNS = ("twin deals", "fresh deals")


def play(game_id: str, game: ScheduledGame, seed: int, entrants: Sequence[Entrant]) -> float:
    """The strong bot's points in one game played on `seed`."""
    rules = get_game(game_id)
    bots = [entrants[bot].make_bot(game_id, seed, seat) for seat, bot in enumerate(game.bots)]
    replay = play_match(
        rules,
        seed=seed,
        players=2,
        options={},
        bots=bots,
        bot_ids=[entrants[bot].name for bot in game.bots],
    )
    return game_points(replay.result["ranks"])[game.bots.index(STRONG)]


def pair_scores(game_id: str, pairs: int, entrants: Sequence[Entrant]) -> dict[str, list[int]]:
    """Per design, each pair's cell: the strong bot's points in it, 0, 1/2, ... 2, as 0-4."""
    cells: dict[str, list[int]] = {design: [] for design in DESIGNS}
    for number in range(pairs):
        games = meeting(1, "0-1", (STRONG, WEAK), seed=2026, number=number)
        for design in DESIGNS:
            seeds = [game.seed if design == "twin deals" else deal_seed(game) for game in games]
            points = sum(
                play(game_id, game, seed, entrants) for game, seed in zip(games, seeds, strict=True)
            )
            cells[design].append(round(2 * points))
    return cells


def test_length(cells: Sequence[int], runs: int, max_pairs: int, rng: Random) -> float:
    """The mean number of games a version test takes on pairs drawn from `cells`."""
    test = Sprt()
    lengths = []
    for _ in range(runs):
        counts = [0] * 5
        while sum(counts) < max_pairs:
            counts[rng.choice(cells)] += 1
            if test.verdict(counts):
                break
        lengths.append(2 * sum(counts))
    return statistics.fmean(lengths)


def report(game_id: str, cells: dict[str, list[int]], args: argparse.Namespace) -> None:
    rng = Random(7)
    spread = {}
    print(f"{get_game(game_id).name}, {len(cells[DESIGNS[0]])} pairs:")
    for design in DESIGNS:
        scores = [PAIR_SCORES[cell] for cell in cells[design]]
        mean = statistics.fmean(scores)
        spread[design] = statistics.pstdev(scores)
        elo = logistic_elo(mean) if 0 < mean < 1 else float("inf") * (1 if mean else -1)
        length = test_length(cells[design], args.runs, args.max_pairs, rng)
        shape = "/".join(str(cells[design].count(cell)) for cell in range(5))
        print(
            f"  {design:12} pairs 0/0.5/1/1.5/2: {shape:15} mean {mean:.3f} ({elo:+.0f} Elo)"
            f"  pair sd {spread[design]:.3f}  version test: {length:.0f} games on average"
        )
    twin, fresh = spread["twin deals"], spread["fresh deals"]
    if twin > 0:
        ratio = (fresh / twin) ** 2
        print(f"  pairs for the same standard error, fresh / twin: {ratio:.2f}x")
    else:
        print("  twin deals: every pair scored alike (no variance to compare)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=100, help="pairs per game (default 100)")
    parser.add_argument(
        "--games", default=",".join(game_ids()), help="game ids, comma-separated (default: all)"
    )
    parser.add_argument(
        "--random-share",
        type=float,
        default=0.2,
        help="share of its turns the weaker bot plays at random (default 0.2)",
    )
    parser.add_argument("--runs", type=int, default=2000, help="bootstrap version tests")
    parser.add_argument("--max-pairs", type=int, default=200, help="a version test's limit")
    args = parser.parse_args(argv)
    entrants = [Entrant("builtin:greedy", 0.0), Entrant("greedy-weaker", args.random_share)]
    print(
        f"builtin:greedy against a greedy playing {args.random_share:.0%} of its turns at "
        "random; each pair played on twin deals (one seed) and on fresh deals"
    )
    for game_id in args.games.split(","):
        started = time.perf_counter()
        cells = pair_scores(game_id, args.pairs, entrants)
        report(game_id, cells, args)
        print(f"  ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
