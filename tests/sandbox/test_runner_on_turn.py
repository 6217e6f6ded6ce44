"""`run_match` tells its caller of every action as it is applied (the platform shows a
running match from these)."""

from __future__ import annotations

from typing import Any

from engine.core import JSON
from sandbox.runner import Program, run_match


def test_it_reports_every_action_in_order_as_the_replay_records_it() -> None:
    seen: list[tuple[int, JSON]] = []

    def on_turn(state: Any, seat: int, action: JSON) -> None:
        seen.append((seat, action))

    record = run_match(
        game_id="akropolis",
        seed=3,
        options={},
        programs=[Program.builtin("random"), Program.builtin("greedy")],
        sandbox="none",
        on_turn=on_turn,
    )
    assert [action for _, action in seen] == record.replay.actions
    assert [seat for seat, _ in seen][:4] == [0, 1, 0, 1]
