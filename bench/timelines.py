"""Timelines made once (issue 28): what a replay viewer's request for a finished match
costs when its timeline is made again through the engine (before) and when it is read
from storage (after), per game at its largest table, interleaved in one run; and what
storing it costs the worker at the end of each match, and on disk.

Per game: greedy bots play `--matches` matches; then, for each match in turn, the old
way (the stored replay parsed and played again, `engine.timeline.timeline_steps`) and
the new (the gzipped steps read and parsed, `agon.matches.stored_timelines.read_steps`)
are timed alternately, CPU time, `--repeats` times each.

Run with `.venv/bin/python bench/timelines.py [--matches N] [--repeats N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


def setup_django(media: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.test")
    import django
    from django.conf import settings

    django.setup()
    settings.MEDIA_ROOT = media


def cpu_ms(call: object) -> float:
    started = time.process_time()
    call()  # type: ignore[operator]
    return (time.process_time() - started) * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=5, help="matches per game (default 5)")
    parser.add_argument("--repeats", type=int, default=5, help="timings of each (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as media:
        setup_django(media)
        from agon.matches.stored_timelines import packed, read_steps, write_steps
        from engine.match import play_match
        from engine.registry import game_ids, get_game
        from engine.replay import Replay
        from engine.timeline import timeline_steps

        print(f"CPU ms per request for a finished match's timeline, median of {args.repeats}")
        print(
            f"{'game':<13}{'players':>8}{'steps':>7}{'engine ms':>11}{'stored ms':>11}"
            f"{'ratio':>8}{'store ms':>10}{'KiB gz':>8}"
        )
        for game_id in game_ids():
            game = get_game(game_id)
            players = max(game.player_counts)
            old: list[float] = []
            new: list[float] = []
            store: list[float] = []
            sizes: list[int] = []
            steps_count = 0
            for seed in range(args.matches):
                replay = play_match(
                    game,
                    seed=seed,
                    players=players,
                    options={},
                    bots=[game.greedy_bot(seat) for seat in range(players)],
                    bot_ids=[f"greedy-{seat}" for seat in range(players)],
                )
                text = replay.dumps()
                name = f"timelines/{game_id}-{seed}.json.gz"
                store.append(
                    cpu_ms(lambda: write_steps(name, timeline_steps(replay, reveal=True)))  # noqa: B023
                )
                steps = read_steps(name) or []
                steps_count = len(steps)
                sizes.append(len(packed(steps)))
                for _ in range(args.repeats):
                    old.append(
                        cpu_ms(
                            lambda: timeline_steps(
                                Replay.from_json(json.loads(text)),  # noqa: B023
                                reveal=True,
                            )
                        )
                    )
                    new.append(cpu_ms(lambda: read_steps(name)))  # noqa: B023
            before, after = statistics.median(old), statistics.median(new)
            print(
                f"{game_id:<13}{players:>8}{steps_count:>7}{before:>11.2f}{after:>11.2f}"
                f"{before / max(after, 1e-6):>8.1f}{statistics.median(store):>10.2f}"
                f"{statistics.median(sizes) / 1024:>8.1f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
