"""`agon replay verify|show`: check a replay by re-running it, or look at a position."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from agon_kit.common import fail
from engine.registry import UnknownGame, get_game
from engine.replay import Replay, ReplayError, replay_states, verify_replay


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="verify a replay or show a position from it",
        description="Work with replay files written by `agon play --replay`.",
    )
    actions = parser.add_subparsers(dest="replay_command", required=True, metavar="ACTION")
    verify = actions.add_parser(
        "verify",
        help="re-run a replay through the engine and compare the result",
        description="Re-run every action through the engine. Exit 0 when every action is "
        "legal and the stored result is reproduced; exit 1 with the reason otherwise.",
    )
    verify.add_argument("path", type=Path, metavar="PATH")
    verify.set_defaults(run=run_verify)
    show = actions.add_parser(
        "show",
        help="print a text picture of the position at a step",
        description="Print the position after K actions (default: the final position).",
    )
    show.add_argument("path", type=Path, metavar="PATH")
    show.add_argument("--step", type=int, metavar="K", help="actions played (0 = the setup)")
    show.set_defaults(run=run_show)


def _load(path: Path) -> Replay:
    replay = Replay.load(path)
    try:
        get_game(replay.game)
    except UnknownGame as error:
        raise ReplayError(str(error)) from None
    return replay


def run_verify(args: argparse.Namespace) -> int:
    try:
        replay = _load(args.path)
        verify_replay(replay)
    except ReplayError as error:
        print(f"{args.path}: INVALID: {error}")
        return 1
    print(
        f"{args.path}: OK: {replay.game}, {replay.players} players, seed {replay.seed}, "
        f"{len(replay.actions)} actions, scores {replay.result['scores']}, "
        f"ranks {replay.result['ranks']}"
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        replay = _load(args.path)
    except ReplayError as error:
        return fail(str(error))
    last = len(replay.actions)
    step = last if args.step is None else args.step
    if not 0 <= step <= last:
        return fail(f"--step must be between 0 and {last}")
    game = get_game(replay.game)
    try:
        state = next(s for index, s in enumerate(replay_states(replay)) if index == step)
    except ReplayError as error:
        return fail(str(error))
    print(f"Replay {args.path.name}: {', '.join(replay.bots)}")
    print(f"Step {step} of {last}")
    if step > 0:
        print(f"Last action: {json.dumps(replay.actions[step - 1])}")
    for fault in replay.faults:
        if fault.get("turn") == step - 1:
            print(f"Fault here: seat {fault['seat']} {fault['kind']}: {fault['detail']}")
    print(game.render_text(state), end="")
    return 0
