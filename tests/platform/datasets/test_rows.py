"""A match's rows, from its replay alone: a seat whose bot faulted is played on by the
referee's stand-in, and those decisions say so and carry no bot time."""

from __future__ import annotations

from collections.abc import Sequence

from agon.datasets.rows import MatchFacts, SeatFacts, decision_rows
from engine.core import JSON
from engine.match import play_match
from engine.players import BotFault, RandomBot
from engine.registry import get_game


class CrashesOnItsThirdMove(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.moves = 0

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        self.moves += 1
        if self.moves == 3:
            raise BotFault("crash", "made up by the test")
        return super().act(observation, legal_actions)


def test_the_stand_in_s_decisions_are_marked_and_untimed() -> None:
    replay = play_match(
        get_game("architekton"),
        seed=3,
        players=2,
        options={},
        bots=[CrashesOnItsThirdMove(1), RandomBot(2)],
        bot_ids=["crasher", "random"],
    )
    seats = [
        SeatFacts(
            bot=f"sha256:{seat}",
            rank=None,
            score=None,
            thinking_seconds=1.0,
            turn_milliseconds=[10, 20, 30],
        )
        for seat in range(2)
    ]
    rows = list(decision_rows(replay, MatchFacts(7, "ranked", seats)))
    crasher = [row for row in rows if row["seat"] == 0]
    assert [row["by_stand_in"] for row in crasher[:4]] == [False, False, True, True]
    assert [row["time_used_ms"] for row in crasher[:4]] == [10, 20, None, None]
    other = [row for row in rows if row["seat"] == 1]
    assert not any(row["by_stand_in"] for row in other)
    assert [row["time_used_ms"] for row in other[:4]] == [10, 20, 30, None]
