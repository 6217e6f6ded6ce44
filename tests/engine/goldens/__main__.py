"""Rewrite the golden playthroughs: `python -m tests.engine.goldens [--check] [GAME ...]`."""

from __future__ import annotations

import argparse
import sys

from engine.registry import game_ids
from tests.engine.goldens.playthroughs import GOLDENS, build_golden, golden_text


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.engine.goldens",
        description="Rewrite the golden playthroughs that tests/engine/test_goldens.py "
        "compares every game against. ONLY for a deliberate change of the rules, a "
        "builtin bot, an observation or a view: review the diff of the files it writes, "
        "and bump the game's rules_version if old replays would play differently. A "
        "refactoring must not need it.",
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help=f"only these games' goldens (default: all of {', '.join(game_ids())})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit with status 1 if any golden file is missing or out of date",
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(game_ids()))
    if unknown:  # not argparse's choices: with nargs="*" they refuse no game at all
        parser.error(f"unknown game {', '.join(unknown)}; choose from {', '.join(game_ids())}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    stale = []
    for golden in GOLDENS:
        if args.games and golden.game not in args.games:
            continue
        text = golden_text(build_golden(golden))
        current = golden.path.read_text(encoding="utf-8") if golden.path.exists() else None
        if current == text:
            print(f"{golden.id}: up to date")
            continue
        stale.append(golden.id)
        if args.check:
            print(f"{golden.id}: out of date")
        else:
            golden.path.parent.mkdir(parents=True, exist_ok=True)
            golden.path.write_text(text, encoding="utf-8")
            print(f"{golden.id}: written ({len(text) // 1024} KB)")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
