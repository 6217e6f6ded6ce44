"""Small helpers shared by the `agon` subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from sandbox.backend_names import BACKENDS

if TYPE_CHECKING:
    from engine.core import JSON

PROG = "agon"
"""The command's name as the user typed it (`agon`, or the kit's `agon-kit`)."""

NO_BOX_WAY_OUT = (
    "to run your own bot anyway, pass --sandbox none: it runs unboxed, with no limits on "
    "files or network, which is fine for code you wrote and trust; for a box, run as root "
    "(bubblewrap needs cgroups) or where a Docker engine answers"
)


def fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def fail_box(error: Exception) -> int:
    """`fail`, and when no box works here, the way out."""
    message = str(error)
    if message.startswith("no sandbox works here"):
        message += f"\n{PROG}: {NO_BOX_WAY_OUT}"
    return fail(message)


def parse_option(text: str) -> tuple[str, JSON]:
    """KEY=VALUE from the command line; VALUE is JSON when it parses (true, 3), else a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are KEY=VALUE, not {text!r}")
    try:
        parsed: Any = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key, parsed


def print_json(value: JSON) -> None:
    print(json.dumps(value, separators=(", ", ": ")))


def add_box_arguments(parser: argparse.ArgumentParser) -> None:
    """`--option`, `--sandbox` and `--limit`: how the commands that play games set them up."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        type=parse_option,
        metavar="KEY=VALUE",
        help="a game option, e.g. all_tiles=true (repeatable)",
    )
    parser.add_argument(
        "--sandbox",
        choices=BACKENDS,
        default="auto",
        help="where bot programs run (default: auto); 'none' runs them unboxed",
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        type=parse_option,
        metavar="KEY=VALUE",
        help="override a limit, e.g. turn_seconds=2, memory_bytes=268435456 (repeatable)",
    )
