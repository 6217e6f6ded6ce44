"""The command line of the kit's commands, and the registry `agon` builds on: `agon-kit`
(the wheel's command, `python -m agon_kit`) offers `play`, `view`, `replay`, `match`,
`tournament` and `score` on the author's machine, `login`, `submit` and `test` with a
site; `agon` (the platform's, agon.cli) offers all of COMMANDS and its own (`up`,
`demo`, ...) with them.

Each command is a module with a `register(commands)`; a module is imported only when its
command is the one run, so that a command starts as fast as what it uses allows: `agon
play --help` does not load the platform, the tournament formats or networkx.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Mapping, Sequence

from agon_kit import common

Registry = Mapping[str, tuple[str, str]]
"""A command's name -> the module that registers it (with its options) and its line in
the list of commands (the module's own `help`, which a test keeps equal)."""

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("agon_kit.play", "play one match between bots"),
    "match": (
        "agon_kit.match",
        "test whether one bot is stronger than another (sequential test)",
    ),
    "tournament": ("agon_kit.tournament", "play a tournament between bots"),
    "view": ("agon_kit.view", "write a replay as one HTML file that plays it offline"),
    "replay": ("agon_kit.replay", "verify a replay or show a position from it"),
    "score": ("agon_kit.score", "score cities given as JSON"),
    "login": ("agon_kit.login", "keep your API token for the commands that talk to the site"),
    "submit": (
        "agon_kit.submit",
        "upload a bot, or a new version of it, and follow its validation",
    ),
    "test": (
        "agon_kit.version_test",
        "start a version test of your bot on the site and follow it",
    ),
    "dataset": (
        "agon_kit.dataset",
        "download a game's dataset of public matches (Parquet), or what is new in it",
    ),
}
"""Every command of this package, none of which needs Django or the platform."""

KIT_COMMANDS: Registry = COMMANDS
"""What `agon-kit` offers, in the order of its help: all of COMMANDS (`tournament` asks
for the kit's `tournament` extra where rich or networkx is missing)."""


def build_parser(
    commands: Registry = KIT_COMMANDS,
    *,
    prog: str = "agon-kit",
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
    for name, (module, summary) in commands.items():
        if name in subparsers.choices:
            continue  # its module registered it with another of its commands
        if chosen is None or name == chosen or _registers(commands, module, chosen):
            if module not in registered:
                importlib.import_module(module).register(subparsers)
                registered.add(module)
        else:
            subparsers.add_parser(name, help=summary, add_help=False)
    if prog != "agon":
        _name_commands_by(prog, subparsers.choices.values())
    return parser


def _registers(commands: Registry, module: str, command: str | None) -> bool:
    """Whether `module` registers `command` (a module may register several)."""
    return command is not None and command in commands and commands[command][0] == module


def chosen_command(argv: Sequence[str], commands: Registry) -> str | None:
    """The command `argv` names (its first word; the command has no option of its own
    before it but --help), or None when it names none of `commands`."""
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
    commands: Registry = KIT_COMMANDS,
    prog: str = "agon-kit",
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
