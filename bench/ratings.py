"""Rating quality: how well the ladders' rating system orders bots of known strength.

A simulated ladder of bots with strengths drawn from a normal distribution on a log-odds
scale plays in rounds: each round the REAL matchmaker (`agon.ladders.matchmaking.
pick_tables`) seats as many tables as the free bots allow, finishing orders are drawn
from the strengths (Plackett-Luce: the next finisher is picked with probability
proportional to exp(strength)), and the REAL rating system (`competition.ratings.update`) rates
each match, with per-bot game counts. 2-player and 4-player tables are separate ladders.

After 10, 30 and 120 games per bot it prints the Kendall tau between true strength and
- the ladder's rating ("agon"),
- an offline Bradley-Terry fit of the same games, 4-player matches decomposed into their
  pairwise results (maximum likelihood by Newton's method, with a tiny prior to keep it
  finite),
- plain pairwise Elo with random tables and a constant K, on its own games ("baseline"),
- the same offline fit of the baseline's games ("bt-random": the fit on plain pairing),
- an oracle: tables seated by the TRUE strengths (`oracle_tables`), rated by the offline
  Plackett-Luce fit of their finishing orders, the model's own maximum likelihood
  ("oracle"): what no real matchmaker and rating can be expected to beat,
as mean +- standard deviation over independent runs, and the ladder's calibration: the
share of its 95% intervals (1.96 deviations each side) that hold the true strength, put on
the Elo scale and shifted to the ratings' mean. Deterministic for a given --seed; the
same figures for --holdout-seed (2), a seed not used for choosing any constant, follow.
`--json` prints them all as one JSON document.

The default spread of strengths, 1.5 (about 260 Elo), puts the baseline at about 0.78 at
30 games per bot on 2-player tables, the reference point. Run with
`.venv/bin/python bench/ratings.py` (both seeds): about 3 minutes of CPU (232 s on the
2-core machine at a load average of 2-4; up to half an hour when it is busy).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from rich.progress import Progress  # noqa: E402

from agon.ladders import matchmaking  # noqa: E402
from agon.ladders.matchmaking import (  # noqa: E402
    Candidate,
    meetings,
    pair_memory,
    pick_tables,
)
from competition import ratings  # noqa: E402

BASELINE_K = 32.0
BASELINE_START = 1500.0
BT_PRIOR = 0.1
"""Bradley-Terry prior: each bot wins and loses this many games against a virtual bot of
log-strength 0, so a bot that won (or lost) every game still gets a finite strength."""

METHODS = ("agon", "bt", "baseline", "bt-random", "oracle")
LABELS = {
    "agon": "agon rating",
    "bt": "Bradley-Terry",
    "baseline": f"baseline Elo (random, K={BASELINE_K:g})",
    "bt-random": "Bradley-Terry (random)",
    "oracle": "oracle (true tables, PL fit)",
}
ELO_PER_LOG_ODDS = 400.0 / math.log(10.0)
INTERVAL = 1.96


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b (ties in either sequence are allowed), O(n^2)."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    pairs_x = concordant + discordant + ties_y
    pairs_y = concordant + discordant + ties_x
    if pairs_x == 0 or pairs_y == 0:
        return 0.0
    return (concordant - discordant) / math.sqrt(pairs_x * pairs_y)


def finishing_order(table: Sequence[int], strengths: Sequence[float], rng: Random) -> list[int]:
    """Plackett-Luce: bot ids, winner first."""
    left = list(table)
    order = []
    while left:
        pick = rng.choices(range(len(left)), weights=[math.exp(strengths[b]) for b in left])[0]
        order.append(left.pop(pick))
    return order


@dataclass
class PairwiseResults:
    """Won pairwise results, aggregated for the Bradley-Terry fit."""

    bots: int
    wins: list[float] = field(init=False)
    meetings: list[dict[int, int]] = field(init=False)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.bots
        self.meetings = [{} for _ in range(self.bots)]

    def add(self, order: Sequence[int]) -> None:
        for place, winner in enumerate(order):
            self.wins[winner] += len(order) - 1 - place
            for loser in order[place + 1 :]:
                self.meetings[winner][loser] = self.meetings[winner].get(loser, 0) + 1
                self.meetings[loser][winner] = self.meetings[loser].get(winner, 0) + 1


def bradley_terry(
    results: PairwiseResults, start: Sequence[float] | None = None, tolerance: float = 1e-6
) -> list[float]:
    """Strengths (exp of log-odds) of the Bradley-Terry model of the pairwise results, by
    Newton's method on the log-likelihood (wins and meetings are sufficient), with
    BT_PRIOR wins and losses against a virtual bot of strength 1."""

    def add_games(theta: list[float], gradient: list[float], information: Matrix) -> None:
        for i, opponents in enumerate(results.meetings):
            gradient[i] += results.wins[i]
            for j, games in opponents.items():
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                gradient[i] -= games * p
                information[i][i] += games * p * (1.0 - p)
                information[i][j] -= games * p * (1.0 - p)

    return _maximum_likelihood(results.bots, add_games, start, tolerance)


def plackett_luce(
    orders: Sequence[Sequence[int]],
    bots: int,
    start: Sequence[float] | None = None,
    tolerance: float = 1e-6,
) -> list[float]:
    """Strengths (exp of log-odds) of the Plackett-Luce model of finishing orders (winner
    first; Bradley-Terry for orders of two), by Newton's method, with the same prior as
    `bradley_terry`. A bot at place k was chosen at stage k among those left."""

    def add_games(theta: list[float], gradient: list[float], information: Matrix) -> None:
        for order in orders:
            for place in range(len(order) - 1):
                left = order[place:]
                weights = [math.exp(theta[b]) for b in left]
                total = sum(weights)
                shares = [w / total for w in weights]
                gradient[order[place]] += 1.0
                for a, share_a in zip(left, shares, strict=True):
                    gradient[a] -= share_a
                    row = information[a]
                    row[a] += share_a
                    for b, share_b in zip(left, shares, strict=True):
                        row[b] -= share_a * share_b

    return _maximum_likelihood(bots, add_games, start, tolerance)


Matrix = list[list[float]]
MAX_NEWTON_STEP = 2.0
"""No log-strength moves further than this in one Newton step (a first step from even
strengths can overshoot a bot that won or lost nearly everything)."""


def _maximum_likelihood(
    bots: int,
    add_games: Callable[[list[float], list[float], Matrix], None],
    start: Sequence[float] | None,
    tolerance: float,
) -> list[float]:
    """Newton's method on a concave log-likelihood of log-strengths: `add_games` adds the
    games' gradient and information (minus the Hessian) at `theta` to the prior's. Stops
    when no log-strength moves by more than `tolerance`. The slower MM algorithm stopped
    by the same test stalled far from the optimum on sparse designs (neighbours only)."""
    theta = [math.log(g) for g in start] if start is not None else [0.0] * bots
    for _ in range(100):
        gradient, information = [0.0] * bots, [[0.0] * bots for _ in range(bots)]
        for i, t in enumerate(theta):
            p = 1.0 / (1.0 + math.exp(-t))
            gradient[i] += BT_PRIOR * (1.0 - 2.0 * p)
            information[i][i] += 2.0 * BT_PRIOR * p * (1.0 - p)
        add_games(theta, gradient, information)
        step = _solve_positive_definite(information, gradient)
        largest = max(abs(x) for x in step)
        scale = min(1.0, MAX_NEWTON_STEP / largest) if largest else 1.0
        theta = [t + scale * x for t, x in zip(theta, step, strict=True)]
        if largest < tolerance:
            break
    return [math.exp(t) for t in theta]


def _solve_positive_definite(matrix: Matrix, vector: list[float]) -> list[float]:
    """x with matrix @ x = vector, by Cholesky (the matrix is symmetric positive
    definite: the prior makes every log-likelihood here strictly concave)."""
    n = len(vector)
    lower: Matrix = [[0.0] * n for _ in range(n)]
    for i in range(n):
        row_i = lower[i]
        for j in range(i + 1):
            row_j = lower[j]
            total = matrix[i][j] - sum(row_i[k] * row_j[k] for k in range(j))
            row_i[j] = math.sqrt(total) if i == j else total / row_j[j]
    forward = [0.0] * n
    for i in range(n):
        row = lower[i]
        forward[i] = (vector[i] - sum(row[k] * forward[k] for k in range(i))) / row[i]
    solution = [0.0] * n
    for i in range(n - 1, -1, -1):
        tail = sum(lower[k][i] * solution[k] for k in range(i + 1, n))
        solution[i] = (forward[i] - tail) / lower[i][i]
    return solution


ORACLE_JITTER = {2: 1.0, 4: 0.5}
"""The oracle seats bots by their true strength plus this much normal noise (log-odds,
by table size) each round: the best of 0.3 to 2.0 at 30 games per bot (seed 1,
bench/README.md). Less noise seats truer equals, but the same few neighbours again and
again: a chain of comparisons that places bots far apart badly."""


def oracle_tables(strengths: Sequence[float], players: int, rng: Random) -> list[list[int]]:
    """A round's tables by a matchmaker that knows the true strengths: bots sorted by
    strength plus noise (ORACLE_JITTER), consecutive ones seated together."""
    jitter = ORACLE_JITTER.get(players, ORACLE_JITTER[4])
    order = sorted(range(len(strengths)), key=lambda b: strengths[b] + rng.gauss(0.0, jitter))
    return [order[first : first + players] for first in range(0, len(order) - players + 1, players)]


def elo_changes(ratings_: Sequence[float], order: Sequence[int], k: float) -> list[float]:
    """Plain pairwise Elo with a constant K (divided by players - 1), in finishing order."""
    players = len(order)
    changes = []
    for place, bot in enumerate(order):
        total = 0.0
        for other_place, other in enumerate(order):
            if other != bot:
                actual = 1.0 if place < other_place else 0.0
                expected = 1.0 / (1.0 + 10 ** ((ratings_[other] - ratings_[bot]) / 400.0))
                total += actual - expected
        changes.append(k / (players - 1) * total)
    return changes


Taus = dict[str, dict[int, float]]
"""method -> games per bot -> tau ("calibration" -> games per bot -> share)."""


def calibration(strengths: Sequence[float], rated: Sequence[ratings.RatingEstimate]) -> float:
    """The share of the ratings' 95% intervals that hold their bot's true strength, the
    strengths on the Elo scale and shifted to the ratings' mean (ratings are relative)."""
    true_elo = [s * ELO_PER_LOG_ODDS for s in strengths]
    shift = statistics.fmean(r.value for r in rated) - statistics.fmean(true_elo)
    held = sum(
        abs(r.value - (t + shift)) <= INTERVAL * (r.deviation or 0.0)
        for r, t in zip(rated, true_elo, strict=True)
    )
    return held / len(rated)


def run_ladder(
    players: int,
    bots: int,
    checkpoints: Sequence[int],
    spread: float,
    seed: str,
    tick: Callable[[], None],
) -> Taus:
    """One independent run: the agon ladder and the baseline on the same bots."""
    strength_rng = Random(f"{seed}:strengths")
    strengths = [strength_rng.gauss(0.0, spread) for _ in range(bots)]
    taus: Taus = {method: {} for method in (*METHODS, "calibration")}
    rounds = max(checkpoints)

    # The ladder under test: real matchmaking, real ratings.
    pairing_rng, game_rng = Random(f"{seed}:pairing"), Random(f"{seed}:games")
    rated = [ratings.initial()] * bots
    games = [0] * bots
    results = PairwiseResults(bots)
    recent: list[list[int]] = []
    for round_ in range(1, rounds + 1):
        candidates = [
            Candidate(b, rated[b].value, games[b], rated[b].deviation) for b in range(bots)
        ]
        met = meetings(recent[-pair_memory(bots, players) :])
        for table in pick_tables(candidates, players, bots // players, pairing_rng, met):
            recent.append(table)
            order = finishing_order(table, strengths, game_rng)
            rank = {bot: place for place, bot in enumerate(order, start=1)}
            afters = ratings.update(
                [rated[b] for b in table], [rank[b] for b in table], [games[b] for b in table]
            )
            for bot, after in zip(table, afters, strict=True):
                rated[bot] = after
                games[bot] += 1
            results.add(order)
        if round_ in checkpoints:
            taus["agon"][round_] = kendall_tau(strengths, [rating.value for rating in rated])
            taus["bt"][round_] = kendall_tau(strengths, bradley_terry(results))
            taus["calibration"][round_] = calibration(strengths, rated)
        tick()

    # The baseline: random tables, constant K, its own games.
    pairing_rng, game_rng = Random(f"{seed}:baseline-pairing"), Random(f"{seed}:baseline-games")
    elo = [BASELINE_START] * bots
    random_results = PairwiseResults(bots)
    for round_ in range(1, rounds + 1):
        seating = list(range(bots))
        pairing_rng.shuffle(seating)
        for first in range(0, bots - players + 1, players):
            order = finishing_order(seating[first : first + players], strengths, game_rng)
            for bot, delta in zip(order, elo_changes(elo, order, BASELINE_K), strict=True):
                elo[bot] += delta
            random_results.add(order)
        if round_ in checkpoints:
            taus["baseline"][round_] = kendall_tau(strengths, elo)
            taus["bt-random"][round_] = kendall_tau(strengths, bradley_terry(random_results))
        tick()

    # The oracle: tables of true neighbours, rated by the model's own offline fit.
    pairing_rng, game_rng = Random(f"{seed}:oracle-pairing"), Random(f"{seed}:oracle-games")
    orders: list[list[int]] = []
    fit: list[float] | None = None
    for round_ in range(1, rounds + 1):
        for table in oracle_tables(strengths, players, pairing_rng):
            orders.append(finishing_order(table, strengths, game_rng))
        if round_ in checkpoints:
            fit = plackett_luce(orders, bots, fit)
            taus["oracle"][round_] = kendall_tau(strengths, fit)
        tick()
    return taus


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="tuning seed (default 1)")
    parser.add_argument(
        "--holdout-seed",
        type=int,
        default=2,
        help="a second seed, not used for choosing constants, reported apart (default 2)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=5, help="independent runs (default 5)")
    parser.add_argument("--bots", type=int, default=200, help="bots per ladder (default 200)")
    parser.add_argument(
        "--spread",
        type=float,
        default=1.5,
        help="standard deviation of true strengths in log-odds (default 1.5, about 260 Elo)",
    )
    parser.add_argument(
        "--games",
        default="10,30,120",
        help="games per bot at which to measure, comma-separated (default 10,30,120)",
    )
    parser.add_argument(
        "--players", default="2,4", help="table sizes, one ladder each (default 2,4)"
    )
    args = parser.parse_args()
    checkpoints = sorted({int(g) for g in args.games.split(",")})
    table_sizes = [int(p) for p in args.players.split(",")]
    if args.runs < 1 or min(checkpoints) < 1 or min(table_sizes) < 2:
        parser.error("need runs >= 1, games >= 1 and players >= 2")
    if any(args.bots % players or args.bots < players for players in table_sizes):
        parser.error("the bots must fill whole tables, so that each plays once a round")

    started = time.perf_counter()
    seeds = [args.seed, args.holdout_seed]
    figures = {}
    with Progress(transient=True, disable=args.json) as progress:
        task = progress.add_task(
            "simulating",
            total=len(seeds) * 3 * max(checkpoints) * args.runs * len(table_sizes),
        )

        def tick() -> None:
            progress.advance(task)

        for seed in seeds:
            figures[seed] = {
                players: [
                    run_ladder(
                        players,
                        args.bots,
                        checkpoints,
                        args.spread,
                        f"{seed}:{players}:{run}",
                        tick,
                    )
                    for run in range(args.runs)
                ]
                for players in table_sizes
            }
    summary = {
        "bots": args.bots,
        "spread": args.spread,
        "runs": args.runs,
        "system": ratings.SYSTEM.SUMMARY,
        "quality_power": {str(n): p for n, p in matchmaking.QUALITY_POWER.items()},
        "oracle_jitter": {str(n): j for n, j in ORACLE_JITTER.items()},
        "seconds": round(time.perf_counter() - started),
        "seeds": {
            str(seed): {
                f"{players}p": {
                    str(games): {
                        method: summarise([taus[method][games] for taus in runs])
                        for method in (*METHODS, "calibration")
                    }
                    for games in checkpoints
                }
                for players, runs in by_players.items()
            }
            for seed, by_players in figures.items()
        },
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(
        f"{args.bots} bots, strengths ~ N(0, {args.spread:g}) log-odds, {args.runs} runs; "
        "every bot plays one game per round."
    )
    print(
        f"agon: {ratings.SYSTEM.SUMMARY}; opponents drawn by match quality to the power "
        f"{matchmaking.QUALITY_POWER}."
    )
    for seed in seeds:
        role = "tuning seed" if seed == args.seed else "held-out seed"
        for players in table_sizes:
            print(f"\nseed {seed} ({role}), {players}-player tables: Kendall tau, mean +- sd")
            columns = (*METHODS, "calibration")
            labels = {**LABELS, "calibration": "agon 95% calibration"}
            print(f"{'games/bot':>9}" + "".join(f"  {labels[m]:>32}" for m in columns))
            for games in checkpoints:
                cells = summary["seeds"][str(seed)][f"{players}p"][str(games)]
                print(
                    f"{games:>9}"
                    + "".join(
                        f"  {cells[m]['mean']:.3f} +- {cells[m]['sd']:.3f}".rjust(34)
                        for m in columns
                    )
                )
    print(f"\n{summary['seconds']} s")


def summarise(values: Sequence[float]) -> dict[str, float]:
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return {"mean": round(statistics.fmean(values), 4), "sd": round(sd, 4)}


if __name__ == "__main__":
    main()
