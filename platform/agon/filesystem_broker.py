"""The embedded broker: kombu's file-system transport, first in, first out at any uptime.

kombu (5.7) names a message file `<ms>_<uuid>.<queue>.msg`, where `<ms>` is
`time.monotonic()` in milliseconds, the time since the machine started, not zero-padded,
and takes a queue's files in sorted order. Once that number gains a digit (1,000,000 ms
after boot, then 2.8 hours, 27.8 hours, 11.6 days) every new file sorts before every
older one: new messages are taken first and the old ones wait until the queue is empty,
which a busy ladder never lets happen. Here each file is named by a sequence number
kept in the queue folder, zero-padded to a fixed width and taken under a lock, so that
sorted order is the order in which messages were sent, by any process, across restarts.

A worker reads its queues in the order it names them (`--queues first,then`), as Redis
does with `queue_order_strategy = "priority"`: a message on an earlier queue is taken
before any on a later one (kombu's own rotates between the queues).

Settings select it with CELERY_BROKER_TRANSPORT = FIFO_TRANSPORT for a `filesystem://`
broker URL; the URL and the transport options are kombu's.
"""

from __future__ import annotations

import fcntl
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps
from kombu.utils.scheduling import FairCycle

FIFO_TRANSPORT = "agon.filesystem_broker:Transport"
"""The transport's path, for CELERY_BROKER_TRANSPORT (kombu imports it by name)."""
SEQUENCE_FILE = "sequence"
"""The counter, in the queue folder (no dot in its name: no queue reads it as a message)."""
SEQUENCE_DIGITS = 20
"""Wide enough for any count of messages (2**64 has 20 digits): names never gain a digit."""


def sequence_next(folder: Path) -> int:
    """The next number of the folder's sequence (1 for a new folder), under an exclusive
    lock, so concurrent senders (the web's processes, beat, the worker) get distinct,
    increasing numbers. The counter is rewritten in place at a fixed width."""
    descriptor = os.open(folder / SEQUENCE_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        text = os.pread(descriptor, SEQUENCE_DIGITS, 0).strip()
        number = int(text or b"0") + 1
        os.pwrite(descriptor, f"{number:0{SEQUENCE_DIGITS}d}".encode(), 0)
        return number
    finally:
        os.close(descriptor)  # and the lock with it


def message_name(number: int, queue: str) -> str:
    """A message file's name: sorted by name is sorted by number."""
    return f"{number:0{SEQUENCE_DIGITS}d}_{uuid.uuid4()}.{queue}.msg"


class QueuesInOrder(FairCycle):
    """Takes from the first of its queues that has a message, always starting with the
    first (FairCycle starts after the queue it last took from)."""

    def get(self, callback: Callable[..., Any] | None, **kwargs: Any) -> Any:
        for queue in list(self.resources):
            try:
                return self.fun(queue, callback, **kwargs)
            except self.predicate:
                continue
        raise self.predicate()


class Channel(filesystem.Channel):
    # kombu's file-system Channel names the message `payload`, its base class `message`.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        folder = Path(self.data_folder_out)
        path = folder / message_name(sequence_next(folder), queue)
        try:
            # Written under another name, then renamed: a reader never sees half a message.
            partial = path.with_name(f"{path.name}.partial")
            partial.write_bytes(dumps(payload).encode())
            partial.rename(path)
        except OSError as error:
            raise ChannelError(f"cannot add the message file {path}") from error

    def _reset_cycle(self) -> None:
        self._cycle = QueuesInOrder(self._get_and_deliver, self._active_queues, Empty)


class Transport(filesystem.Transport):
    Channel = Channel
