"""`agon score GAME FILE`: score positions given as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agon_kit.common import fail, print_json
from engine.registry import game_ids, get_spec


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "score",
        help="score cities given as JSON",
        description="Score one city, or a list of them, given in the JSON form of the game's "
        "rules file. Prints the same shape back: per city "
        '{"total", "stones", "colors": {COLOR: {"value", "stars", "points"}}}. '
        "Any surface is scored; no check is made that a real game could reach it.",
        epilog='example city: {"stones": 2, "variants": ["markets"], "hexes": '
        '[{"q": 0, "r": 0, "level": 1, "kind": "plaza", "color": "house", "stars": 1}]}',
    )
    # Every game is a choice: which ones score JSON cities is their specs' to say, and
    # loading the four to list them cost the help 6x an interpreter's start.
    parser.add_argument(
        "game", choices=game_ids(), help="the game (one whose rules give cities a JSON form)"
    )
    parser.add_argument("file", metavar="FILE", help="a JSON file, or - for standard input")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        return fail(f"cannot read {args.file}: {error}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return fail(f"{args.file} is not valid JSON: {error}")
    score_json = get_spec(args.game).score_json
    if score_json is None:
        return fail(f"{args.game} has no JSON positions to score")
    try:
        scored = score_json(data)
    except ValueError as error:
        return fail(f"{args.file}: {error}")
    print_json(scored)
    return 0
