"""What one box can hold and what it can see of the others (issue 12, findings 5 and 6).

Every place a box can write to is a tmpfs of the box's own, and all of them together
hold no more than `scratch_bytes`; nothing a box can read of /proc, /sys or sysinfo(2)
moves with the work of another box (or of anything else on the host) between its turns.
"""

from __future__ import annotations

from sandbox.runner import Program
from tests.sandbox.support import Arena, assert_no_fault, only_report

RANDOM = Program.builtin("random")
MIB = 1024 * 1024
SCRATCH = 4 * MIB


def test_every_writable_place_together_holds_no_more_than_the_scratch_limit(
    boxed_arena: Arena,
) -> None:
    record = boxed_arena.play(
        boxed_arena.hostile("store_everywhere", place_cap_bytes=4 * SCRATCH),
        RANDOM,
        limits={"scratch_bytes": SCRATCH, "turn_seconds": 10, "first_turn_seconds": 10},
    )
    assert_no_fault(record)
    found = only_report(record.seats[0].log)
    stored = found["stored"]
    assert "/tmp" in stored, stored  # noqa: S108 - the box's scratch
    assert SCRATCH // 2 <= sum(stored.values()) <= SCRATCH, stored
    assert found["message_queues"]["created"] is False, found["message_queues"]


def test_what_python_needs_of_dev_and_shm_still_works(boxed_arena: Arena) -> None:
    record = boxed_arena.play(
        boxed_arena.hostile("store_everywhere", place_cap_bytes=0),
        RANDOM,
        limits={"turn_seconds": 10},
    )
    assert_no_fault(record)
    needs = only_report(record.seats[0].log)["python_needs"]
    assert needs == {name: "ok" for name in needs}


def test_no_counter_a_box_can_read_moves_between_its_turns(boxed_arena: Arena) -> None:
    watcher = boxed_arena.hostile("watch_other_box", report_turn=10)
    worker = boxed_arena.bot("busy_every_other_turn", busy_seconds=0.2, busy_bytes=32 * MIB)
    record = boxed_arena.play(
        watcher,
        worker,
        limits={
            "turn_seconds": 5,
            "first_turn_seconds": 10,
            "time_bank_seconds": 10,
            "log_bytes": MIB,
        },
    )
    assert_no_fault(record)
    found = only_report(record.seats[0].log)
    assert found["files"] > 100  # it did look around
    assert found["followed"] == []
    assert found["moved"] == []


def test_a_box_shows_one_cpu_and_its_own_memory_limit(boxed_arena: Arena) -> None:
    memory = 96 * MIB
    record = boxed_arena.play(
        boxed_arena.hostile("watch_other_box", report_turn=0),
        RANDOM,
        limits={"memory_bytes": memory, "turn_seconds": 5, "first_turn_seconds": 10},
    )
    assert_no_fault(record)
    found = only_report(record.seats[0].log)
    assert found["cpu_count"] == 1
    assert found["memory_bytes"] == memory
