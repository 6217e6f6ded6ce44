"""What a command costs before it does anything: the CPU time of `agon` and `agon-kit`
commands that only print their help, against a bare interpreter's start (`python -c
pass`) measured in the same run, interleaved (one run of each in turn, repeated), so
that a busy machine slows every contender alike.

A command imports only its own module (`agon_kit.cli.build_parser(chosen=...)`), so a
command's help costs what that command needs to start; the issue's goal is under 4x a
bare interpreter for `agon play --help` and every one of the kit's commands
(`agon_kit.cli.COMMANDS`).

Run with `.venv/bin/python bench/cli_start.py [--repeats N]`.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from agon_kit.cli import COMMANDS  # noqa: E402

CONTENDERS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "agon --help": ["-m", "agon.cli", "--help"],
    "agon play --help": ["-m", "agon.cli", "play", "--help"],
    "agon tournament --help": ["-m", "agon.cli", "tournament", "--help"],
    "agon up --help": ["-m", "agon.cli", "up", "--help"],
    **{f"agon-kit {name} --help": ["-m", "agon_kit", name, "--help"] for name in COMMANDS},
}
BASELINE = "python -c pass"


def cpu_seconds(argv: Sequence[str], root: Path = ROOT) -> float:
    """The user + system CPU time of one run of `python ARGV` on the code of `root`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    environment = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{root / 'platform'}"}
    subprocess.run(  # noqa: S603 - our own interpreter and commands
        [sys.executable, *argv], env=environment, stdout=subprocess.DEVNULL, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(repeats: int, roots: Sequence[Path]) -> list[dict[str, list[float]]]:
    """Per root (this checkout, and --compare's), each contender's runs: every command
    of every root in turn, `repeats` times."""
    times: list[dict[str, list[float]]] = [{name: [] for name in CONTENDERS} for _ in roots]
    for _ in range(repeats):
        for name, argv in CONTENDERS.items():
            for root, kept in zip(roots, times, strict=True):
                kept[name].append(cpu_seconds(argv, root))
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs of each (default 15)")
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="DIR",
        help="another checkout (a git worktree of an earlier commit): its commands run in "
        "turn with these, and its columns are printed first",
    )
    args = parser.parse_args(argv)
    roots = [ROOT] if args.compare is None else [args.compare.resolve(), ROOT]
    columns = measure(args.repeats, roots)
    print(f"CPU to print a help, median of {args.repeats} interleaved runs")
    print(f"{'command':<26}" + "".join(f"{'ms':>8}{'x bare':>9}" for _ in roots))
    for name in CONTENDERS:
        row = f"{name:<26}"
        for times in columns:
            median, base = statistics.median(times[name]), statistics.median(times[BASELINE])
            row += f"{median * 1000:>8.1f}{median / base if base else float('inf'):>9.1f}"
        print(row)
    if args.compare is not None:
        print(f"first columns: {args.compare}; then this checkout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
