"""Datasets (issue 29): what building a game's dataset costs, per 10,000 matches, and
the build's peak memory.

Per game, `--matches` matches are played by the random builtin bots and stored as the
platform stores finished ranked matches (a SQLite database and a media folder of the
bench's own); then the game's dataset is built from all of them in a fresh process
(`dataset_build`, parts of `--part-matches`), which reports its CPU time, wall time, the
rows and bytes written, and its peak memory: the process's peak resident set over the
build (getrusage) and the peak of Arrow's memory pool. The build is made again with more
matches stored (`--scales`: 1, 2 and 4 times `--matches`), to show that the peak
follows the row group's bound (`--row-group-mib`, AGON_DATASET_ROW_GROUP_BYTES), not the
dataset's size.

Run with `.venv/bin/python bench/datasets.py [--matches N] [--games a,b] [--scales 1,2,4]
[--row-group-mib M]`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
PER = 10_000


def setup_django(folder: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "agon.settings.test"
    os.environ["AGON_TEST_DATABASE_URL"] = f"sqlite:///{folder / 'agon.sqlite3'}"
    import django
    from django.conf import settings

    django.setup()
    settings.MEDIA_ROOT = folder / "media"


def store_matches(game_id: str, count: int, first_seed: int) -> None:
    """`count` finished ranked matches of the game, played by random bots."""
    from django.core.files.base import ContentFile

    from agon.matches.models import Match, MatchSeat
    from engine.bots import builtin_bot
    from engine.match import play_match
    from engine.registry import get_game

    game = get_game(game_id)
    players = min(3, max(game.player_counts))
    for seed in range(first_seed, first_seed + count):
        replay = play_match(
            game,
            seed=seed,
            players=players,
            options={},
            bots=[builtin_bot("random", game_id, seed, seat) for seat in range(players)],
            bot_ids=[f"builtin:random#{seat}" for seat in range(players)],
        )
        match = Match.objects.create(
            kind=Match.Kind.RANKED,
            game=game_id,
            players=players,
            options=replay.options,
            seed=seed,
            status=Match.Status.FINISHED,
            scores=replay.result["scores"],
            ranks=replay.result["ranks"],
        )
        match.replay.save(f"{game_id}-{seed}.json", ContentFile(replay.dumps().encode()))
        ranks, scores = replay.result["ranks"], replay.result["scores"]
        MatchSeat.objects.bulk_create(
            MatchSeat(
                match=match, seat=seat, builtin="random", rank=ranks[seat], score=scores[seat]
            )
            for seat in range(players)
        )


def build_here(game_id: str, part_matches: int) -> dict[str, float]:
    """The build, in this process: its figures."""
    import pyarrow as pa

    from agon.datasets.building import dataset_build
    from agon.datasets.models import DatasetMatch, DatasetPart

    DatasetPart.objects.filter(game=game_id).delete()
    DatasetMatch.objects.filter(game=game_id).delete()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu, wall = time.process_time(), time.perf_counter()
    report = dataset_build(game=game_id, max_parts=10**6, part_matches=part_matches)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert report is not None and not report.more_pending
    parts = DatasetPart.objects.filter(game=game_id)
    return {
        "matches": report.matches_added,
        "rows": report.rows_added,
        "bytes": sum(part.size for part in parts),
        "parts": parts.count(),
        "cpu_s": cpu,
        "wall_s": wall,
        "rss_before_mib": rss_before / 1024,
        "rss_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "arrow_peak_mib": pa.default_memory_pool().max_memory() / 2**20,
    }


def build_in_child(
    folder: Path, game_id: str, part_matches: int, row_group_mib: float
) -> dict[str, float]:
    env = {**os.environ, "AGON_DATASET_ROW_GROUP_BYTES": str(int(row_group_mib * 2**20))}
    done = subprocess.run(  # noqa: S603 - this script, fixed arguments
        [
            sys.executable,
            __file__,
            "--build-only",
            game_id,
            "--folder",
            str(folder),
            "--part-matches",
            str(part_matches),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per game (200)")
    parser.add_argument("--games", default="", help="comma-separated game ids (all)")
    parser.add_argument("--part-matches", type=int, default=1000, help="matches a part (1000)")
    parser.add_argument(
        "--scales", default="1,2,4", help="builds with these multiples of --matches (1,2,4)"
    )
    parser.add_argument(
        "--row-group-mib", type=float, default=8, help="the row group's text bound (8)"
    )
    parser.add_argument("--build-only", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.build_only:
        setup_django(args.folder)
        print(json.dumps(build_here(args.build_only, args.part_matches)))
        return 0
    with tempfile.TemporaryDirectory(prefix="agon-bench-datasets-") as name:
        folder = Path(name)
        setup_django(folder)
        from django.core.management import call_command

        from engine.registry import game_ids

        call_command("migrate", verbosity=0)
        games = [g for g in args.games.split(",") if g] or list(game_ids())
        scales = [int(scale) for scale in args.scales.split(",")]
        print(
            f"{', '.join(str(args.matches * k) for k in scales)} random-bot matches per game, "
            f"built in a fresh process, row groups of {args.row_group_mib:g} MiB of text; "
            f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        )
        print(
            f"{'game':<13}{'matches':>8}{'rows/match':>11}{'CPU s':>8}{'wall s':>8}"
            f"{'CPU s/10k':>10}{'MB/10k':>8}{'B/row':>7}{'RSS MiB':>9}{'+build':>8}"
            f"{'arrow MiB':>10}"
        )
        for game_id in games:
            stored = 0
            for scale in scales:
                store_matches(game_id, args.matches * scale - stored, first_seed=1 + stored)
                stored = args.matches * scale
                f = build_in_child(folder, game_id, args.part_matches, args.row_group_mib)
                per = PER / f["matches"]
                print(
                    f"{game_id:<13}{int(f['matches']):>8}{f['rows'] / f['matches']:>11.1f}"
                    f"{f['cpu_s']:>8.2f}{f['wall_s']:>8.2f}{f['cpu_s'] * per:>10.0f}"
                    f"{f['bytes'] * per / 1e6:>8.1f}{f['bytes'] / f['rows']:>7.1f}"
                    f"{f['rss_peak_mib']:>9.0f}{f['rss_peak_mib'] - f['rss_before_mib']:>8.0f}"
                    f"{f['arrow_peak_mib']:>10.1f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
