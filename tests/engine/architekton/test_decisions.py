"""Decisions of docs/rules/architekton-decisions.md not checked elsewhere, by anchor (the
other decisions' tests cite theirs in the modules of their subject)."""

from __future__ import annotations

from engine.architekton import Architekton
from tests.engine.architekton.support import LAYOUT_WMPF, empty_city, put_building
from tests.engine.architekton.test_end import surround


def test_a_lone_house_is_a_group_of_one(game: Architekton) -> None:
    """Decision #lone-house: no house of seat 0 touches another diagonally, yet its
    largest group scores 1; seat 1, with no house kept, scores none."""
    state = empty_city()
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 0)
    put_building(state, 4, 1, LAYOUT_WMPF, 0, 0)
    put_building(state, 10, 1, LAYOUT_WMPF, 0, 1)
    surround(state, 0, 1, 3)
    surround(state, 4, 1, 3)
    surround(state, 10, 1, 2)  # removed at the end
    state.stage = "over"
    result = game.result(state)
    assert [d["largest_group"] for d in result.details] == [1, 0]
    assert result.scores == [state.points[0] + 1, state.points[1]]
