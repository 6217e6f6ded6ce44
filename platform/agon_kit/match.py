"""`agon match A B`: is A stronger than B? Pairs of games stopped by a sequential test
(`competition.sprt`), the version tests' own."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any

from agon_kit.common import fail, fail_box, print_json
from agon_kit.games import (
    Setup,
    add_arguments,
    play_games,
    programs_for,
    seats_problem,
    worker_pool,
)
from agon_kit.progress import progress_bar
from agon_kit.sprt_option import parse_sprt
from competition import sprt_words
from competition.sprt import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_ELO0,
    DEFAULT_ELO1,
    Sprt,
    elo_interval,
    pair_outcome,
)
from competition.version_pairing import leg_score, pair_legs
from engine.errors import InvalidOptions
from engine.registry import game_ids
from sandbox.errors import PackageError, SandboxError

SPARKS = "▁▂▃▄▅▆▇█"

EXAMPLES = f"""\
examples:
  agon match new.py old.py --game akropolis --sprt elo0=0,elo1=50 --jobs 2
  agon match new.py builtin:greedy --game architekton --max-games 200
  agon match new.py old.py --game akropolis --players 4 --opponent builtin:greedy

A and B play pairs of games with the seats swapped, each game dealt afresh. After each
pair the test weighs H1 "A is at least elo1 Elo stronger than B" against H0 "A is elo0
Elo stronger or less" (logistic Elo) by betting on the pairs' scores: its evidence for
H1 reaches log(1/alpha) with probability at most alpha when H0 is true, its evidence for
H0 reaches log(beta) with probability at most beta when H1 is true, whatever the draws
and the seat advantage. The match stops at the first pair that reaches one (verdict H1
or H0), or at --max-games (verdict inconclusive). Without --sprt it plays --max-games
and weighs them with the default hypotheses. The same command gives the same verdict,
whatever --jobs.

{textwrap.fill(sprt_words.HELP, 88)}

With --players P above 2, A and B never meet: each plays a table against the same P - 1
fixed opponents (--opponent) in the same seat, each table dealt afresh, and the version
with more points wins that comparison; a pair is two such comparisons (four games), the
versions a seat further round in the second. wins, draws and losses then count
comparisons.

It prints the question, the answer and the Elo estimate in words ("Is A at least 50 Elo
stronger than B? Yes: after 14 games ..."), then, last, one JSON object:
  {{"games", "wins", "draws", "losses", "elo", "elo_ci95": [lo, hi], "llr", "verdict"}}
counting A's games; verdict is "H1", "H0" or "inconclusive"; llr is the test's evidence; a
side of elo_ci95 is null where the games bound it no further ([85, null]: +85 or more)."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "match",
        help="test whether one bot is stronger than another (sequential test)",
        description="Play pairs of games between two bots until a sequential test decides "
        "whether the first is at least elo1 Elo stronger.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("candidate", metavar="A", help="the bot under test")
    parser.add_argument("baseline", metavar="B", help="the bot it is measured against")
    parser.add_argument("--game", required=True, help=f"game id: {', '.join(game_ids())}")
    parser.add_argument(
        "--sprt",
        type=parse_sprt,
        metavar=f"elo0={DEFAULT_ELO0:g},elo1={DEFAULT_ELO1:g},alpha={DEFAULT_ALPHA:g},"
        f"beta={DEFAULT_BETA:g}",
        help="stop as soon as the test decides (any of the four; defaults as shown)",
    )
    parser.add_argument(
        "--max-games", type=int, default=1000, metavar="N", help="game limit (default 1000)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        metavar="P",
        help="bots at a table (default 2); above 2, A and B play mirrored tables",
    )
    parser.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="BOT",
        help="a fixed opponent at mirrored tables, seats filled in turn (default builtin:greedy)",
    )
    parser.add_argument("--replays", type=Path, metavar="DIR", help="write every replay here")
    add_arguments(parser)
    parser.set_defaults(run=run)


def opponents(args: argparse.Namespace) -> list[str]:
    """The P - 1 fixed opponents of mirrored tables, the given ones repeated in turn."""
    given = args.opponent or ["builtin:greedy"]
    return [given[i % len(given)] for i in range(args.players - 1)] if args.players > 2 else []


def run(args: argparse.Namespace) -> int:
    if problem := seats_problem(args.game, args.players):
        return fail(problem)
    if args.jobs < 1 or args.max_games < 2:
        return fail("--jobs is at least 1 and --max-games at least 2")
    test = args.sprt or Sprt()
    try:
        setup = Setup(
            args.game,
            dict(args.option),
            programs_for([args.candidate, args.baseline, *opponents(args)]),
            args.sandbox,
            dict(args.limit),
            args.replays,
        )
        if args.replays is not None:
            args.replays.mkdir(parents=True, exist_ok=True)
        pairs, games, trace, verdict = play_pairs(setup, test, args)
    except (InvalidOptions, PackageError, SandboxError, ValueError, OSError) as error:
        return fail_box(error)
    result = summary(pairs, games, trace, verdict)
    state = sprt_words.VersionTestState(
        candidate=args.candidate,
        baseline=args.baseline,
        sprt=test,
        pentanomial=pentanomial(pairs),
        games=games,
        wins=result["wins"],
        draws=result["draws"],
        losses=result["losses"],
        max_games=args.max_games,
        status="finished",
        verdict=verdict,
        mirrored=args.players > 2,
    )
    print(
        f"Evidence {trace[-1] if trace else 0.0:+.2f} "
        f"(H0 at {test.lower:+.2f}, H1 at {test.upper:+.2f})"
    )
    print(f"  {sparkline(trace, test.lower, test.upper)}")
    print(sprt_words.question(state))
    print(sprt_words.answer(state))
    print(sprt_words.estimate(state.pentanomial))
    print_json(result)
    return 0


def play_pairs(
    setup: Setup, test: Sprt, args: argparse.Namespace
) -> tuple[list[list[float]], int, list[float], str]:
    """Pairs in order until the verdict or the limit; a batch of `jobs` pairs at a time,
    pairs played past the deciding one dropped so that --jobs changes nothing. Returns the
    candidate's leg scores pair by pair, the games played, the evidence after each pair and
    the verdict."""
    games_a_pair = 2 if args.players == 2 else 4
    limit = max(1, args.max_games // games_a_pair)
    pairs: list[list[float]] = []
    counts = [0] * 5
    trace: list[float] = []
    with progress_bar(limit, "evidence +0.00") as progress, worker_pool(args.jobs) as pool:
        task = progress.task_ids[0]
        while len(pairs) < limit:
            first = len(pairs)
            numbers = range(first, min(first + args.jobs, limit))
            games = [
                g for n in numbers for leg in pair_legs(n, args.seed, args.players) for g in leg
            ]
            by_game = {p.game: p.result for p in play_games(setup, games, pool)}
            for number in numbers:
                legs = pair_legs(number, args.seed, args.players)
                scores = [leg_score([by_game[g] for g in leg]) for leg in legs]
                pairs.append(scores)
                counts[pair_outcome(sum(scores))] += 1
                trace.append(test.evidence(counts))
                progress.update(
                    task, completed=len(pairs), description=f"evidence {trace[-1]:+.2f}"
                )
                verdict = test.verdict(counts)
                if args.sprt is not None and verdict is not None:
                    return pairs, len(pairs) * games_a_pair, trace, verdict
    return pairs, len(pairs) * games_a_pair, trace, test.verdict(counts) or "inconclusive"


def sparkline(trace: list[float], lower: float, upper: float, width: int = 60) -> str:
    """The evidence's path between its bounds, one mark per step (sampled down to `width`)."""
    if not trace:
        return ""
    step = max(1, len(trace) // width)
    samples = trace[step - 1 :: step]
    scale = len(SPARKS) - 1
    marks = (
        SPARKS[round(max(0.0, min(1.0, (v - lower) / (upper - lower))) * scale)] for v in samples
    )
    return "".join(marks)


def pentanomial(pairs: list[list[float]]) -> list[int]:
    counts = [0] * 5
    for pair in pairs:
        counts[pair_outcome(sum(pair))] += 1
    return counts


def summary(
    pairs: list[list[float]], games: int, trace: list[float], verdict: str
) -> dict[str, Any]:
    scores = [score for pair in pairs for score in pair]
    estimate = elo_interval(pentanomial(pairs))
    return {
        "games": games,
        "wins": scores.count(1.0),
        "draws": scores.count(0.5),
        "losses": scores.count(0.0),
        "elo": round(estimate.elo, 2),
        "elo_ci95": [
            None if estimate.low is None else round(estimate.low, 2),
            None if estimate.high is None else round(estimate.high, 2),
        ],
        "llr": round(trace[-1], 4) if trace else 0.0,
        "verdict": verdict,
    }
