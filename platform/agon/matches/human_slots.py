"""A worker's slots for human games: it plays at most AGON_HUMAN_GAMES_PER_WORKER at once.

A human game holds its pool process while its human thinks (minutes a move), so a
worker that took every human game sent its way would have no process left for the
matches nobody waits on. Before a pool process claims a human game it takes a slot: one
of AGON_HUMAN_GAMES_PER_WORKER lock files in the worker's AGON_WORK_DIR
(`human-slots/0`, `1`, ...), locked with `flock` for the whole game. The lock belongs to
the open file, so a process that dies (killed, out of memory) gives its slot back with
it: no slot is ever lost to a crash. The worker is its work folder: workers that share
one (on one machine) share its slots.

With every slot taken, `WorkerFull`: the match is not claimed (it stays queued, its
attempts untouched) and the task looks again `retry_in` seconds later, on whichever
worker takes it then.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SLOTS_FOLDER = "human-slots"
RETRY_SECONDS = 15.0
"""How long a human game turned away by a full worker waits before it is tried again."""


class WorkerFull(Exception):
    """Every human-game slot of this worker is taken."""

    def __init__(self, match_id: int, slots: int) -> None:
        super().__init__(
            f"human game {match_id}: this worker already plays its {slots} human games"
        )
        self.match_id = match_id
        self.retry_in = RETRY_SECONDS


@contextmanager
def human_game_slot(*, workdir: Path, slots: int, match_id: int) -> Iterator[int]:
    """Hold one of the worker's `slots` slots while the block runs (its number), or raise
    WorkerFull when all are held."""
    folder = workdir / SLOTS_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(slots):
        descriptor = os.open(folder / str(number), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            continue
        try:
            yield number
        finally:
            os.close(descriptor)  # closing the file releases its lock
        return
    raise WorkerFull(match_id, slots)
