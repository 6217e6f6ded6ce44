"""Timelines made once (issue 28): what a replay viewer's request for a finished match
costs when its timeline is made again through the engine (before) and when it is read
from storage (after), per game at its largest table, interleaved in one run; and what
storing it costs the worker at the end of each match, and on disk.

Per game: greedy bots play `--matches` matches; then the old way (the stored replay
parsed and played again, `engine.timeline.timeline_steps`) and the new (the gzipped
steps read and parsed, `agon.matches.stored_timelines.read_steps`) serve requests for
them, one match after the other, in alternating spells of CPU time
(`bench.interleave.rates`, `--seconds` each, the garbage collector paused), so the load
of the moment falls on both alike; the figures are mean CPU ms per request.

Run with `.venv/bin/python bench/timelines.py [--matches N] [--seconds S]`.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench import interleave  # noqa: E402
from engine.replay import Replay  # noqa: E402
from engine.timeline import timeline_steps  # noqa: E402


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


def replayed_steps(text: str) -> object:
    """The old way: the stored replay parsed and played again."""
    return timeline_steps(Replay.from_json(json.loads(text)), reveal=True)


def request_ms(
    requests: Mapping[str, Sequence[Callable[[], object]]], seconds: float
) -> dict[str, float]:
    """Mean CPU ms of a request of each way, each way serving its requests in a cycle,
    the ways taking turns in short spells (`interleave.rates`) for `seconds` each. The
    garbage collector is paused meanwhile: called over and over, a way's allocations set
    off full collections that scan the whole bench's heap (the matches, Django), not a
    cost of the request's own (reading the stored steps, 1.2 ms, came to 2.2 with them)."""
    contenders = {name: cycling(calls) for name, calls in requests.items()}
    gc.disable()
    try:
        rates = interleave.rates(contenders, seconds)
    finally:
        gc.enable()
    return {name: 1000 / rate for name, rate in rates.items()}


def cycling(calls: Sequence[Callable[[], object]]) -> Callable[[], object]:
    """One call of `calls` a run, in turn, over and over."""
    turns = itertools.cycle(calls)

    def serve() -> object:
        return next(turns)()

    return serve


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=5, help="matches per game (default 5)")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="CPU seconds of each way per game (1.0)"
    )
    args = parser.parse_args(argv)
    if args.matches < 1 or args.seconds <= 0:
        parser.error("need --matches of 1 or more and --seconds above 0")
    with tempfile.TemporaryDirectory() as media:
        setup_django(media)
        from agon.matches.stored_timelines import packed, read_steps, write_steps
        from engine.match import play_match
        from engine.registry import game_ids, get_game

        print("CPU ms per request for a finished match's timeline, both ways in turns")
        print(
            f"{'game':<13}{'players':>8}{'steps':>7}{'engine ms':>11}{'stored ms':>11}"
            f"{'ratio':>8}{'store ms':>10}{'KiB gz':>8}"
        )
        for game_id in game_ids():
            game = get_game(game_id)
            players = max(game.player_counts)
            requests: dict[str, list[Callable[[], object]]] = {"engine": [], "stored": []}
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
                requests["engine"].append(functools.partial(replayed_steps, text))
                requests["stored"].append(functools.partial(read_steps, name))
            figures = request_ms(requests, args.seconds)
            before, after = figures["engine"], figures["stored"]
            print(
                f"{game_id:<13}{players:>8}{steps_count:>7}{before:>11.2f}{after:>11.2f}"
                f"{before / max(after, 1e-6):>8.1f}{statistics.median(store):>10.2f}"
                f"{statistics.median(sizes) / 1024:>8.1f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
