"""`seatable`: how many free bots can sit at tables at once, no two of an owner at one."""

from __future__ import annotations

import pytest

from agon.ladders.matchmaking import Candidate, seatable


def bots(*owners: int | None) -> list[Candidate]:
    return [Candidate(number, 1500.0, 0, owner=owner) for number, owner in enumerate(owners)]


@pytest.mark.parametrize(
    ("owners", "players", "seats"),
    [
        ((), 2, 0),
        ((1,), 2, 0),
        ((1, 1, 1), 2, 0),  # one owner's bots alone: the anchors before any upload
        ((1, 1, 1, 2), 2, 2),  # one table: each other owner's bot sits once
        ((1, 1, 2, 2), 2, 4),
        ((None, None, None), 2, 2),  # house bots meet each other
        ((None, None, None), 3, 3),
        ((1, 1, 1, None, 2), 4, 0),  # 4 seats need 4 owners (or house bots) at a table
        ((1, 2, 3, 4, 1, 2, 3, 4), 4, 8),
        ((1, 1, 1, 1, 2, 3, 4, 5), 4, 4),
    ],
)
def test_seatable(owners: tuple[int | None, ...], players: int, seats: int) -> None:
    assert seatable(bots(*owners), players) == seats
