"""Tournament formats and version tests on simulated bots of known strength.

Formats: a field of --bots two-player bots, strengths drawn from a normal distribution on a
log-odds scale (as `bench/ratings.py`, whose Plackett-Luce `finishing_order` and
`kendall_tau` this reuses), plays each format to its end through the REAL format modules
(`competition.formats`), then the same at 4-player tables (Swiss and heats; a 4-player
round robin of 16 bots would be 1820 tables). For each format it prints the games played,
how often the strongest bot comes first alone, and the Kendall tau between the final
standings and the true strengths; next to it, the REAL ladder
(`agon.ladders.matchmaking.pick_tables` and `competition.ratings.update`, every bot one
game a round) after the same number of games (its strongest: the highest rating).

SPRT (`--part sprt`): version tests on simulated bots, measured by `bench/sprt.py` (run with
its defaults and this --seed).

Deterministic for a given --seed. Run with `.venv/bin/python bench/tournaments.py`: about
six minutes on a busy core for the formats, eight for the SPRT.

Pipeline (`--part pipeline`, as root, not part of `all`): a real 16-bot Swiss played by a
real worker with beat, against bench/pipeline.py's throughput in the same run
(`bench/tournament_pipeline.py`); it makes a database of its own (agon_bench, dropped at
the end), and its Redis as bench/pipeline.py's: keys under --redis-prefix in database 14,
a cache server of its own.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform"), str(ROOT / "bench")]

from ratings import finishing_order, kendall_tau  # noqa: E402
from rich.progress import Progress  # noqa: E402

from agon.ladders.matchmaking import Candidate, pick_tables  # noqa: E402
from bench.redis_support import DEFAULT_PREFIX, key_prefix  # noqa: E402
from competition import ratings  # noqa: E402
from competition.formats.core import Result, ScheduledGame  # noqa: E402
from competition.formats.knockout import Knockout  # noqa: E402
from competition.formats.round_robin import RoundRobin  # noqa: E402
from competition.formats.swiss import Swiss  # noqa: E402

Format = RoundRobin | Swiss | Knockout


def formats(bots: int, seed: int, players: int) -> dict[str, Format]:
    rounds = math.ceil(math.log2(bots))
    if players > 2:
        return {
            f"Swiss, {rounds} rounds": Swiss(bots, seed, rounds, players),
            f"Swiss, {rounds + 3} rounds": Swiss(bots, seed, rounds + 3, players),
            "heats": Knockout(bots, seed, players=players),
            "heats, 2 meetings": Knockout(bots, seed, players=players, meetings=2),
        }
    return {
        "round robin": RoundRobin(bots, seed),
        f"Swiss, {rounds} rounds": Swiss(bots, seed, rounds),
        f"Swiss, {rounds + 3} rounds": Swiss(bots, seed, rounds + 3),
        "knockout": Knockout(bots, seed),
        "double elimination": Knockout(bots, seed, double=True),
        "knockout, 2 pairs a tie": Knockout(bots, seed, meetings=2),
    }


def play_format(event: Format, strengths: Sequence[float], rng: Random) -> tuple[list[int], int]:
    """Each bot's rank in the final standings and the games played."""
    results: list[Result] = []
    while games := event.next_games(results):
        results += [
            Result(game, (1,) if game.is_bye else ranks(game, strengths, rng)) for game in games
        ]
    played = sum(not r.game.is_bye for r in results)
    places = [0] * len(strengths)
    for standing in event.standings(results):
        places[standing.bot] = standing.rank
    return places, played


def ranks(game: ScheduledGame, strengths: Sequence[float], rng: Random) -> tuple[int, ...]:
    order = finishing_order(game.bots, strengths, rng)
    return tuple(order.index(bot) + 1 for bot in game.bots)


def ladder(strengths: Sequence[float], players: int, games: int, rng: Random) -> list[float]:
    """The real ladder's ratings after about `games` games in all."""
    bots = len(strengths)
    rated = [ratings.initial()] * bots
    played = [0] * bots
    for _ in range(max(1, round(games / (bots // players)))):
        candidates = [Candidate(b, rated[b].value, played[b]) for b in range(bots)]
        for table in pick_tables(candidates, players, bots // players, rng):
            order = finishing_order(table, strengths, rng)
            place = [order.index(bot) + 1 for bot in table]
            afters = ratings.update([rated[b] for b in table], place, [played[b] for b in table])
            for bot, after in zip(table, afters, strict=True):
                rated[bot] = after
                played[bot] += 1
    return [rating.value for rating in rated]


def bench_formats(args: argparse.Namespace, players: int, tick: Callable[[], None]) -> None:
    rows: dict[str, dict[str, list[float]]] = {
        name: {"games": [], "best": [], "tau": [], "ladder best": [], "ladder tau": []}
        for name in formats(args.bots, 0, players)
    }
    for run in range(args.runs):
        strength_rng = Random(f"{args.seed}:{run}:strengths")
        strengths = [strength_rng.gauss(0.0, args.spread) for _ in range(args.bots)]
        strongest = max(range(args.bots), key=strengths.__getitem__)
        for name, event in formats(args.bots, args.seed * 1000 + run, players).items():
            rng = Random(f"{args.seed}:{run}:{players}:{name}")
            places, played = play_format(event, strengths, rng)
            elo = ladder(strengths, players, played, Random(f"{args.seed}:{run}:{name}:ladder"))
            row = rows[name]
            row["games"].append(played)
            row["best"].append(places[strongest] == 1 and places.count(1) == 1)
            row["tau"].append(kendall_tau(strengths, [-place for place in places]))
            row["ladder best"].append(max(range(args.bots), key=elo.__getitem__) == strongest)
            row["ladder tau"].append(kendall_tau(strengths, elo))
            tick()
    print(
        f"\n{players}-player games, {args.bots} bots, strengths ~ N(0, {args.spread:g}) "
        f"log-odds, {args.runs} runs: the format, then the ladder after as many games"
    )
    print(
        f"{'format':<26}{'games':>7}{'strongest 1st':>15}{'tau':>14}"
        f"{'ladder 1st':>12}{'ladder tau':>14}"
    )
    for name, row in rows.items():
        print(
            f"{name:<26}{statistics.fmean(row['games']):>7.0f}"
            f"{statistics.fmean(row['best']):>15.2f}{mean_sd(row['tau']):>14}"
            f"{statistics.fmean(row['ladder best']):>12.2f}{mean_sd(row['ladder tau']):>14}"
        )


def mean_sd(values: Sequence[float]) -> str:
    return f"{statistics.fmean(values):.2f} +- {statistics.stdev(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument(
        "--part",
        choices=("all", "formats", "sprt", "pipeline"),
        default="all",
        help="what to measure (all: formats and sprt)",
    )
    parser.add_argument("--bots", type=int, default=16, help="bots a field (default 16)")
    parser.add_argument("--runs", type=int, default=100, help="fields per format (default 100)")
    parser.add_argument(
        "--spread", type=float, default=1.0, help="sd of strengths, log-odds (default 1.0)"
    )
    pipeline = parser.add_argument_group("pipeline")
    pipeline.add_argument("--swiss-rounds", type=int, default=5, help="(default 5)")
    pipeline.add_argument("--swiss-bots", type=int, default=16, help="entrants (default 16)")
    pipeline.add_argument(
        "--entry-seconds",
        type=float,
        default=3.0,
        help="the entry window left after the bots are entered (default 3)",
    )
    pipeline.add_argument("--matches", type=int, default=40, help="baseline matches (40)")
    pipeline.add_argument("--concurrency", type=int, default=2, help="the worker's (2)")
    pipeline.add_argument("--beat-seconds", type=float, default=5.0, help="AGON_TOURNAMENT_SECONDS")
    pipeline.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/agon_bench")
    pipeline.add_argument("--broker-url", default="redis://127.0.0.1:6379/14")
    pipeline.add_argument("--cache-url", help="as bench/pipeline.py's (default: its own)")
    pipeline.add_argument(
        "--redis-prefix", type=key_prefix, default=DEFAULT_PREFIX, help=f"({DEFAULT_PREFIX})"
    )
    args = parser.parse_args()
    if args.part == "pipeline":
        if args.swiss_bots < 2:
            parser.error("need --swiss-bots >= 2")
        from tournament_pipeline import bench_pipeline

        bench_pipeline(args)
        return
    started = time.perf_counter()
    if args.part != "sprt":
        with Progress(transient=True) as progress:
            task = progress.add_task("simulating", total=args.runs * 10)

            def tick() -> None:
                progress.advance(task)

            bench_formats(args, 2, tick)
            bench_formats(args, 4, tick)
    if args.part != "formats":
        from bench import sprt

        print()
        sprt.main(["--seed", str(args.seed)])
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
