"""The embedded broker is first in, first out at any uptime: kombu's file-system transport
named its files by milliseconds since boot, unpadded, and took new messages before old
ones once that number gained a digit (agon.filesystem_broker)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from unittest import mock

import pytest
from pytest_django import Settings

from agon.celery import app
from agon.filesystem_broker import SEQUENCE_DIGITS, SEQUENCE_FILE, message_name, sequence_next
from tests.platform.pipeline.support import embedded_broker

BOUNDARIES_MS = [10**6, 10**7, 10**8, 10**9]
"""Uptimes at which kombu's names gain a digit: 16.7 minutes, 2.8 hours, 27.8 hours, 11.6 days."""


def sent_and_received(queue_name: str, uptimes_ms: list[int]) -> list[int]:
    """Send one message per uptime (kombu's clock made to read it), then receive them all."""
    received: list[int] = []
    with app.connection_for_write() as connection:
        # (A queue of its own: kombu remembers the queues it bound, in any folder, per process.)
        queue = connection.SimpleQueue(queue_name)
        try:
            for number, uptime in enumerate(uptimes_ms):
                with mock.patch("kombu.transport.filesystem.monotonic", return_value=uptime / 1000):
                    queue.put(number)
            for _ in uptimes_ms:
                message = queue.get(timeout=2)
                received.append(message.payload)
                message.ack()
        finally:
            queue.close()
    return received


@pytest.mark.parametrize("boundary", BOUNDARIES_MS)
def test_the_embedded_broker_is_first_in_first_out_across_an_uptime_boundary(
    settings: Settings, tmp_path: Path, boundary: int
) -> None:
    with embedded_broker(settings, tmp_path / "broker"):
        uptimes = [boundary - 2, boundary - 1, boundary, boundary + 1]
        assert sent_and_received(f"fifo-{boundary}", uptimes) == [0, 1, 2, 3]


def test_names_sort_in_the_order_sent_when_the_sequence_gains_a_digit(tmp_path: Path) -> None:
    (tmp_path / SEQUENCE_FILE).write_text(f"{9_998:0{SEQUENCE_DIGITS}d}")
    numbers = [sequence_next(tmp_path) for _ in range(4)]
    assert numbers == [9_999, 10_000, 10_001, 10_002]
    names = [message_name(number, "matches") for number in numbers]
    assert sorted(names) == names
    assert {name.partition(".")[2] for name in names} == {"matches.msg"}


def _take_numbers(folder: str, count: int, out: multiprocessing.Queue[list[int]]) -> None:
    out.put([sequence_next(Path(folder)) for _ in range(count)])


def test_senders_in_several_processes_never_share_a_number(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    out: multiprocessing.Queue[list[int]] = context.Queue()
    senders = [
        context.Process(target=_take_numbers, args=(str(tmp_path), 50, out)) for _ in range(4)
    ]
    for sender in senders:
        sender.start()
    taken = [number for _ in senders for number in out.get(timeout=60)]
    for sender in senders:
        sender.join(timeout=10)
    assert sorted(taken) == list(range(1, 201))
    for process_numbers in (taken[i : i + 50] for i in range(0, 200, 50)):
        assert process_numbers == sorted(process_numbers)
