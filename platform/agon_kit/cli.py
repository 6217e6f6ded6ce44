"""`agon`: run the platform, play matches, tournaments and version tests, check replays
and watch them offline, score cities, watch a demo ladder, check a machine's health,
recompute a ladder's ratings.

Each subcommand is a module of this package with a `register(commands)`; a module is
imported only when its command is the one run, so that a command starts as fast as what
it uses allows, and the bot kit (`agon-kit`, agon.cli.kit) offers `play`, `view`,
`replay` and `match`, and `login`, `submit` and `test` with a site, without the
platform's dependencies.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence

from agon.cli import common

COMMANDS: dict[str, tuple[str, str]] = {
    "up": ("up", "run the platform here: web, worker, scheduler, example bots playing"),
    "play": ("play", "play one match between bots"),
    "view": ("view", "write a replay as one HTML file that plays it offline"),
    "tournament": ("tournament", "play a tournament between bots"),
    "match": ("match", "test whether one bot is stronger than another (sequential test)"),
    "replay": ("replay", "verify a replay or show a position from it"),
    "score": ("score", "score cities given as JSON"),
    "demo": ("demo", "watch a live demo ladder of the builtin bots"),
    "health": ("health", "check the database, the broker and (--worker) the sandbox"),
    "ratings": (
        "rating_commands",
        "recompute a ladder's ratings, or fit its results offline",
    ),
    "login": ("login", "keep your API token for the commands that talk to the site"),
    "submit": ("submit", "upload a bot, or a new version of it, and follow its validation"),
    "test": ("version_test", "start a version test of your bot on the site and follow it"),
}
"""`agon`'s subcommands in the order of its help: the module that registers each (with
its options) and its line in the list of commands (the module's own `help`, which a
test keeps equal)."""


def build_parser(
    commands: Sequence[str] = tuple(COMMANDS),
    *,
    prog: str = "agon",
    chosen: str | None = None,
) -> argparse.ArgumentParser:
    """The parser of `prog`'s `commands`. Only the `chosen` command's module is imported
    and registers its options (every one of them when `chosen` is None); the others are
    a name and a line of help, enough for the list of commands and for choosing."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Agon: bot competitions on city-building board games.",
        epilog=f"Run `{prog} COMMAND --help` for the options of each command.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    registered: set[str] = set()
    for name in commands:
        module, summary = COMMANDS[name]
        if name in subparsers.choices:
            continue  # its module registered it with another of its commands
        if chosen is None or name == chosen or _registers(module, chosen):
            if module not in registered:
                importlib.import_module(f"agon.cli.{module}").register(subparsers)
                registered.add(module)
        else:
            subparsers.add_parser(name, help=summary, add_help=False)
    if prog != "agon":
        _name_commands_by(prog, subparsers.choices.values())
    return parser


def _registers(module: str, command: str | None) -> bool:
    """Whether `module` registers `command` (a module may register several)."""
    return command is not None and command in COMMANDS and COMMANDS[command][0] == module


def chosen_command(argv: Sequence[str], commands: Sequence[str]) -> str | None:
    """The command `argv` names (its first word; `agon` has no option of its own before
    it but --help), or None when it names none of `commands`."""
    first = argv[0] if argv else None
    return first if first in commands else None


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
    commands: Sequence[str] = tuple(COMMANDS),
    prog: str = "agon",
) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    chosen = chosen_command(arguments, commands)
    # Only the chosen command's module is imported: `agon play --help` does not load
    # the platform, the tournament formats or networkx.
    parser = build_parser(commands, prog=prog, chosen=chosen or "")
    common.PROG = prog
    args = parser.parse_args(arguments)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
