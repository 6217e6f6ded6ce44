"""`agon tournament`: a whole event between local bots; prints the standings last."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_kit.common import fail, fail_box, print_json
from agon_kit.games import (
    Played,
    Setup,
    add_arguments,
    bot_names,
    play_games,
    programs_for,
    seats_problem,
    worker_pool,
)
from agon_kit.progress import progress_bar
from competition.formats.core import ScheduledGame, deal_seed
from competition.formats.protocol import Format, Settings
from competition.formats.registry import format_names, get_format
from engine.errors import InvalidOptions
from engine.registry import game_ids
from sandbox.errors import PackageError, SandboxError

STATE_FILE = "tournament.json"

EXAMPLES = """\
examples:
  agon tournament --game architekton --format round-robin builtin:greedy builtin:random \\
      my_bot.py
  agon tournament --game akropolis --format swiss --rounds 5 --jobs 2 --replays out/ \\
      a.py b.py c.py d.py e.py f.py
  agon tournament --game megalopolis --format knockout --players 4 --games 2 bots/*.py
  agon tournament --game attika --format gauntlet new.py old.py builtin:greedy

Bots are given as for `agon play` (files or builtin:NAME), best seed first. Each meeting of
a table is one game per rotation of its seats, each dealt afresh (two players: a pair of
games with the seats swapped); --games sets the meetings a table plays. A Swiss bye is worth a
won meeting.

With --replays DIR every game's replay and the tournament's state (DIR/tournament.json)
are written there as games end: after Ctrl-C the same command resumes where it stopped.
The same command gives the same standings, whatever --jobs.

The last line printed is one JSON object:
  {"format", "standings": [{"bot", "rank", "points", "tiebreaks"}],
   "matches": [{"round", "bots", "ranks", "scores", "replay"}]}"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "tournament",
        help="play a tournament between bots",
        description="Play a round robin, Swiss, knockout or gauntlet between bots and print "
        "the standings.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", required=True, help=f"game id: {', '.join(game_ids())}")
    parser.add_argument(
        "--format", required=True, choices=format_names(), help="the event's format"
    )
    parser.add_argument(
        "--rounds", type=int, metavar="N", help="Swiss rounds (default: log2 of the field + 1)"
    )
    parser.add_argument(
        "--games", type=int, default=1, metavar="K", help="meetings of each table (default 1)"
    )
    parser.add_argument(
        "--players", type=int, default=2, metavar="P", help="bots at a table (default 2)"
    )
    parser.add_argument("--replays", type=Path, metavar="DIR", help="write replays and state here")
    add_arguments(parser)
    parser.add_argument("bots", nargs="+", metavar="BOT", help="the entrants, best seed first")
    parser.set_defaults(run=run)


def build_format(args: argparse.Namespace) -> Format:
    """The format named by --format, from the registry (--rounds only where it has rounds)."""
    kind = get_format(args.format)
    rounds = args.rounds if kind.TAKES_ROUNDS else None
    settings = Settings(len(args.bots), args.seed, args.players, args.games, rounds)
    return kind.from_settings(settings)


OPTIONAL_NEEDS = ("rich", "networkx")
"""What this command needs beyond the kit: rich draws its tables, networkx pairs a Swiss
round that the quick rules cannot (the kit's `tournament` extra)."""


def missing_needs() -> list[str]:
    return [name for name in OPTIONAL_NEEDS if importlib.util.find_spec(name) is None]


def run(args: argparse.Namespace) -> int:
    if missing := missing_needs():
        return fail(
            f"tournament needs {' and '.join(missing)}, which the kit installs only "
            f'when asked: pip install "agon-kit[tournament] @ <the kit\'s URL>" '
            f"(or pip install {' '.join(missing)})"
        )
    if problem := seats_problem(args.game, args.players):
        return fail(problem)
    if args.jobs < 1 or args.games < 1 or (args.rounds is not None and args.rounds < 1):
        return fail("--jobs, --games and --rounds are at least 1")
    try:
        event = build_format(args)
        setup = Setup(
            args.game,
            dict(args.option),
            programs_for(args.bots),
            args.sandbox,
            dict(args.limit),
            args.replays,
        )
        if args.replays is not None:
            args.replays.mkdir(parents=True, exist_ok=True)
        config = state_config(args, setup)
        played = load_state(args.replays, config)
        play_event(event, setup, played, args.jobs, config)
    except (InvalidOptions, PackageError, SandboxError, ValueError, OSError) as error:
        return fail_box(error)
    names = bot_names(args.bots)
    results = [p.result for p in played]
    # rich, an optional part of the kit: imported once it is known to be there.
    from agon_kit import tournament_view

    tournament_view.draw(event, results, names)
    print_json(summary(args.format, event, played, names))
    return 0


def play_event(
    event: Format, setup: Setup, played: list[Played], jobs: int, config: dict[str, Any]
) -> None:
    """Ask the format for games until it has none left, saving the state after each."""
    with progress_bar(0, "playing") as progress, worker_pool(jobs) as pool:
        task = progress.task_ids[0]
        while games := event.next_games([p.result for p in played]):
            byes = [Played(g, (1,), (), None) for g in games if g.is_bye]
            played += byes
            real = [g for g in games if not g.is_bye]
            progress.update(task, total=len(played) + len(real), completed=len(played))
            try:
                for game in play_games(setup, real, pool):
                    played.append(game)
                    progress.advance(task)
                    save_state(setup.replays, config, played)
            except KeyboardInterrupt:
                if setup.replays is not None:
                    save_state(setup.replays, config, played)
                    progress.console.print("interrupted: run the same command to resume")
                raise


def state_config(args: argparse.Namespace, setup: Setup) -> dict[str, Any]:
    """What must match for a saved state to be resumed."""
    return {
        "game": args.game,
        "format": args.format,
        "rounds": args.rounds,
        "games": args.games,
        "players": args.players,
        "seed": args.seed,
        "options": setup.options,
        "bots": [program.bot_id for program in setup.programs],
    }


def load_state(folder: Path | None, config: dict[str, Any]) -> list[Played]:
    if folder is None or not (folder / STATE_FILE).exists():
        return []
    state = json.loads((folder / STATE_FILE).read_text())
    if state.get("config") != config:
        raise ValueError(
            f"{folder / STATE_FILE} belongs to another tournament; use another --replays DIR"
        )
    return [
        Played(
            ScheduledGame(g["round"], g["tie"], g["index"], tuple(g["bots"]), g["seed"]),
            tuple(g["ranks"]),
            tuple(g["scores"]),
            g["replay"],
        )
        for g in state["played"]
    ]


def save_state(folder: Path | None, config: dict[str, Any], played: Sequence[Played]) -> None:
    if folder is None:
        return
    state = {
        "config": config,
        "played": [
            {
                "round": p.game.round,
                "tie": p.game.tie,
                "index": p.game.index,
                "bots": list(p.game.bots),
                "seed": p.game.seed,
                "deal": deal_seed(p.game),
                "ranks": list(p.ranks),
                "scores": list(p.scores),
                "replay": p.replay,
            }
            for p in played
        ],
    }
    partial = folder / f".{STATE_FILE}.partial"
    partial.write_text(json.dumps(state))
    os.replace(partial, folder / STATE_FILE)


def summary(
    format_name: str, event: Format, played: Sequence[Played], names: Sequence[str]
) -> dict[str, Any]:
    results = [p.result for p in played]
    ordered = sorted((p for p in played if not p.game.is_bye), key=lambda p: p.game)
    return {
        "format": format_name,
        "standings": [
            {
                "bot": names[s.bot],
                "rank": s.rank,
                "points": s.points,
                "tiebreaks": s.tiebreaks,
            }
            for s in event.standings(results)
        ],
        "matches": [
            {
                "round": p.game.round,
                "bots": [names[bot] for bot in p.game.bots],
                "ranks": list(p.ranks),
                "scores": list(p.scores),
                "replay": p.replay,
            }
            for p in ordered
        ],
    }
