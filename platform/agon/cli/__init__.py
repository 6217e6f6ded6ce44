"""`agon`: run the platform, play matches, tournaments and version tests, check replays
and watch them offline, score cities, watch a demo ladder, check a machine's health,
recompute a ladder's ratings.

The commands that need neither Django nor the platform are the kit's (agon_kit, whose
registry and parser this command uses: a command's module is imported only when it is
the one run); this package adds the platform's own: `up`, `demo`, `health`, `ratings`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agon_kit import cli as kit

COMMANDS: dict[str, tuple[str, str]] = {
    "up": ("agon.cli.up", "run the platform here: web, worker, scheduler, example bots playing"),
    "play": kit.COMMANDS["play"],
    "view": kit.COMMANDS["view"],
    "tournament": kit.COMMANDS["tournament"],
    "match": kit.COMMANDS["match"],
    "replay": kit.COMMANDS["replay"],
    "score": kit.COMMANDS["score"],
    "demo": ("agon.cli.demo", "watch a live demo ladder of the builtin bots"),
    "health": ("agon.cli.health", "check the database, the broker and (--worker) the sandbox"),
    "ratings": (
        "agon.cli.rating_commands",
        "recompute a ladder's ratings, or fit its results offline",
    ),
    "login": kit.COMMANDS["login"],
    "submit": kit.COMMANDS["submit"],
    "test": kit.COMMANDS["test"],
    "dataset": kit.COMMANDS["dataset"],
}
"""`agon`'s subcommands in the order of its help: every one of the kit's, and the
platform's own (kit.Registry says what each entry holds)."""


def build_parser(
    commands: kit.Registry = COMMANDS, *, chosen: str | None = None
) -> argparse.ArgumentParser:
    """`agon`'s parser (kit.build_parser)."""
    return kit.build_parser(commands, prog="agon", chosen=chosen)


def main(argv: Sequence[str] | None = None) -> int:
    return kit.main(argv, commands=COMMANDS, prog="agon")


if __name__ == "__main__":
    sys.exit(main())
