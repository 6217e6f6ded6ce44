"""Run one match between bot programs in boxes: the sandbox's single entry point.

    record = run_match(game_id="akropolis", seed=7, options={}, programs=[...])

Each program is a builtin bot (run in-process: it is our code) or an uploaded
package (always boxed). Whatever happens, every box, process and folder the match
made is gone when `run_match` returns or raises.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bots import BUILTIN_BOTS, builtin_bot
from engine.core import JSON
from engine.match import play_match
from engine.players import Player
from engine.registry import get_game
from engine.replay import Replay
from sandbox.backends import Backend, BoxSpec, SandboxError, get_backend
from sandbox.limits import Limits, limits_for
from sandbox.packages import unpack_bot
from sandbox.referee import BoxBot


@dataclass(frozen=True)
class Program:
    """A seat's bot: `builtin:NAME`, or a package (a .py file or an archive) as bytes."""

    bot_id: str
    package: bytes | None = None
    filename: str | None = None

    @classmethod
    def builtin(cls, name: str) -> Program:
        if name not in BUILTIN_BOTS:
            raise ValueError(
                f"unknown builtin bot {name!r}; builtin bots: {', '.join(BUILTIN_BOTS)}"
            )
        return cls(bot_id=f"builtin:{name}")

    @classmethod
    def from_file(cls, path: Path, bot_id: str | None = None) -> Program:
        return cls(bot_id=bot_id or path.name, package=path.read_bytes(), filename=path.name)


@dataclass
class SeatReport:
    log: str = ""
    """The log as text to read, with a note of what was dropped."""
    log_bytes: bytes = b""
    """The log as the bot wrote it, byte for byte (any bytes: NUL, invalid UTF-8...)."""
    log_dropped_bytes: int = 0
    """How much more it wrote than the limit let the referee keep."""
    turn_log_offsets: list[int] = field(default_factory=list)
    """Where each of its turns begins in `log_bytes` (see `BoxBot.turn_log_offsets`)."""
    turn_milliseconds: list[int] = field(default_factory=list)
    """How long each of its turns took (see `BoxBot.turn_milliseconds`)."""
    turns: int = 0
    thinking_seconds: float = 0.0
    slowest_turn_seconds: float = 0.0
    memory_peak_bytes: int | None = None


@dataclass
class MatchRecord:
    replay: Replay
    seats: list[SeatReport]
    backend: str
    limits: Limits
    start_seconds: float = 0.0
    """Time to unpack and start every box."""
    match_seconds: float = 0.0
    """Wall time of the whole match, boxes included."""
    extra: dict[str, Any] = field(default_factory=dict)


def open_boxes(
    backend: Backend, specs: Mapping[int, BoxSpec], limits: Limits, cleanup: contextlib.ExitStack
) -> dict[int, BoxBot]:
    """Every seat's box, opened at the same time, each held still (`BoxBot`) as soon as it
    is open; each closed by `cleanup`. Opening a box is mostly waiting (for the fork and
    exec of bubblewrap, a fork server's answer, a container engine), and seats' boxes
    opened one after another put every wait on the match's clock. If one cannot be
    opened, the error is raised once every other has opened (and is closed by
    `cleanup`).

    The opening threads live until every box is closed: a process started with
    PR_SET_PDEATHSIG (bubblewrap's --die-with-parent) is killed when the *thread* that
    started it ends, and a box whose bubblewrap died that way looked ended to its
    referee, which then never froze it between turns."""

    def open_one(spec: BoxSpec) -> BoxBot:
        return BoxBot(backend.open(spec), limits)

    if len(specs) < 2:
        opened = {seat: open_one(spec) for seat, spec in specs.items()}
        for bot in opened.values():
            cleanup.callback(bot.close)
        return opened
    pool = concurrent.futures.ThreadPoolExecutor(len(specs), "agon-box-open")
    cleanup.callback(pool.shutdown)  # after the boxes' closes: an exit stack unwinds last first
    futures = {seat: pool.submit(open_one, spec) for seat, spec in specs.items()}
    concurrent.futures.wait(futures.values())
    opened, errors = {}, []
    for seat, future in futures.items():
        error = future.exception()
        if error is None:
            opened[seat] = future.result()
            cleanup.callback(opened[seat].close)
        else:
            errors.append(error)
    if errors:
        raise errors[0]
    return opened


def run_match(
    *,
    game_id: str,
    seed: int,
    options: Mapping[str, JSON],
    programs: Sequence[Program],
    sandbox: str | Backend = "auto",
    limits: Mapping[str, Any] | None = None,
    workdir: Path | None = None,
    on_turn: Callable[[Any, int, JSON], None] | None = None,
    seat_players: Mapping[int, Player] | None = None,
) -> MatchRecord:
    """Play a whole match. Raises SandboxError if the sandbox itself cannot work, and
    ValueError for a bad game, options or package; a bot's failure is a recorded fault.
    `on_turn(state, seat, action)` is told of every action as it is applied (the
    platform shows a running match with it). `seat_players` play their seats in this
    process in place of the seats' programs (the platform's human seats: its program
    only names the seat's player, `human:NAME`)."""
    game = get_game(game_id)
    match_limits = limits_for(game_id, limits)
    started = time.monotonic()
    backend = get_backend(sandbox) if isinstance(sandbox, str) else sandbox
    with contextlib.ExitStack() as cleanup:
        specs: dict[int, BoxSpec] = {}
        for seat, program in enumerate(programs):
            if (seat_players and seat in seat_players) or program.package is None:
                continue
            folder = Path(cleanup.enter_context(tempfile.TemporaryDirectory(dir=workdir)))
            folder.chmod(0o755)
            unpack_bot(program.package, program.filename or "main.py", folder)
            specs[seat] = BoxSpec(folder, match_limits, label=f"seat{seat}")
        boxed = open_boxes(backend, specs, match_limits, cleanup)
        bots: list[Player] = [
            seat_players[seat]
            if seat_players and seat in seat_players
            else boxed[seat]
            if seat in boxed
            else builtin_bot(program.bot_id.removeprefix("builtin:"), game_id, seed, seat)
            for seat, program in enumerate(programs)
        ]
        start_seconds = time.monotonic() - started
        replay = play_match(
            game,
            seed=seed,
            players=len(programs),
            options=dict(options),
            bots=bots,
            bot_ids=[p.bot_id for p in programs],
            on_turn=on_turn,
        )
        _raise_sandbox_failures(boxed, replay.faults)
        seats = []
        for seat in range(len(programs)):
            boxed_bot = boxed.get(seat)
            if boxed_bot is None:
                seats.append(SeatReport())
                continue
            boxed_bot.close()
            seats.append(
                SeatReport(
                    log=boxed_bot.log(),
                    log_bytes=boxed_bot.log_bytes(),
                    log_dropped_bytes=boxed_bot.log_dropped_bytes,
                    turn_log_offsets=boxed_bot.turn_log_offsets(),
                    turn_milliseconds=boxed_bot.turn_milliseconds(),
                    turns=boxed_bot.turns,
                    thinking_seconds=boxed_bot.thinking_seconds,
                    slowest_turn_seconds=boxed_bot.slowest_turn_seconds,
                    memory_peak_bytes=boxed_bot.memory_peak_bytes,
                )
            )
    return MatchRecord(
        replay=replay,
        seats=seats,
        backend=backend.name,
        limits=match_limits,
        start_seconds=start_seconds,
        match_seconds=time.monotonic() - started,
    )


def _raise_sandbox_failures(
    boxed: Mapping[int, BoxBot], faults: Sequence[Mapping[str, Any]]
) -> None:
    """SandboxError if a seat's fault was the sandbox's (its box's fork server ended):
    the match is not the bots' to lose, and the platform plays it again."""
    for fault in faults:
        bot = boxed.get(int(fault["seat"]))
        failure = bot.sandbox_failure() if bot is not None else None
        if failure is not None:
            raise SandboxError(f"seat {fault['seat']}: {failure}")


__all__ = ["MatchRecord", "Program", "SandboxError", "SeatReport", "run_match"]
