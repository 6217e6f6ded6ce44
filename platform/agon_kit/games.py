"""Playing many games for `agon tournament` and `agon match`: boxed as in `agon play`, on
J processes, each game's replay written as it ends."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agon_kit.common import add_box_arguments
from agon_kit.play import program_for
from competition.formats.core import Result, ScheduledGame, deal_seed
from engine.registry import UnknownGame, get_game

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from engine.core import JSON
    from sandbox.runner import Program

# The runner and the process pool are imported by the functions that play, not for the
# options of `match` and `tournament` (as in agon_kit.play).


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares."""

    game_id: str
    options: dict[str, JSON]
    programs: tuple[Program, ...]
    sandbox: str
    limits: dict[str, Any]
    replays: Path | None


@dataclass(frozen=True)
class Played:
    game: ScheduledGame
    ranks: tuple[int, ...]
    scores: tuple[JSON, ...]
    replay: str | None

    @property
    def result(self) -> Result:
        return Result(self.game, self.ranks)


def seats_problem(game_id: str, players: int) -> str | None:
    """Why `players` bots cannot play the game `game_id`, or None when they can."""
    try:
        game = get_game(game_id)
    except UnknownGame as error:
        return str(error)
    if players not in game.player_counts:
        counts = ", ".join(str(n) for n in game.player_counts)
        return f"{game.name} is played by {counts} players, not {players}"
    return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `agon play` has, for commands that play many games."""
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="games played at once (default 1)"
    )
    add_box_arguments(parser)


def programs_for(specs: Sequence[str]) -> tuple[Program, ...]:
    return tuple(program_for(spec) for spec in specs)


def bot_names(specs: Sequence[str]) -> list[str]:
    """The bots as given, a repeated one numbered (builtin:greedy#2)."""
    names = []
    for index, spec in enumerate(specs):
        copies = specs[:index].count(spec)
        names.append(f"{spec}#{copies + 1}" if copies or specs.count(spec) > 1 else spec)
    return names


def play_one(setup: Setup, game: ScheduledGame) -> Played:
    from sandbox.runner import run_match  # the runner: see the note at the top

    record = run_match(
        game_id=setup.game_id,
        seed=deal_seed(game),
        options=setup.options,
        programs=[setup.programs[bot] for bot in game.bots],
        sandbox=setup.sandbox,
        limits=setup.limits,
    )
    replay_path = None
    if setup.replays is not None:
        path = setup.replays / f"round{game.round}-{game.tie}-{game.index}.json"
        record.replay.write(path)
        replay_path = str(path)
    result = record.replay.result
    return Played(game, tuple(result["ranks"]), tuple(result["scores"]), replay_path)


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor | None]:
    """Processes for `jobs` games at once, kept for the whole command (None for one)."""
    if jobs <= 1:
        yield None
        return
    from concurrent.futures import ProcessPoolExecutor  # the pool: see the note at the top

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield pool


def play_games(
    setup: Setup, games: Sequence[ScheduledGame], pool: ProcessPoolExecutor | None
) -> Iterator[Played]:
    """Play the games, on the pool when there is one, yielding each as it ends."""
    if pool is None:
        for game in games:
            yield play_one(setup, game)
        return
    from concurrent.futures import FIRST_COMPLETED, wait  # with the pool, see the top

    waiting = {pool.submit(play_one, setup, game) for game in games}
    try:
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in waiting:
            future.cancel()
