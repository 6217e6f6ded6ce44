"""What a game's statistics page costs (agon.game_stats): counting the statistics on a
large table, serving them from the cache, and digesting one match's replay.

On a database of its own, ranked Akropolis matches are added in steps up to each of
--matches (2, 3 and 4 players, seat ranks and scores at random with a small edge for
the first seat, a tenth of the matches tied, every match digested with a length and
openings drawn from forty), with as many again of other games and kinds that the
statistics must skip (Attika ladder matches, challenges). At each size it measures, the
contenders taking turns (bench/interleave.py `samples`, wall time, --rounds rounds):

- count, window W: `game_stats` made afresh (every query, the document) with the
  window AGON_GAME_STATS_MATCHES = W, for each W of --windows;
- kept: `game_stats_kept` answered from the cache (Django's local-memory cache here).

Then, unless --digest-replays is 0, the CPU time of digesting one match (`replay_digest`:
the replay played through the engine and each seat's first move put in words) for
each game at its smallest and largest player count, over that many replays played by
the random builtin bots: what the beat's digest run costs a match.

    .venv/bin/python bench/game_stats.py [--matches 20000 200000] [--windows 20000 5000]

The database is PostgreSQL's agon_bench_game_stats (made afresh, dropped at the end);
`--database URL` names another. No broker is used.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random

from database_support import fresh_database  # bench/ is on the path: this runs as a script

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/agon_bench_game_stats"
BATCH = 2000
OPENINGS = [
    f"tile {slot} of the site at ({q}, {-q - 1})" for slot in (1, 2, 3, 4) for q in range(-5, 5)
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--windows", type=int, nargs="+", default=[20_000, 5_000])
    parser.add_argument("--rounds", type=int, default=9, help="turns of each contender (9)")
    parser.add_argument("--digest-replays", type=int, default=5, help="per game and size (5)")
    parser.add_argument("--database", default=DEFAULT_POSTGRES, help="a PostgreSQL URL")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with fresh_database(args.database) as url:
        os.environ["AGON_TEST_DATABASE_URL"] = url
        os.environ["DJANGO_SETTINGS_MODULE"] = "agon.settings.test"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        print(f"database: {url.split('@')[-1]} · load: {_load()}")
        print(f"{'matches':>8} {'contender':<20} {'median ms':>10} {'min ms':>9} {'queries':>8}")
        rng = Random(args.seed)
        made = 0
        for size in sorted(args.matches):
            _fill(made, size, rng)
            made = size
            for name, figures, queries in _measure(args.windows, args.rounds):
                print(
                    f"{size:>8} {name:<20} {statistics.median(figures):>10.2f} "
                    f"{min(figures):>9.2f} {queries:>8}"
                )
                sys.stdout.flush()
        if args.digest_replays:
            print(
                f"digest of one match (CPU ms), {args.digest_replays} replays each "
                f"· load: {_load()}"
            )
            print(f"{'game':<12} {'players':>7} {'median ms':>10} {'max ms':>9} {'turns':>6}")
            for game, players, times, turns in _digests(args.digest_replays, args.seed):
                print(
                    f"{game:<12} {players:>7} {statistics.median(times):>10.2f} "
                    f"{max(times):>9.2f} {turns:>6}"
                )
    return 0


def _load() -> str:
    """The machine's load averages (1, 5, 15 minutes), said with every figure."""
    loadavg = Path("/proc/loadavg")
    return " ".join(loadavg.read_text().split()[:3]) if loadavg.exists() else "?"


def _fill(start: int, end: int, rng: Random) -> None:
    """Ranked Akropolis matches from the `start`-th to the `end`-th, digested, and as many
    matches the statistics skip."""
    from django.db import connection

    from agon.game_stats.models import MatchDigest, SeatOpening
    from agon.matches.models import Match, MatchSeat

    for first in range(start, end, BATCH):
        count = min(BATCH, end - first)
        plans = [_plan(rng) for _ in range(count)]
        skipped = [
            Match(
                kind=Match.Kind.CHALLENGE if n % 2 else Match.Kind.RANKED,
                game="akropolis" if n % 2 else "attika",
                players=2,
                options={},
                seed=n,
                status=Match.Status.FINISHED,
            )
            for n in range(count)
        ]
        matches = Match.objects.bulk_create(
            [
                Match(
                    kind=Match.Kind.RANKED,
                    game="akropolis",
                    players=len(ranks),
                    options={},
                    seed=n,
                    status=Match.Status.FINISHED,
                )
                for n, (ranks, _, _) in enumerate(plans)
            ]
        )
        Match.objects.bulk_create(skipped)
        seats = MatchSeat.objects.bulk_create(
            [
                MatchSeat(match=match, seat=seat, builtin="random", rank=rank, score=score)
                for match, (ranks, scores, _) in zip(matches, plans, strict=True)
                for seat, (rank, score) in enumerate(zip(ranks, scores, strict=True))
            ]
            + [
                MatchSeat(match=match, seat=seat, builtin="random", rank=seat + 1, score=5)
                for match in skipped
                for seat in range(2)
            ]
        )
        MatchDigest.objects.bulk_create(
            MatchDigest(match=match, turns=turns)
            for match, (_, _, turns) in zip(matches, plans, strict=True)
        )
        SeatOpening.objects.bulk_create(
            SeatOpening(seat=seat, label=rng.choice(OPENINGS))
            for seat in seats
            if seat.match.game == "akropolis" and seat.match.kind == Match.Kind.RANKED
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _plan(rng: Random) -> tuple[list[int], list[int], int]:
    players = rng.choice((2, 2, 2, 3, 3, 4))
    if rng.random() < 0.1:
        scores = [100] * players
    else:
        scores = [rng.randint(40, 140) + (8 if seat == 0 else 0) for seat in range(players)]
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return ranks, scores, rng.randint(24, 60)


def _measure(windows: list[int], rounds: int) -> list[tuple[str, list[float], int]]:
    from django.conf import settings
    from django.db import connection, reset_queries

    from agon.game_stats.stats import game_stats, game_stats_kept
    from bench.interleave import samples

    def counted(window: int) -> Callable[[], float]:
        def once() -> float:
            settings.AGON_GAME_STATS_MATCHES = window
            start = time.perf_counter()
            game_stats("akropolis")
            return (time.perf_counter() - start) * 1000

        return once

    def kept() -> float:
        settings.AGON_GAME_STATS_CACHE_SECONDS = 3600
        start = time.perf_counter()
        game_stats_kept("akropolis")
        return (time.perf_counter() - start) * 1000

    contenders: dict[str, Callable[[], float]] = {
        f"count, window {window}": counted(window) for window in windows
    }
    contenders["kept"] = kept
    kept()  # in the cache before the first turn
    found = samples(contenders, rounds)
    settings.DEBUG = True  # Django records the queries
    queries = {}
    for name, contender in contenders.items():
        reset_queries()
        contender()
        queries[name] = len(connection.queries)
    settings.DEBUG = False
    return [(name, figures, queries[name]) for name, figures in found.items()]


def _digests(replays: int, seed: int) -> Iterator[tuple[str, int, list[float], int]]:
    from agon.game_stats.digests import replay_digest
    from engine.bots import builtin_bot
    from engine.match import play_match
    from engine.registry import game_ids, get_game

    for game_id in game_ids():
        game = get_game(game_id)
        for players in sorted({min(game.player_counts), max(game.player_counts)}):
            times: list[float] = []
            turns: list[int] = []
            for n in range(replays):
                replay = play_match(
                    game,
                    seed=seed + n,
                    players=players,
                    options={},
                    bots=[builtin_bot("random", game_id, seed + n, s) for s in range(players)],
                    bot_ids=[f"seat{s}" for s in range(players)],
                )
                start = time.process_time()
                digest = replay_digest(replay)
                times.append((time.process_time() - start) * 1000)
                turns.append(digest.turns or 0)
            yield game_id, players, times, round(statistics.median(turns))


if __name__ == "__main__":
    sys.exit(main())
