"""`agon play`: one match between bots; prints the result as the last line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agon_kit.common import add_box_arguments, fail, fail_box, print_json
from engine.bots import BUILTIN_BOTS
from engine.errors import InvalidOptions
from engine.registry import UnknownGame, game_ids, get_game
from sandbox.errors import PackageError, SandboxError

if TYPE_CHECKING:
    from engine.replay import Replay
    from sandbox.runner import Program

# What a match needs (the sandbox's runner, the engine's match, the viewer's page) is
# imported by the functions that play it, not for the options: `agon play --help` cost
# 4x an interpreter's start with them, and `match` and `tournament` build on this module.

EXAMPLES = """\
examples:
  agon play --game akropolis --seed 1 builtin:greedy builtin:random
  agon play --game akropolis --seed 7 --option markets=true --replay m.json \\
      builtin:greedy builtin:greedy builtin:random builtin:random
  agon play --game akropolis --seed 3 my_bot.py builtin:greedy
  agon play --game akropolis --seed 3 --replay m.json --view my_bot.py builtin:greedy
  agon play --game akropolis --seed 3 --sandbox none --limit turn_seconds=5 my_bot.py builtin:greedy

A bot file is a .py file, or a .zip / .tar.gz with main.py at the top. It runs in a box
(--sandbox auto: Docker when an engine answers, else bubblewrap); --sandbox none runs it
unboxed, for your own trusted code only.

The last line printed is one JSON object:
  {"ranks": [...], "scores": [...], "faults": [...], "replay": PATH or null}
ranks are per seat, 1 is best; tied seats share a rank."""


BUILTINS_SHOWN = ", ".join(f"builtin:{name}" for name in BUILTIN_BOTS)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play one match between bots",
        description="Play one match between bots (one per seat) and print the result.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", required=True, help=f"game id: {', '.join(game_ids())}")
    parser.add_argument("--seed", required=True, type=int, help="match seed (0 .. 2**64-1)")
    add_box_arguments(parser)
    parser.add_argument("--replay", type=Path, metavar="PATH", help="write the replay JSON here")
    parser.add_argument(
        "--view",
        action="store_true",
        help="at the end, write the replay as an HTML page that plays it offline (next to "
        "--replay, else a temporary file) and open it in a web browser",
    )
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help=f"{BUILTINS_SHOWN} or a bot file, one per seat",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The match's modules: see the note at the top.
    from engine.match import fault_reason
    from sandbox.runner import run_match

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
        programs = [program_for(spec) for spec in args.bots]
        record = run_match(
            game_id=game.id,
            seed=args.seed,
            options=options,
            programs=programs,
            sandbox=args.sandbox,
            limits=dict(args.limit),
        )
    except (InvalidOptions, PackageError, SandboxError, ValueError, OSError) as error:
        return fail_box(error)
    replay = record.replay
    if args.replay is not None:
        try:
            replay.write(args.replay)
        except OSError as error:
            return fail(f"cannot write the replay: {error}")
    for seat, bot_id in enumerate(replay.bots):
        score = replay.result["scores"][seat]
        rank = replay.result["ranks"][seat]
        print(f"seat {seat}: {bot_id:<28} score {score:>4}  rank {rank}")
    for seat, report in enumerate(record.seats):
        if report.log.strip():
            print(f"log of seat {seat} (last lines):")
            for line in report.log.strip().splitlines()[-5:]:
                print(f"  {line}")
    for fault in replay.faults:
        print(f"fault: seat {fault['seat']} {fault_reason(fault)}")
    if args.view:
        page = _write_view(replay, args.replay)
        if page is None:
            return 2
        print(f"replay viewer: {page}")
        from agon_kit import view  # the viewer's page: see the note at the top

        view.open_page(page)
    print_json(
        {
            "ranks": replay.result["ranks"],
            "scores": replay.result["scores"],
            "faults": replay.faults,
            "replay": str(args.replay) if args.replay is not None else None,
        }
    )
    return 0


def _write_view(replay: Replay, replay_path: Path | None) -> Path | None:
    """The offline viewer of the match just played: next to its replay, else a
    temporary file; None (said on stderr) if it cannot be written."""
    # The viewer's page: see the note at the top.
    import tempfile

    from agon_kit import view
    from engine.replay import ReplayError

    try:
        page = view.replay_page(replay)
        if replay_path is not None:
            return view.write_page(page, replay_path.with_suffix(".html"))
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", prefix="agon-replay-", suffix=".html", delete=False
        ) as temporary:
            temporary.write(page)
        return Path(temporary.name)
    except (ReplayError, OSError) as error:
        fail(f"cannot write the replay viewer: {error}")
        return None


def program_for(spec: str) -> Program:
    """builtin:NAME or a path to a bot file."""
    # The sandbox's runner: see the note at the top.
    import hashlib

    from sandbox.runner import Program

    if spec.startswith("builtin:"):
        return Program.builtin(spec.removeprefix("builtin:"))
    path = Path(spec)
    if not path.is_file():
        builtins = ", ".join(f"builtin:{name}" for name in BUILTIN_BOTS)
        raise ValueError(f"bot {spec!r} is neither a file nor one of {builtins}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return Program.from_file(path, bot_id=f"file:{path.name}@sha256:{digest}")
