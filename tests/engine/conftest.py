"""Fixtures shared by the engine tests (plain helpers are in `support.py`)."""

from __future__ import annotations

import pytest

from engine.akropolis import Akropolis, AkropolisState
from engine.akropolis.components import HOUSE
from tests.engine.support import GAME, build_city


@pytest.fixture
def game() -> Akropolis:
    return GAME


@pytest.fixture
def two_player_state() -> AkropolisState:
    """A fresh two-player game: seat 0 to move with 1 stone, seat 1 has 2."""
    return GAME.new_state(2024, 2, {})


@pytest.fixture
def flower_state(two_player_state: AkropolisState) -> AkropolisState:
    """Seat 0 to move, its city a flower of seven level-1 houses around (0, 0), each hex from
    a different tile, so a tile may go on level 2 over any of its triangles. Seat 0 has no
    stones, so only the first site tile is affordable."""
    flower = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    two_player_state.cities[0] = build_city(
        (q, r, 1, HOUSE, 100 + i) for i, (q, r) in enumerate(flower)
    )
    two_player_state.stones[0] = 0
    return two_player_state
