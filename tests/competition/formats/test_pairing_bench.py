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
