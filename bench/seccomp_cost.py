"""What the box's seccomp filter costs: box start and turn time with the whole list of
refused calls (`sandbox.seccomp.REFUSED`) against the filter before issue 25 (sysinfo
only), in one run, boxes of the two taking turns (`bench.interleave.samples`, the order
rotated every round) so that the machine's drift falls on both alike.

Start is from opening the box to its first answer (Python's start-up and, with
--numpy, NumPy's import: thousands of system calls, every one through the filter); a
turn is a real mid-game 4-player Akropolis turn, thaw and freeze included, as in
`bench/sandbox.py`. Run with `.venv/bin/python bench/seccomp_cost.py` (as root: boxes
need cgroups).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench import interleave  # noqa: E402
from bench.sandbox import turn_payload  # noqa: E402
from sandbox import seccomp  # noqa: E402
from sandbox.backends import BoxSpec, SandboxError, bwrap, docker, get_backend  # noqa: E402
from sandbox.limits import limits_for  # noqa: E402
from sandbox.referee import BoxBot  # noqa: E402

BOT = """\
{imports}from agon_bot import run

run(lambda observation, legal_actions: legal_actions[0])
"""
FILTERS = {
    "sysinfo only (before)": ("sysinfo",),
    "whole list (after)": seccomp.REFUSED,
}


def use_filter(refused: tuple[str, ...]) -> None:
    """Both backends build their boxes' filter from `refused` from now on."""
    made = functools.partial(seccomp.box_filter, refused=refused)
    bwrap.box_filter = made  # type: ignore[assignment]
    docker.box_filter = made  # type: ignore[assignment]


def one_box(backend_name: str, folder: Path, turns: int) -> tuple[float, list[float]]:
    """Seconds to the first answer, and of each later turn."""
    observation, legal = turn_payload()
    limits = limits_for("akropolis")
    started = time.perf_counter()
    bot = BoxBot(get_backend(backend_name).open(BoxSpec(folder, limits)), limits)
    try:
        bot.start({"game": "akropolis", "player": 0, "players": 4, "options": {}})
        bot.act(observation, legal)  # type: ignore[arg-type]
        start = time.perf_counter() - started
        rounds = []
        for _ in range(turns):
            begin = time.perf_counter()
            bot.act(observation, legal)  # type: ignore[arg-type]
            rounds.append(time.perf_counter() - begin)
    finally:
        bot.close()
    return start, rounds


def filtered_box(
    refused: tuple[str, ...], backend_name: str, folder: Path, turns: int
) -> tuple[float, list[float]]:
    """`one_box` with its filter refusing `refused`."""
    use_filter(refused)
    return one_box(backend_name, folder, turns)


def spread(values: list[float], scale: float) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{low * scale:8.2f} {mid * scale:8.2f} {high * scale:8.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boxes", type=int, default=15, help="boxes per filter and backend")
    parser.add_argument("--turns", type=int, default=40, help="turns timed in each box")
    parser.add_argument("--backends", default="bwrap,docker")
    parser.add_argument("--numpy", action="store_true", help="the bot imports NumPy first")
    args = parser.parse_args(argv)
    if args.boxes < 1:
        parser.error("need --boxes of 1 or more")
    print(
        f"{args.boxes} boxes per filter and backend, {args.turns} turns each"
        f"{', the bot imports NumPy' if args.numpy else ''}; min median max"
    )
    print(f"{'backend':<8}{'filter':<24}{'start ms':>27}{'turn us':>27}")
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        folder.chmod(0o755)
        (folder / "main.py").write_text(BOT.format(imports="import numpy\n" if args.numpy else ""))
        (folder / "main.py").chmod(0o644)
        for backend_name in args.backends.split(","):
            contenders = {
                name: functools.partial(filtered_box, refused, backend_name, folder, args.turns)
                for name, refused in FILTERS.items()
            }
            try:
                boxes = interleave.samples(contenders, args.boxes)
            except SandboxError as error:
                print(f"{backend_name:<8}unavailable: {error}")
                continue
            starts = {name: [start for start, _ in found] for name, found in boxes.items()}
            turns = {
                name: [t for _, times in found for t in times] for name, found in boxes.items()
            }
            for name in FILTERS:
                print(
                    f"{backend_name:<8}{name:<24}{spread(starts[name], 1e3):>27}"
                    f"{spread(turns[name], 1e6):>27}"
                )
            before, after = FILTERS
            print(
                f"{'':<8}ratio, after / before, of the medians: start "
                f"{statistics.median(starts[after]) / statistics.median(starts[before]):.2f}x, "
                f"turn {statistics.median(turns[after]) / statistics.median(turns[before]):.2f}x"
            )


if __name__ == "__main__":
    main()
