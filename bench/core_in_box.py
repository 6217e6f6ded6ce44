"""Akropolis' compiled core inside a Docker box (issue 32): random playouts per CPU-second
of a bot's Python in the bot image, with the core and without, interleaved.

The host starts one container of the bot image the way the docker backend starts a box
(no network, read-only root, uid 65534, no capabilities, one CPU, 512 MiB), with this
script and `interleave.py` mounted read-only; inside, this same script (`--inside`)
plays random 2- and 4-player games in alternating spells (`interleave.rates`), the core
on and then off (`engine.akropolis.native.CORE` set to None around each spell, the
engine's own switch), and prints one JSON line per player count. Both rows are the
image's own Python and its own build of the core: the ratio is what a bot in a box gains.

    .venv/bin/python bench/core_in_box.py [--image agon-bot:latest] [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_IMAGE = os.environ.get("AGON_BOT_IMAGE") or "agon-bot:latest"


def inside(seconds: float) -> None:
    """In the box: the interleaved rates, one JSON line per player count."""
    import interleave  # this folder, mounted at /bench and on the path as the script's

    import engine.akropolis.native as native
    from engine import get_game
    from engine.rng import SplitMix64

    game = get_game("akropolis")
    if native.CORE is None:
        sys.exit("the compiled core is not in use in this image")

    def playouts(players: int) -> Callable[[], None]:
        seeds = iter(range(10**9))

        def playout() -> None:
            seed = next(seeds)
            state = game.new_state(seed, players, {})
            rng = SplitMix64(seed)
            while not game.is_over(state):
                legal = game.legal_actions(state)
                game.apply(state, legal[rng.below(len(legal))])

        return playout

    def pure(work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            kept = native.CORE
            native.CORE = None
            try:
                work()
            finally:
                native.CORE = kept

        return run

    for players in (2, 4):
        rates = interleave.rates(
            {"core": playouts(players), "pure": pure(playouts(players))}, seconds
        )
        print(json.dumps({"players": players, **rates}), flush=True)


def outside(image: str, seconds: float) -> None:
    """On the host: one box of `image`, its figures as a table."""
    command = [
        "docker", "run", "--rm", "--network", "none", "--read-only", "--user", "65534:65534",
        "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--cpus", "1",
        "--memory", "512m", "--tmpfs", "/tmp",  # noqa: S108 - the box's scratch
        # Two files, not the folder: bench/engine.py would stand for the engine package.
        "-v", f"{HERE / 'interleave.py'}:/bench/interleave.py:ro",
        "-v", f"{Path(__file__).resolve()}:/bench/core_in_box.py:ro", image,
        "python3", "/bench/core_in_box.py", "--inside", "--seconds", str(seconds),
    ]  # fmt: skip
    done = subprocess.run(  # noqa: S603 - fixed command
        command, capture_output=True, text=True, timeout=600, check=False
    )
    if done.returncode != 0:
        sys.exit(f"the box failed: {done.stderr.strip()}")
    print(f"Akropolis random playouts per CPU-s in a box of {image}, interleaved:")
    print("  players    core    pure   core / pure")
    for line in done.stdout.splitlines():
        row = json.loads(line)
        core, pure = row["core"], row["pure"]
        print(f"  {row['players']:7d} {core:7.0f} {pure:7.0f}   {core / pure:10.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", default=DEFAULT_IMAGE)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-s per contender")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        inside(args.seconds)
    else:
        outside(args.image, args.seconds)


if __name__ == "__main__":
    main()
