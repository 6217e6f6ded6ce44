"""The referee notes where each turn's log begins, so that the owner of a bot can read
what it wrote beside each of its turns (the replay viewer does)."""

from __future__ import annotations

from sandbox.runner import Program
from tests.sandbox.support import Arena, assert_no_fault

RANDOM = Program.builtin("random")


def turns_of(log: bytes, offsets: list[int]) -> list[bytes]:
    return [log[start:end] for start, end in zip(offsets, [*offsets[1:], len(log)], strict=True)]


def test_each_turn_s_log_begins_where_the_referee_says(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.bot("turn_logger", dirty_turn=3), RANDOM)
    assert_no_fault(record)
    seat = record.seats[0]
    assert len(seat.turn_log_offsets) == seat.turns > 10
    assert seat.turn_log_offsets[0] == 0
    expected = [f"turn {turn}\n".encode() for turn in range(seat.turns)]
    # The box runs from its first turn on: what the bot writes while starting is that turn's.
    expected[0] = b"starting\n" + expected[0]
    expected[3] += b"\x00nul \xff\xfe invalid \x1b[31m\n"
    assert turns_of(seat.log_bytes, seat.turn_log_offsets) == expected


def test_past_the_log_s_limit_the_turns_are_empty_and_the_offsets_stay_in_it(
    any_arena: Arena,
) -> None:
    log_bytes = 4096
    record = any_arena.play(
        any_arena.bot("turn_logger", flood_turn=2, flood_bytes=10 * log_bytes),
        RANDOM,
        limits={"log_bytes": log_bytes},
    )
    seat = record.seats[0]
    assert len(seat.log_bytes) == log_bytes
    turns = turns_of(seat.log_bytes, seat.turn_log_offsets)
    assert turns[:2] == [b"starting\nturn 0\n", b"turn 1\n"]
    assert turns[2].startswith(b"turn 2\nFFFF") and len(turns[2]) == log_bytes - 9 - 7 - 7
    assert turns[3:] == [b""] * (seat.turns - 3)
    assert max(seat.turn_log_offsets) == log_bytes
