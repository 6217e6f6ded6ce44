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
the same strengths and seeds). Round by round the four events take turns
(`bench.interleave`, the order rotated every round; `--repeats` times each call, in
turns, for its median), so a load that comes and goes falls on all of them; the last
line is the ratio of before's calls to now's over the rounds both timed.
`--before-rounds` bounds the old code's rounds: its last rounds at 256 bots take tens of
seconds each. Run with `.venv/bin/python bench/pairing.py`
(about four minutes on a busy core).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from random import Random
from typing import Protocol

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench import interleave  # noqa: E402
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


class TimedEvent:
    """An event played round by round on its own results, the call that pairs its next
    round timed on demand (CPU seconds, the garbage collector paused: a full collection
    scans the whole bench's heap, not the pairing's). `next_games` is a function of the
    results, so the same round may be timed again."""

    def __init__(
        self,
        event: Swiss,
        rounds_timed: int,
        strengths: Sequence[float],
        draws: float,
        seed: str,
    ) -> None:
        self.event, self.rounds_timed = event, rounds_timed
        self.strengths, self.draws, self.rng = strengths, draws, Random(seed)
        self.results: list[Result] = []
        self.games: list[ScheduledGame] = []

    def time_call(self) -> tuple[float, float]:
        """The seconds of the call that pairs the next round, and of its pairing alone."""
        gc.disable()
        try:
            started = time.process_time()
            if isinstance(self.event, Before):
                self.games, alone = self.event.timed_next_games(self.results)
            else:
                self.games = self.event.next_games(self.results)
                alone = time.process_time() - started
            return time.process_time() - started, alone
        finally:
            gc.enable()

    def play_round(self) -> None:
        """Play the games of the last call."""
        self.results += [play(game, self.strengths, self.draws, self.rng) for game in self.games]


class Timed(Protocol):
    rounds_timed: int

    def time_call(self) -> tuple[float, float]: ...

    def play_round(self) -> None: ...


def interleaved_rounds(
    events: Mapping[str, Timed], rounds: int, repeats: int
) -> dict[str, list[tuple[float, float]]]:
    """Per event, per round it is timed for, the median of `repeats` timings of the call
    that pairs the round (and of its pairing alone). Round by round the events take turns
    (`interleave.samples`, the order rotated every round and every repeat), so the load of
    the moment falls on all of them alike."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in events}
    for round_ in range(rounds):
        names = [name for name in events if round_ < events[name].rounds_timed]
        if not names:
            break
        turns = interleave.rotated(names, round_)
        found = interleave.samples({name: events[name].time_call for name in turns}, repeats)
        for name, figures in found.items():
            times[name].append(
                (
                    statistics.median(call for call, _ in figures),
                    statistics.median(alone for _, alone in figures),
                )
            )
            events[name].play_round()
    return times


def bench_size(args: argparse.Namespace, entrants: int) -> None:
    strength_rng = Random(f"{args.seed}:{entrants}:strengths")
    strengths = [strength_rng.gauss(0.0, args.spread) for _ in range(entrants)]
    seed = f"{args.seed}:{entrants}"
    before_rounds = min(args.before_rounds, args.rounds)
    events = {
        "before": (Before(entrants, args.seed, args.rounds), before_rounds),
        "now": (Swiss(entrants, args.seed, args.rounds), args.rounds),
        "2 meetings": (Swiss(entrants, args.seed, args.rounds, meetings=2), args.rounds),
        "4 players": (Swiss(entrants, args.seed, args.rounds, players=4), args.rounds),
    }
    timed_events = {
        name: TimedEvent(event, timed, strengths, args.draws, seed)
        for name, (event, timed) in events.items()
    }
    for timed_event in timed_events.values():
        timed_event.time_call()  # a first call apart: lazy imports, warm caches
    times = interleaved_rounds(timed_events, args.rounds, args.repeats)
    print(
        f"\n{entrants} entrants, {args.rounds} rounds: next_games per round, CPU ms "
        f"(median of {args.repeats}, the events in turns)"
    )
    print(f"{'round':>5}{'before':>10}{'alone':>10}{'now':>8}{'2 meetings':>12}{'4 players':>11}")
    for round_ in range(args.rounds):
        before = times["before"]
        old = [ms(seconds) for seconds in before[round_]] if round_ < before_rounds else ["-"] * 2
        two, meetings, four = (ms(times[name][round_][0]) for name in list(events)[1:])
        print(f"{round_ + 1:>5}{old[0]:>10}{old[1]:>10}{two:>8}{meetings:>12}{four:>11}")
    now = [t[0] for name in list(events)[1:] for t in times[name]]
    print(f"worst now: {ms(max(now))} ms", flush=True)
    if before_rounds:
        spent = sum(t[0] for t in times["before"])
        ratio = spent / max(sum(t[0] for t in times["now"][:before_rounds]), 1e-9)
        print(f"before / now over rounds 1-{before_rounds}: {ratio:.1f}x", flush=True)


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
    parser.add_argument(
        "--repeats", type=int, default=1, help="timings of each call, in turns (default 1)"
    )
    parser.add_argument("--draws", type=float, default=0.2, help="draw rate (default 0.2)")
    parser.add_argument(
        "--spread", type=float, default=1.0, help="sd of strengths, log-odds (default 1.0)"
    )
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("need --repeats of 1 or more")
    print(
        f"Swiss pairing, strengths ~ N(0, {args.spread:g}) log-odds, draws {args.draws:g}, "
        f"Python {sys.version.split()[0]}"
    )
    for entrants in args.sizes:
        bench_size(args, entrants)


if __name__ == "__main__":
    main()
