"""Swiss pairing (issue 24): the time of one `next_games` call per round, before and now.

Bots of known strength (drawn from N(0, --spread) on a log-odds scale, as in
bench/tournaments.py) play each round through bench/ratings.py's Plackett-Luce
`finishing_order`; a two-player game is drawn with probability --draws. For each field
size it prints, per round, the CPU milliseconds (process time: steadier than the wall
clock on a shared machine; the garbage collector paused) of the call that returns the
round's games:

- before: `next_games` as it was before issue 24 (`Before` here): it paired every round
  again from the first, each with one maximum-weight matching over every pair of the field
  (`pair_on_complete_graph`, which now pairs only the rounds where a rematch is forced);
- alone: that matching for the round itself, the last of the pairings the call made;
- now: `Swiss.next_games`, which pairs the round being played alone, by score groups;
  then the same with two meetings a pair, and at tables of 4.

The events before and now are paired differently, so each plays its own results (from
the same strengths and seeds). `--before-rounds` bounds the old code's rounds: its last
rounds at 256 bots take tens of seconds each. Run with `.venv/bin/python bench/pairing.py`
(about four minutes on a busy core).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench.ratings import finishing_order  # noqa: E402
from competition.formats.core import Result, ScheduledGame  # noqa: E402
from competition.formats.swiss import Swiss  # noqa: E402
from competition.formats.swiss_pairing import pair_on_complete_graph  # noqa: E402


class Before(Swiss):
    """The Swiss of before issue 24: every call pairs every round from the first."""

    def pair_two(
        self, order: Sequence[int], points: Sequence[float], met: set[frozenset[int]]
    ) -> list[tuple[int, int]]:
        return pair_on_complete_graph(order, points, met)

    def timed_next_games(self, results: Sequence[Result]) -> tuple[list[ScheduledGame], float]:
        """The old `next_games`, and the seconds its last pairing took."""
        played = {result.game for result in results}
        for round_ in range(1, self.rounds + 1):
            started = time.process_time()
            games = self.pair_round(round_, results)
            alone = time.process_time() - started
            missing = [game for game in games if game not in played]
            if missing:
                return missing, alone
        return [], 0.0


def play(game: ScheduledGame, strengths: Sequence[float], draws: float, rng: Random) -> Result:
    if game.is_bye:
        return Result(game, (1,))
    if len(game.bots) == 2 and rng.random() < draws:
        return Result(game, (1, 1))
    order = finishing_order(game.bots, strengths, rng)
    return Result(game, tuple(order.index(bot) + 1 for bot in game.bots))


def round_times(
    event: Swiss, rounds: int, strengths: Sequence[float], draws: float, seed: str
) -> list[tuple[float, float]]:
    """Per round, the seconds of the call that paired it (and of its pairing alone)."""
    rng = Random(seed)
    results: list[Result] = []
    times = []
    for _ in range(rounds):
        gc.disable()  # a full collection scans the whole bench's heap, not the pairing's
        started = time.process_time()
        if isinstance(event, Before):
            games, alone = event.timed_next_games(results)
        else:
            games = event.next_games(results)
            alone = time.process_time() - started
        times.append((time.process_time() - started, alone))
        gc.enable()
        results += [play(game, strengths, draws, rng) for game in games]
    return times


def bench_size(args: argparse.Namespace, entrants: int) -> None:
    strength_rng = Random(f"{args.seed}:{entrants}:strengths")
    strengths = [strength_rng.gauss(0.0, args.spread) for _ in range(entrants)]
    seed = f"{args.seed}:{entrants}"
    before_rounds = min(args.before_rounds, args.rounds)
    before = round_times(
        Before(entrants, args.seed, args.rounds), before_rounds, strengths, args.draws, seed
    )
    now = [
        round_times(event, args.rounds, strengths, args.draws, seed)
        for event in (
            Swiss(entrants, args.seed, args.rounds),
            Swiss(entrants, args.seed, args.rounds, meetings=2),
            Swiss(entrants, args.seed, args.rounds, players=4),
        )
    ]
    print(f"\n{entrants} entrants, {args.rounds} rounds: next_games per round, CPU ms")
    print(f"{'round':>5}{'before':>10}{'alone':>10}{'now':>8}{'2 meetings':>12}{'4 players':>11}")
    for round_ in range(args.rounds):
        old = [ms(seconds) for seconds in before[round_]] if round_ < before_rounds else ["-"] * 2
        two, meetings, four = (ms(times[round_][0]) for times in now)
        print(f"{round_ + 1:>5}{old[0]:>10}{old[1]:>10}{two:>8}{meetings:>12}{four:>11}")
    print(f"worst now: {ms(max(t[0] for times in now for t in times))} ms", flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}" if seconds >= 0.1 else f"{seconds * 1000:.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[64, 128, 256], help="entrants (64 128 256)"
    )
    parser.add_argument("--rounds", type=int, default=9, help="rounds timed now (default 9)")
    parser.add_argument(
        "--before-rounds", type=int, default=7, help="rounds timed before (default 7)"
    )
    parser.add_argument("--draws", type=float, default=0.2, help="draw rate (default 0.2)")
    parser.add_argument(
        "--spread", type=float, default=1.0, help="sd of strengths, log-odds (default 1.0)"
    )
    args = parser.parse_args(argv)
    print(
        f"Swiss pairing, strengths ~ N(0, {args.spread:g}) log-odds, draws {args.draws:g}, "
        f"Python {sys.version.split()[0]}"
    )
    for entrants in args.sizes:
        bench_size(args, entrants)


if __name__ == "__main__":
    main()
