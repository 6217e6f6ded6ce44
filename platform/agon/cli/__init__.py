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
import re
import sys
from collections.abc import Sequence

from agon.cli import common

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
    if prog != "agon":
        _name_commands_by(prog, subparsers.choices.values())
    return parser


def _name_commands_by(prog: str, parsers: object) -> None:
    """Helps and examples say `agon play ...`; under another command (`agon-kit`) they
    name that one, so that every example can be pasted as it is."""
    mention = re.compile(r"\bagon (?=[a-z])")
    for parser in parsers:  # type: ignore[attr-defined]
        for field in ("description", "epilog"):
            text = getattr(parser, field)
            if text:
                setattr(parser, field, mention.sub(f"{prog} ", text))


def main(
    argv: Sequence[str] | None = None,
    *,
    commands: Sequence[str] = COMMANDS,
    prog: str = "agon",
) -> int:
    parser = build_parser(commands, prog=prog)
    common.PROG = prog
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
