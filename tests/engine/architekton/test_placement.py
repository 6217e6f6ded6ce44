"""Placing tiles: the checkerboard, matching edges, rotation, two tiles a turn, refills."""

from __future__ import annotations

import pytest

from engine.architekton import Architekton
from engine.core import IllegalAction
from tests.engine.architekton.support import (
    FOREST,
    LAYOUT_WMPF,
    MOUNTAIN,
    PLAIN,
    WATER,
    building,
    empty_city,
    landscape,
    put_building,
    put_landscape,
    random_game,
    state_json,
    with_display,
)


def test_at_the_start_only_buildings_next_to_the_two_landscapes_are_legal(
    game: Architekton,
) -> None:
    state = game.new_state(3, 2, {})
    legal = list(game.legal_actions(state))
    assert legal and all("building" in action for action in legal)
    cells = {(a["x"], a["y"]) for a in legal}
    # Cells touching one landscape take any building; (1, 0) and (0, 1) touch both.
    assert {(-1, 0), (0, -1), (2, 1), (1, 2)} <= cells
    assert cells <= {(1, 0), (0, 1), (-1, 0), (0, -1), (2, 1), (1, 2)}


def test_a_building_edge_touching_a_landscape_must_show_its_terrain(game: Architekton) -> None:
    state = with_display(empty_city(), [LAYOUT_WMPF], [])
    put_landscape(state, 0, 0, WATER)
    # Tile 1 shows water to the north unturned: south of the water it fits only unturned.
    legal = [a for a in game.legal_actions(state) if (a["x"], a["y"]) == (0, -1)]
    assert legal == [building(LAYOUT_WMPF, 0, -1, 0)]
    with pytest.raises(IllegalAction, match="cannot stand"):
        game.apply(state, building(LAYOUT_WMPF, 0, -1, 1))


def test_rotation_turns_the_tile_clockwise(game: Architekton) -> None:
    state = with_display(empty_city(), [LAYOUT_WMPF], [])
    put_landscape(state, 0, 0, WATER)
    # West of the water the east edge touches it: one quarter turn brings water east.
    legal = [a for a in game.legal_actions(state) if (a["x"], a["y"]) == (-1, 0)]
    assert legal == [building(LAYOUT_WMPF, -1, 0, 1)]


def test_every_touching_landscape_must_match(game: Architekton) -> None:
    state = with_display(empty_city(), [LAYOUT_WMPF], [])
    put_landscape(state, 0, 0, WATER)  # north of (0, -1)
    put_landscape(state, 1, -1, MOUNTAIN)  # east of (0, -1): matches tile 1 unturned
    put_landscape(state, -1, -1, PLAIN)  # west of (0, -1): tile 1 shows forest there
    assert [a for a in game.legal_actions(state) if (a["x"], a["y"]) == (0, -1)] == []
    put_landscape(state, -1, -1, FOREST)
    legal = [a for a in game.legal_actions(state) if (a["x"], a["y"]) == (0, -1)]
    assert legal == [building(LAYOUT_WMPF, 0, -1, 0)]


def test_a_landscape_needs_one_matching_building_edge(game: Architekton) -> None:
    state = with_display(empty_city(), [], [PLAIN, WATER, FOREST])
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 0)  # shows plain to the south, at (0, 0)
    legal = [a for a in game.legal_actions(state) if (a["x"], a["y"]) == (0, 0)]
    assert legal == [landscape("plain", 0, 0)]
    with pytest.raises(IllegalAction, match="cannot go"):
        game.apply(state, landscape("water", 0, 0))


def test_a_landscapes_other_edges_may_mismatch(game: Architekton) -> None:
    state = with_display(empty_city(), [], [PLAIN, WATER, FOREST])
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 0)  # plain towards (0, 0)
    put_building(state, 1, 0, LAYOUT_WMPF, 0, 1)  # forest towards (0, 0)
    legal = {a["landscape"] for a in game.legal_actions(state) if (a["x"], a["y"]) == (0, 0)}
    assert legal == {"plain", "forest"}
    game.apply(state, landscape("plain", 0, 0))
    assert state.landscapes


def test_a_tile_must_share_an_edge_with_a_placed_tile(game: Architekton) -> None:
    state = game.new_state(3, 2, {})
    tile = state.display_buildings[0]
    with pytest.raises(IllegalAction):
        game.apply(state, building(tile, 5, 6, 0))


def test_landscapes_only_touch_buildings_and_buildings_only_landscapes() -> None:
    for state, _ in random_game(8):
        for code in state.landscapes:
            assert sum(divmod(code, 1 << 12)) % 2 == 0
        for code in state.buildings:
            assert sum(divmod(code, 1 << 12)) % 2 == 1


def test_the_tile_must_be_in_the_display(game: Architekton) -> None:
    state = game.new_state(3, 2, {})
    missing = next(t for t in range(1, 23) if t not in state.display_buildings)
    with pytest.raises(IllegalAction, match="not in the display"):
        game.apply(state, building(missing, 1, 0, 0))
    state.display_landscapes = [WATER, WATER, WATER]
    with pytest.raises(IllegalAction, match="no plain landscape"):
        game.apply(state, landscape("plain", 0, 0))


def test_an_occupied_cell_takes_no_tile(game: Architekton) -> None:
    state = game.new_state(3, 2, {})
    before = state_json(state)
    with pytest.raises(IllegalAction):
        game.apply(state, building(state.display_buildings[0], 0, 0, 0))
    assert state_json(state) == before


def test_a_player_places_two_tiles_then_the_display_refills_and_the_turn_passes(
    game: Architekton,
) -> None:
    state = game.new_state(3, 2, {})
    piles = len(state.building_pile), len(state.landscape_pile)
    game.apply(state, game.legal_actions(state)[0])
    assert game.current_player(state) == 0
    assert len(state.display_buildings) == 2
    second = next(a for a in game.legal_actions(state) if "building" in a)
    game.apply(state, second)
    assert game.current_player(state) == 1
    assert len(state.display_buildings) == 3
    assert (len(state.building_pile), len(state.landscape_pile)) == (piles[0] - 2, piles[1])


def test_two_landscapes_or_one_of_each_are_allowed_too(game: Architekton) -> None:
    state = game.new_state(3, 2, {})
    game.apply(state, game.legal_actions(state)[0])
    game.apply(state, game.legal_actions(state)[0])
    # Seat 1 now may place a landscape next to seat 0's buildings, then another.
    kinds = {next(iter(a)) for a in game.legal_actions(state)}
    assert kinds == {"building", "landscape"}
    first = next(a for a in game.legal_actions(state) if "landscape" in a)
    game.apply(state, first)
    assert any("landscape" in a for a in game.legal_actions(state)) or not state.display_landscapes


def test_the_second_tile_may_touch_only_the_first(game: Architekton) -> None:
    state = with_display(empty_city(), [LAYOUT_WMPF, 2, 3], [PLAIN, WATER, FOREST])
    put_landscape(state, 0, 0, WATER)
    game.apply(state, building(LAYOUT_WMPF, 0, -1, 0))  # its south edge shows plain
    assert landscape("plain", 0, -2) in game.legal_actions(state)


def test_a_malformed_action_is_rejected(game: Architekton) -> None:
    state = game.new_state(3, 2, {})
    malformed: list[object] = [
        None,
        [],
        {"building": 1},
        {"building": "1", "x": 1, "y": 0, "rotation": 0},
        {"building": 1, "x": 1, "y": 0, "rotation": 4},
        {"landscape": "lava", "x": 0, "y": 0},
        {"pass": False},
        {"house": [1]},
        {"remove_house": 1},
    ]
    for bad in malformed:
        with pytest.raises(IllegalAction):
            game.apply(state, bad)
