"""The real 16-bot Swiss through the pipeline, for `bench/tournaments.py --part pipeline`.

The pipeline of `bench/pipeline.py` (PostgreSQL, Redis, one Celery worker with beat under
production settings, bwrap boxes) and --swiss-bots (16) random example bots entered and
validated like uploads. First the baseline of bench/pipeline.py in the same run: N ranked
matches of two random bots queued at once, matches per minute. Then a Swiss of the bots
(two players, one meeting of two games a table, --swiss-rounds rounds) made through the
services, entered, its entry closed by beat: games per minute from the entry's close to
the last standings, the overhead against the baseline, and where the time goes (the gaps
between rounds, from a round's last game finished to the next round's first game queued).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pipeline import (
    configure,
    enter_bots,
    running_pipeline,
    throughput,
    wait_until,
)

from bench.redis_support import cache_server


def bench_pipeline(args: argparse.Namespace) -> None:
    var_dir = Path(tempfile.mkdtemp(prefix="agon-bench-tournament-"))
    with cache_server(args.cache_url) as cache_url:
        bench_swiss(args, configure(args, var_dir, cache_url), var_dir)


def bench_swiss(args: argparse.Namespace, env: dict[str, str], var_dir: Path) -> None:
    # Beat closes the entry and moves the rounds on; no ranked matches in the way.
    env |= {"AGON_TOURNAMENT_SECONDS": str(args.beat_seconds), "AGON_MATCHMAKING_SECONDS": "3600"}
    os.environ.update(env)
    with running_pipeline(args, env, var_dir, beat_schedule=var_dir / "beat"):
        from agon.ladders.models import Ladder

        bots = {f"random-{i}": "random_bot.py" for i in range(args.swiss_bots)}
        versions = list(enter_bots(bots).values())
        two = Ladder.objects.get(game="akropolis", players=2)
        print(
            f"\nThe pipeline: PostgreSQL, Redis, one Celery worker with beat (prefork, "
            f"concurrency {args.concurrency}), bwrap boxes, {len(versions)} random example bots, "
            f"akropolis for two; {os.cpu_count()} CPUs, load average "
            f"{os.getloadavg()[0]:.1f} at the start"
        )
        baseline = throughput(two, versions[:2], args.matches, args.matches)
        print(
            f"Baseline (bench/pipeline.py): {args.matches} ranked matches all queued: "
            f"{baseline:.0f} matches/min"
        )
        swiss_report(play_swiss(versions, args), baseline)


def play_swiss(versions: list[Any], args: argparse.Namespace) -> Any:
    """Make, enter and wait for the Swiss; the finished tournament."""
    from django.utils import timezone

    from agon.tournaments.models import Tournament
    from agon.tournaments.services import entry_create, tournament_create

    owner = versions[0].bot.owner
    tournament = tournament_create(
        owner=owner,
        name="bench swiss",
        game="akropolis",
        format="swiss",
        rounds=args.swiss_rounds,
        entry_closes=timezone.now() + timedelta(seconds=60),
        seed=args.seed,
    )
    for version in versions:
        entry_create(user=owner, tournament_id=tournament.id, bot_id=version.bot_id)
    Tournament.objects.filter(id=tournament.id).update(
        entry_closes=timezone.now() + timedelta(seconds=args.entry_seconds)
    )

    def over() -> bool:
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.CANCELLED:
            raise SystemExit(f"the tournament was cancelled: {tournament.note}")
        return tournament.status == Tournament.Status.FINISHED

    wait_until(over, 1800, "the Swiss to finish", interval=0.2)
    return tournament


def swiss_report(tournament: Any, baseline: float) -> None:
    from agon.matches.models import Match
    from agon.tournaments.models import TournamentGame

    rows = list(
        TournamentGame.objects.filter(tournament=tournament, match__isnull=False).select_related(
            "match"
        )
    )
    matches: list[Match] = [row.match for row in rows if row.match is not None]
    if any(match.status != Match.Status.FINISHED for match in matches):
        raise SystemExit("a tournament match did not finish")
    started, finished = tournament.started, tournament.finished
    wall = (finished - started).total_seconds()
    rate = len(matches) / wall * 60
    by_round: dict[int, list[Match]] = {}
    for row in rows:
        assert row.match is not None
        by_round.setdefault(row.round, []).append(row.match)
    gaps = [
        min(m.created for m in by_round[r + 1]) - max(ended(m) for m in by_round[r])
        for r in sorted(by_round)
        if r + 1 in by_round
    ]
    gap_seconds = [gap.total_seconds() for gap in gaps]
    spans = [
        (max(ended(m) for m in ms) - min(m.created for m in ms)).total_seconds()
        for ms in by_round.values()
    ]
    in_rounds = [len(ms) / span * 60 for ms, span in zip(by_round.values(), spans, strict=True)]
    match_mean = statistics.fmean(m.match_seconds or 0.0 for m in matches)
    print(
        f"Swiss of {tournament.entries.count()} bots, {len(by_round)} rounds, "
        f"{len(matches)} games: "
        f"{wall:.1f} s from the entry's close to the standings, {rate:.0f} games/min "
        f"(the baseline: {baseline:.0f}/min; {baseline / rate - 1:+.1%} time a game)"
    )
    print(
        f"  within a round: {statistics.fmean(in_rounds):.0f} games/min on average "
        f"(rounds of {min(spans):.1f}-{max(spans):.1f} s; match {match_mean:.3f} s on average)"
    )
    if gap_seconds:
        print(
            f"  between rounds: {statistics.fmean(gap_seconds):.3f} s on average, "
            f"{max(gap_seconds):.3f} s at most, from a round's last game finished to the next "
            f"round's first game queued; {sum(gap_seconds):.1f} s of the {wall:.1f} s in all"
        )
    closed = (started - tournament.entry_closes).total_seconds()
    last = max(ended(m) for m in matches)
    print(
        f"  beat closed the entry {closed:.2f} s after its time; the standings came "
        f"{(finished - last).total_seconds():.3f} s after the last game"
    )


def ended(match: Any) -> datetime:
    assert match.finished is not None, f"match {match.id} has not finished"
    return match.finished  # type: ignore[no-any-return]
