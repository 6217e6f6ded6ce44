"""Version tests on simulated bots: games to a verdict and how often each verdict comes,
against the alpha and beta the test states, and how often the 95% Elo interval holds the
true difference.

Pairs of games between two bots a known Elo apart (each game won with the logistic
probability of the difference less half the draw rate, drawn with probability --draws),
counted pair by pair through the REAL `competition.sprt.Sprt` until a verdict
or --max-games, for: a sweep (every game won), +400, +100, +50 Elo, elo1, equal bots and
-50 Elo, without draws and with them; and two rows where every pair is 2-0 or 0-2 (the
seed decides the pair: the hardest shape for a test on pairs) at elo0 and elo1. Beside each,
fishtest's GSPRT (`gsprt_llr`, stopped at log(beta / (1 - alpha)) and log((1 - beta) /
alpha)) on the same games, the test the platform ran before issue 24.

Then the interval: after a fixed number of pairs, how often `elo_interval`'s 95% interval
holds the true difference (a sweep's is infinite: held when the upper side is open).

Deterministic for a given --seed. `.venv/bin/python bench/sprt.py` takes about four minutes
on a busy core (`--no-gsprt`: one).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from competition.sprt import (  # noqa: E402
    Sprt,
    elo_interval,
    gsprt_llr,
    logistic_score,
)

VERDICTS = ("H1", "H0", "inconclusive")


@dataclass(frozen=True)
class Bots:
    """Two bots: the candidate's chance to win a game and to draw it, or pairs that are
    all-or-nothing (2-0 with the candidate's expected score, else 0-2)."""

    label: str
    win: float
    draw: float
    all_or_nothing: bool = False

    @property
    def elo(self) -> float:
        score = self.win + self.draw / 2
        if score >= 1.0:
            return math.inf
        return -400.0 * math.log10(1.0 / score - 1.0)

    def pair(self, rng: Random) -> int:
        """The pentanomial cell of one pair: the candidate's half points in it."""
        if self.all_or_nothing:
            return 4 if rng.random() < self.win else 0
        cell = 0
        for _ in range(2):
            roll = rng.random()
            cell += 2 if roll < self.win else 1 if roll < self.win + self.draw else 0
        return cell


def at_elo(label: str, elo: float, draws: float) -> Bots:
    """Bots `elo` apart that draw `draws` of their games, or as many as their expected score
    leaves room for (+400 Elo, 0.909, leaves 0.18)."""
    score = logistic_score(elo)
    draw = min(draws, 2 * score, 2 * (1 - score))
    return Bots(label, score - draw / 2, draw)


def scenarios(test: Sprt, draws: float) -> list[Bots]:
    rows = [Bots("sweep", 1.0, 0.0)] if draws == 0 else []
    elos = sorted({400.0, 100.0, 50.0, test.elo1, test.elo0, 0.0, -50.0}, reverse=True)
    for elo in dict.fromkeys(elos):
        name = f"{elo:+g} Elo" if elo else "equal"
        if elo == test.elo1:
            name += " (elo1)"
        if elo == test.elo0:
            name += " (elo0)"
        rows.append(at_elo(name, elo, draws))
    return rows


def all_or_nothing(test: Sprt) -> list[Bots]:
    return [
        Bots(f"{elo:+g} Elo ({name}), 2-0 or 0-2", logistic_score(elo), 0.0, all_or_nothing=True)
        for elo, name in ((test.elo0, "elo0"), (test.elo1, "elo1"))
    ]


Decide = Callable[[Sequence[int]], str | None]


def run_test(decide: Decide, bots: Bots, max_games: int, rng: Random) -> tuple[str, int]:
    counts = [0] * 5
    for pairs in range(1, max_games // 2 + 1):
        counts[bots.pair(rng)] += 1
        verdict = decide(counts)
        if verdict:
            return verdict, 2 * pairs
    return "inconclusive", max_games // 2 * 2


def gsprt(test: Sprt) -> Decide:
    lower = math.log(test.beta / (1 - test.alpha))
    upper = math.log((1 - test.beta) / test.alpha)

    def decide(counts: Sequence[int]) -> str | None:
        value = gsprt_llr(counts, test.elo0, test.elo1)
        return "H1" if value >= upper else "H0" if value <= lower else None

    return decide


def percentile(values: Sequence[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def row(name: str, results: list[tuple[str, int]]) -> str:
    games = [length for _, length in results]
    share = {v: sum(verdict == v for verdict, _ in results) / len(results) for v in VERDICTS}
    return (
        f"{name:<28}{statistics.fmean(games):>7.0f}{statistics.median(games):>8.0f}"
        f"{percentile(games, 0.95):>6}{share['H1']:>8.3f}{share['H0']:>7.3f}"
        f"{share['inconclusive']:>7.3f}"
    )


def bench_verdicts(args: argparse.Namespace, test: Sprt) -> None:
    tests: dict[str, Decide] = {"test": test.verdict}
    if args.gsprt:
        tests["GSPRT"] = gsprt(test)
    print(
        f"elo0={test.elo0:g} elo1={test.elo1:g} alpha={test.alpha:g} beta={test.beta:g}, "
        f"at most {args.max_games} games, {args.runs} runs a row; games to the verdict "
        "(mean, median, 95th percentile) and the verdicts' shares"
    )
    for draws in (0.0, args.draws):
        rows = scenarios(test, draws) + (all_or_nothing(test) if draws == 0 else [])
        heading = f"draw rate {draws:g}"
        print(f"\n{heading:<28}{'mean':>7}{'median':>8}{'p95':>6}{'H1':>8}{'H0':>7}{'none':>7}")
        errors: dict[str, list[str]] = {name: [] for name in tests}
        for bots in rows:
            for name, decide in tests.items():
                results = [
                    run_test(decide, bots, args.max_games, Random(f"{args.seed}:{bots}:{run}"))
                    for run in range(args.runs)
                ]
                label = bots.label if name == "test" else "  fishtest's GSPRT"
                print(row(label, results))
                wrong = "H1" if "(elo0)" in bots.label else "H0" if "elo1)" in bots.label else ""
                if wrong:
                    share = sum(verdict == wrong for verdict, _ in results) / len(results)
                    errors[name].append(f"{wrong} at {bots.label} {share:.3f}")
        for name, found in errors.items():
            print(
                f"{name}: wrong verdicts {'; '.join(found)} "
                f"(alpha {test.alpha:g} for H1, beta {test.beta:g} for H0)"
            )


def bench_interval(args: argparse.Namespace) -> None:
    print(
        f"\nThe 95% interval after a fixed number of pairs: how often it holds the true Elo "
        f"({args.coverage_runs} runs a cell)"
    )
    sizes = (1, 3, 10, 30, 100)
    print(f"{'bots':<28}" + "".join(f"{f'{n} pairs':>10}" for n in sizes))
    rows = [Bots("sweep", 1.0, 0.0)]
    for draws in (0.0, args.draws):
        rows += [at_elo(f"{elo:+g} Elo, draws {draws:g}", elo, draws) for elo in (0, 100, 400)]
    for bots in rows:
        cells = []
        for pairs in sizes:
            held = 0
            for run in range(args.coverage_runs):
                rng = Random(f"{args.seed}:interval:{bots}:{pairs}:{run}")
                counts = [0] * 5
                for _ in range(pairs):
                    counts[bots.pair(rng)] += 1
                found = elo_interval(counts)
                low = -math.inf if found.low is None else found.low
                high = math.inf if found.high is None else found.high
                held += low <= bots.elo <= high
            cells.append(held / args.coverage_runs)
        print(f"{bots.label:<28}" + "".join(f"{cell:>10.3f}" for cell in cells))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    defaults = Sprt()
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--elo0", type=float, default=defaults.elo0)
    parser.add_argument("--elo1", type=float, default=defaults.elo1)
    parser.add_argument("--alpha", type=float, default=defaults.alpha)
    parser.add_argument("--beta", type=float, default=defaults.beta)
    parser.add_argument("--draws", type=float, default=0.3, help="draw rate (default 0.3)")
    parser.add_argument(
        "--max-games", type=int, default=400, help="game limit (default 400, the platform's)"
    )
    parser.add_argument("--runs", type=int, default=1000, help="runs a row (default 1000)")
    parser.add_argument(
        "--coverage-runs", type=int, default=2000, help="runs an interval cell (default 2000)"
    )
    parser.add_argument(
        "--no-gsprt", dest="gsprt", action="store_false", help="leave fishtest's GSPRT out"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    bench_verdicts(args, Sprt(args.elo0, args.elo1, args.alpha, args.beta))
    bench_interval(args)
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
