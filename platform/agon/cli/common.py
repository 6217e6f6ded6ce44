"""Small helpers shared by the `agon` subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.core import JSON
from sandbox.backends import BACKENDS


def fail(message: str) -> int:
    print(f"agon: error: {message}", file=sys.stderr)
    return 2


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
