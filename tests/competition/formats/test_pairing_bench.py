"""bench/pairing.py runs at a tiny size, before and now side by side."""

from __future__ import annotations

import pytest

from bench import pairing
from tests.competition.formats.support import play_out, random_results


def test_it_prints_every_round_of_every_size(capsys: pytest.CaptureFixture[str]) -> None:
    pairing.main(["--sizes", "6", "9", "--rounds", "4", "--before-rounds", "3"])
    printed = capsys.readouterr().out
    assert "6 entrants, 4 rounds" in printed and "9 entrants, 4 rounds" in printed
    rows = [line.split() for line in printed.splitlines() if line[:5].strip().isdigit()]
    assert [row[0] for row in rows] == ["1", "2", "3", "4"] * 2
    assert all(len(row) == 6 for row in rows)
    assert rows[3][1:3] == ["-", "-"]


def test_the_old_swiss_it_times_plays_a_whole_event() -> None:
    before = pairing.Before(10, 3, rounds=4)
    results = play_out(before, random_results(3))
    assert {r.game.round for r in results} == {1, 2, 3, 4}
    games, seconds = before.timed_next_games(results[:-1])
    assert games == [results[-1].game] and seconds >= 0


class FakeEvent:
    """Logs its calls in a shared list; timed for `rounds_timed` rounds."""

    def __init__(self, name: str, rounds_timed: int, log: list[str]) -> None:
        self.name, self.rounds_timed, self.log = name, rounds_timed, log
        self.played = 0

    def time_call(self) -> tuple[float, float]:
        self.log.append(f"{self.name}{self.played}")
        return float(len(self.log)), 0.5

    def play_round(self) -> None:
        self.played += 1


def test_the_events_take_turns_round_by_round_the_order_rotated() -> None:
    log: list[str] = []
    events = {name: FakeEvent(name, timed, log) for name, timed in (("a", 3), ("b", 3), ("c", 2))}
    times = pairing.interleaved_rounds(events, rounds=3, repeats=2)
    assert log == [
        *("a0", "b0", "c0", "b0", "c0", "a0"),  # round 1: a b c, then rotated
        *("b1", "c1", "a1", "c1", "a1", "b1"),  # round 2 begins one further on
        *("a2", "b2", "b2", "a2"),  # c is timed for two rounds only
    ]
    # each round's figure is the median of its repeats (the call, the pairing alone)
    assert times["a"] == [(3.5, 0.5), (10.0, 0.5), (14.5, 0.5)]
    assert times["c"] == [(4.0, 0.5), (9.0, 0.5)]
    assert [event.played for event in events.values()] == [3, 3, 2]
