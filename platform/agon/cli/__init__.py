"""`agon`: run the platform, play matches, tournaments and version tests, check replays
and watch them offline, score cities, watch a demo ladder, check a machine's health,
recompute a ladder's ratings.

Each subcommand is a module of this package with a `register(commands)`; a module is
imported only when a parser that offers it is built, so that the bot kit (`agon-kit`,
agon.cli.kit) offers `play`, `view` and `replay` without the platform's dependencies.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = (
    "up",
    "play",
    "view",
    "tournament",
    "match",
    "replay",
    "score",
    "demo",
    "health",
    "rating_commands",
)
"""The modules of `agon`'s subcommands, in the order of its help."""


def build_parser(
    commands: Sequence[str] = COMMANDS, *, prog: str = "agon"
) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Agon: bot competitions on city-building board games.",
        epilog=f"Run `{prog} COMMAND --help` for the options of each command.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in commands:
        importlib.import_module(f"agon.cli.{name}").register(subparsers)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    commands: Sequence[str] = COMMANDS,
    prog: str = "agon",
) -> int:
    parser = build_parser(commands, prog=prog)
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
