"""`agon play`: one match between bots; prints the result as the last line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agon.cli.common import fail, parse_option, print_json
from engine.core import InvalidOptions
from engine.match import play_match
from engine.registry import UnknownGame, game_ids, get_game
from sandbox.bots import SANDBOXES, BotSpecError, resolve_bot

EXAMPLES = """\
examples:
  agon play --game akropolis --seed 1 builtin:greedy builtin:random
  agon play --game akropolis --seed 7 --option markets=true --replay m.json \\
      builtin:greedy builtin:greedy builtin:random builtin:random
  agon play --game akropolis --seed 3 --sandbox none my_bot.py builtin:greedy

The last line printed is one JSON object:
  {"ranks": [...], "scores": [...], "faults": [...], "replay": PATH or null}
ranks are per seat, 1 is best; tied seats share a rank."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play one match between bots",
        description="Play one match between two to four bots and print the result.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", required=True, help=f"game id: {', '.join(game_ids())}")
    parser.add_argument("--seed", required=True, type=int, help="match seed (0 .. 2**64-1)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        type=parse_option,
        metavar="KEY=VALUE",
        help="a game option, e.g. all_tiles=true (repeatable)",
    )
    parser.add_argument("--replay", type=Path, metavar="PATH", help="write the replay JSON here")
    parser.add_argument(
        "--sandbox",
        choices=SANDBOXES,
        default="auto",
        help="where bot programs run; 'none' runs them unboxed (trusted code only)",
    )
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="builtin:random, builtin:greedy or a bot file, one per seat",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
    except UnknownGame as error:
        return fail(str(error))
    players = len(args.bots)
    if players not in game.player_counts:
        counts = ", ".join(str(n) for n in game.player_counts)
        return fail(f"{game.name} is played by {counts} players, not {players}")
    options = dict(args.option)
    try:
        resolved = [
            resolve_bot(spec, game_id=game.id, seed=args.seed, seat=seat, sandbox=args.sandbox)
            for seat, spec in enumerate(args.bots)
        ]
        replay = play_match(
            game,
            seed=args.seed,
            players=players,
            options=options,
            bots=[r.bot for r in resolved],
            bot_ids=[r.bot_id for r in resolved],
        )
    except (BotSpecError, InvalidOptions) as error:
        return fail(str(error))
    if args.replay is not None:
        try:
            replay.write(args.replay)
        except OSError as error:
            return fail(f"cannot write the replay: {error}")
    for seat, bot_id in enumerate(replay.bots):
        score = replay.result["scores"][seat]
        rank = replay.result["ranks"][seat]
        print(f"seat {seat}: {bot_id:<28} score {score:>4}  rank {rank}")
    for fault in replay.faults:
        seat, kind, turn = fault["seat"], fault["kind"], fault["turn"]
        print(f"fault: seat {seat} {kind} on turn {turn}: {fault['detail']}")
    print_json(
        {
            "ranks": replay.result["ranks"],
            "scores": replay.result["scores"],
            "faults": replay.faults,
            "replay": str(args.replay) if args.replay is not None else None,
        }
    )
    return 0
