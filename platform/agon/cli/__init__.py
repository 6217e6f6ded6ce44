"""`agon`: run the platform, play matches, tournaments and version tests, check replays,
score cities, watch a demo ladder, check a machine's health."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agon.cli import demo, health, match, play, replay, score, tournament, up


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agon",
        description="Agon: bot competitions on city-building board games.",
        epilog="Run `agon COMMAND --help` for the options of each command.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (up, play, tournament, match, replay, score, demo, health):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
