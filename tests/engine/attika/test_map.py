"""The map: tile hexes and rotation, and where a new tile may go."""

from __future__ import annotations

import pytest

from engine.attika import AttikaState
from engine.attika.components import TILE_SYMBOLS, tile_cells
from engine.attika.fast import map_rules
from engine.attika.map import ROTATIONS, distinct_rotations, tile_centres
from engine.core import IllegalAction
from engine.hexgrid import DIRECTIONS, decode, encode
from tests.engine.attika.support import GAME, painted


def test_a_tiles_ring_turns_with_its_rotation() -> None:
    for rotation in range(6):
        cells = tile_cells(2, -1, rotation)
        assert decode(cells[0]) == (2, -1)
        for k in range(6):
            dq, dr = DIRECTIONS[(k + rotation) % 6]
            assert decode(cells[1 + k]) == (2 + dq, -1 + dr)


def test_rotations_with_the_same_picture_are_offered_once() -> None:
    """Decision #tile-placement."""
    for tile, symbols in enumerate(TILE_SYMBOLS):
        pictures = {tuple(symbols[1:][(k - o) % 6] for k in range(6)) for o in range(6)}
        assert len(ROTATIONS[tile]) == len(pictures)
        assert ROTATIONS[tile][0] == 0
    assert distinct_rotations(0) == ROTATIONS[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_tiles_fit_exactly_where_they_touch_the_map_without_covering_it(players: int) -> None:
    state = GAME.new_state(3, players, {})
    centres = tile_centres(state)
    assert centres == map_rules.tile_centres(state)
    taken = set(state.caches.index.symbol_at) | set(state.shrines)
    for centre in centres:
        flower = tile_cells(*decode(centre), 0)
        assert not taken & set(flower)


def test_a_new_tile_may_leave_holes_and_may_touch_only_a_shrine() -> None:
    """Decision #tile-placement."""
    state = painted(radius=1, shrines=((0, 3),))
    centres = set(tile_centres(state))
    assert encode(0, 5) in centres  # touches the shrine alone
    assert encode(3, -1) in centres  # touches the map, leaving a gap elsewhere
    assert encode(0, 4) not in centres  # would cover the shrine


def draw_last_of_a_stack(state: AttikaState) -> None:
    """Seat 0 draws the last building of its stack 2 and builds it where it first can (or
    keeps it when it cannot be built), paying the first way offered: a map tile is owed."""
    seat = state.seats[0]
    seat.stacks[2] = seat.stacks[2][:1]
    state.rebuild_caches()
    GAME.apply(state, {"type": "draw", "stack": 2})
    while state.pending is not None and state.pending.kind in ("drawn", "pay"):
        GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.pending is not None and state.pending.kind == "tile"


def test_placing_a_tile_updates_what_is_free_and_where_tiles_fit() -> None:
    state = GAME.new_state(8, 2, {})
    draw_last_of_a_stack(state)
    placements = list(GAME.legal_actions(state))
    assert all(a["type"] == "extend" for a in placements)
    tile = state.pending.tile if state.pending else -1
    assert len(placements) == len(tile_centres(state)) * len(ROTATIONS[tile])
    GAME.apply(state, placements[-1])
    assert tile_centres(state) == map_rules.tile_centres(state)
    twin = GAME.state_from_json(GAME.state_to_json(state))
    assert twin.caches.index.discount == state.caches.index.discount
    assert twin.caches.index.frontier == state.caches.index.frontier


def test_a_tile_that_would_not_fit_or_an_unoffered_rotation_is_refused() -> None:
    state = GAME.new_state(8, 2, {})
    draw_last_of_a_stack(state)
    with pytest.raises(IllegalAction, match="cover the map or not touch it"):
        GAME.apply(state, {"type": "extend", "q": 0, "r": 0, "rotation": 0})
    with pytest.raises(IllegalAction, match="cover the map or not touch it"):
        GAME.apply(state, {"type": "extend", "q": 40, "r": 40, "rotation": 0})
    tile = state.pending.tile if state.pending else 0
    missing = [o for o in range(6) if o not in ROTATIONS[tile]]
    if missing:
        q, r = decode(tile_centres(state)[0])
        with pytest.raises(IllegalAction, match="not offered"):
            GAME.apply(state, {"type": "extend", "q": q, "r": r, "rotation": missing[0]})
