"""A turn: paying for a site tile, and where it may go in the player's own city."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.akropolis import Akropolis, AkropolisState
from engine.akropolis.components import HOUSE, QUARRY, STARS_OF_CODE, TILES
from engine.core import IllegalAction
from engine.hexgrid import DIRECTIONS, decode, encode, to_pixel
from tests.engine.support import (
    action,
    bring_to_site,
    build_city,
    let_others_play,
    state_json,
    step,
)

# A level-1 spot beside the starting city that covers no quarry: (1, 1), (2, 1), (2, 0).
BESIDE = (1, 1, 0)


def three_coloured_tile() -> int:
    """A tile whose three hexes differ, so one can tell where each of them went."""
    return next(t.id for t in TILES.values() if len(set(t.hexes)) == 3 and QUARRY not in t.hexes)


def hex_at(state: AkropolisState, player: int, q: int, r: int) -> tuple[int, int, int] | None:
    return state.cities[player].top.get(encode(q, r))


def assert_rejected(game: Akropolis, state: AkropolisState, bad: object, message: str) -> None:
    before = state_json(state)
    legal_before = list(game.legal_actions(state))
    with pytest.raises(IllegalAction, match=message):
        game.apply(state, bad)
    assert state_json(state) == before
    assert list(game.legal_actions(state)) == legal_before


# --- paying for the tile ---------------------------------------------------------------


@pytest.mark.parametrize("position", [0, 1, 2, 3])
def test_taking_position_k_costs_k_stones(
    game: Akropolis, two_player_state: AkropolisState, position: int
) -> None:
    two_player_state.stones[0] = 5
    game.apply(two_player_state, action(position, *BESIDE))
    assert two_player_state.stones[0] == 5 - position


def test_the_stones_paid_go_to_the_supply(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    two_player_state.stones[:] = [3, 2]
    game.apply(two_player_state, action(3, *BESIDE))
    assert two_player_state.stones == [0, 2]


def test_it_takes_the_tile_at_the_position_and_the_rest_close_up(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    site = list(two_player_state.site)
    game.apply(two_player_state, action(1, *BESIDE))
    assert two_player_state.site == [site[0], *site[2:]]
    placed = [hex_at(two_player_state, 0, q, r) for q, r in [(1, 1), (2, 1), (2, 0)]]
    assert [h[1] for h in placed if h] == list(TILES[site[1]].hexes)
    assert two_player_state.cities[0].tiles == 2


def test_it_rejects_a_tile_the_player_cannot_afford(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    assert two_player_state.stones[0] == 1
    assert_rejected(
        game, two_player_state, action(2, *BESIDE), "tile 2 costs 2 stones but player 0 has 1"
    )


def test_with_k_stones_positions_up_to_k_are_offered(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    two_player_state.stones[0] = 2
    assert game.legal_actions(two_player_state).tiles == (0, 1, 2)


def test_with_no_stones_only_the_first_tile_can_be_taken(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    two_player_state.stones[0] = 0
    assert {a["tile"] for a in game.legal_actions(two_player_state)} == {0}
    assert_rejected(game, two_player_state, action(1, *BESIDE), "costs 1 stones")
    game.apply(two_player_state, action(0, *BESIDE))
    assert two_player_state.stones[0] == 0


@pytest.mark.parametrize("position", [4, 99, -1])
def test_it_rejects_a_position_outside_the_site(
    game: Akropolis, two_player_state: AkropolisState, position: int
) -> None:
    two_player_state.stones[0] = 200
    assert_rejected(
        game, two_player_state, action(position, *BESIDE), "not in the Construction Site"
    )


# --- level 1 ---------------------------------------------------------------------------


def test_a_tile_next_to_the_city_goes_on_level_1(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    game.apply(two_player_state, action(0, *BESIDE))
    for q, r in [(1, 1), (2, 1), (2, 0)]:
        hex_ = hex_at(two_player_state, 0, q, r)
        assert hex_ is not None and hex_[0] == 1


def test_a_tile_touching_the_city_by_one_edge_is_enough(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    # (2, -1), (3, -1), (3, -2): only (2, -1) borders the city, at the quarry (1, 0).
    game.apply(two_player_state, action(0, 2, -1, 0))
    assert hex_at(two_player_state, 0, 3, -2) is not None


def test_it_rejects_a_tile_that_does_not_touch_the_city(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    # (2, 1), (3, 1), (3, 0) are all two steps from the starting tile.
    assert_rejected(game, two_player_state, action(0, 2, 1, 0), "must share an edge with the city")


def test_it_rejects_a_tile_far_from_the_city(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    assert_rejected(game, two_player_state, action(0, 40, -7, 3), "share an edge")


def test_it_rejects_a_level_1_tile_partly_over_the_city(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    # (1, 0) is a quarry of the starting tile; (2, 0) and (2, -1) are empty.
    assert_rejected(game, two_player_state, action(0, 1, 0, 0), "cannot stand over an empty space")


def test_a_player_builds_only_in_their_own_city(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    before = [dict(city.top) for city in two_player_state.cities]
    game.apply(two_player_state, action(0, *BESIDE))
    assert two_player_state.cities[1].top == before[1]
    assert two_player_state.cities[0].top != before[0]


# --- higher levels ---------------------------------------------------------------------


def build_beside_the_quarry(game: Akropolis, state: AkropolisState) -> None:
    """Seat 0 places a tile without quarries on (1, 1), (2, 1), (2, 0); the others play;
    seat 0 is to move again."""
    bring_to_site(state, three_coloured_tile())
    game.apply(state, action(0, *BESIDE))
    let_others_play(state)


def test_a_tile_over_two_tiles_goes_one_level_up(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    build_beside_the_quarry(game, two_player_state)
    # (1, 0) quarry of the starting tile, (1, 1) and (2, 0) of the tile just placed.
    game.apply(two_player_state, action(0, 1, 0, 5))
    hexes = [hex_at(two_player_state, 0, q, r) for q, r in [(1, 0), (1, 1), (2, 0)]]
    assert [h[0] if h else None for h in hexes] == [2, 2, 2]


def test_it_rejects_a_tile_exactly_on_top_of_one_tile(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    build_beside_the_quarry(game, two_player_state)
    for rotation_action in [action(0, 1, 1, 0), action(0, 2, 1, 2), action(0, 2, 0, 4)]:
        assert_rejected(
            game, two_player_state, rotation_action, "cannot lie on top of a single tile"
        )


def test_it_rejects_a_tile_over_an_empty_space(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    build_beside_the_quarry(game, two_player_state)
    # (2, 0) and (2, 1) are built, (3, 0) is empty.
    assert_rejected(game, two_player_state, action(0, 2, 0, 5), "cannot stand over an empty space")


def test_it_rejects_a_base_of_different_levels(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    two_player_state.cities[0] = build_city(
        [(0, 0, 2, HOUSE, 100), (1, 0, 1, HOUSE, 101), (1, -1, 1, HOUSE, 102)]
    )
    assert_rejected(
        game, two_player_state, action(0, 0, 0, 0), "underneath must be on the same level"
    )


def test_a_flat_base_on_level_2_takes_a_tile_on_level_3(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    two_player_state.cities[0] = build_city(
        [(0, 0, 2, HOUSE, 100), (1, 0, 2, HOUSE, 101), (1, -1, 2, HOUSE, 101)]
    )
    game.apply(two_player_state, action(0, 0, 0, 0))
    assert {h[0] for h in two_player_state.cities[0].top.values()} == {3}


def test_a_flat_base_on_level_2_of_one_tile_is_still_one_tile(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    two_player_state.cities[0] = build_city(
        [(0, 0, 2, HOUSE, 101), (1, 0, 2, HOUSE, 101), (1, -1, 2, HOUSE, 101)]
    )
    assert_rejected(game, two_player_state, action(0, 0, 0, 0), "single tile")


# --- quarries --------------------------------------------------------------------------


@pytest.mark.parametrize("quarries", [0, 1, 2, 3])
def test_each_quarry_covered_gives_one_stone(
    game: Akropolis, two_player_state: AkropolisState, quarries: int
) -> None:
    codes = [QUARRY] * quarries + [HOUSE] * (3 - quarries)
    cells = [(0, 0), (1, 0), (1, -1)]
    two_player_state.cities[0] = build_city(
        (q, r, 1, code, 100 + (i > 0))
        for i, ((q, r), code) in enumerate(zip(cells, codes, strict=True))
    )
    two_player_state.stones[0] = 1
    game.apply(two_player_state, action(1, 0, 0, 0))
    assert two_player_state.stones[0] == 1 - 1 + quarries


def test_a_starting_quarry_covered_gives_a_stone(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    build_beside_the_quarry(game, two_player_state)
    stones = two_player_state.stones[0]
    game.apply(two_player_state, action(0, 1, 0, 5))
    assert two_player_state.stones[0] == stones + 1


def test_a_quarry_on_the_placed_tile_gives_nothing_at_once(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    tile = next(t.id for t in TILES.values() if QUARRY in t.hexes and t.min_players == 2)
    bring_to_site(two_player_state, tile)
    game.apply(two_player_state, action(0, *BESIDE))
    assert two_player_state.stones[0] == 1


# --- rotations and the action encoding -------------------------------------------------


@pytest.mark.parametrize("rotation", range(6))
def test_rotation_o_puts_the_hexes_on_the_anchor_then_directions_o_and_o_plus_1(
    game: Akropolis, flower_state: AkropolisState, rotation: int
) -> None:
    tile = three_coloured_tile()
    bring_to_site(flower_state, tile)
    game.apply(flower_state, action(0, 0, 0, rotation))
    cells = [(0, 0), step(0, 0, rotation), step(0, 0, rotation + 1)]
    top = flower_state.cities[0].top
    assert [top[encode(q, r)] for q, r in cells] == [
        (2, code, STARS_OF_CODE[code]) for code in TILES[tile].hexes
    ]
    assert flower_state.cities[0].tile_at[encode(0, 0)] == tile


@pytest.mark.parametrize("rotation", range(6))
def test_rotations_work_the_same_on_level_1(
    game: Akropolis, two_player_state: AkropolisState, rotation: int
) -> None:
    tile = three_coloured_tile()
    bring_to_site(two_player_state, tile)
    chosen = next(a for a in game.legal_actions(two_player_state) if a["rotation"] == rotation)
    game.apply(two_player_state, chosen)
    q, r = chosen["q"], chosen["r"]
    cells = [(q, r), step(q, r, rotation), step(q, r, rotation + 1)]
    top = two_player_state.cities[0].top
    assert [top[encode(*c)][:2] for c in cells] == [(1, code) for code in TILES[tile].hexes]


def placements_by_action(
    game: Akropolis, state: AkropolisState
) -> dict[tuple[int, int, int], tuple[tuple[int, int], ...]]:
    """For each legal (q, r, rotation) of site tile 0: the cells its hexes 0, 1, 2 land on,
    read back from the city after applying it to a copy."""
    tile = TILES[state.site[0]]
    found = {}
    for legal in game.legal_actions(state):
        if legal["tile"] != 0:
            continue
        after = game.copy_state(state)
        game.apply(after, legal)
        top, tile_at = after.cities[0].top, after.cities[0].tile_at
        landed = [c for c in top if tile_at[c] == tile.id]
        by_hex = tuple(next(decode(c) for c in landed if top[c][1] == code) for code in tile.hexes)
        found[(legal["q"], legal["r"], legal["rotation"])] = by_hex
    return found


def clockwise(cells: tuple[tuple[int, int], ...]) -> bool:
    (x0, y0), (x1, y1), (x2, y2) = (to_pixel(q, r) for q, r in cells)
    return (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) > 0


def test_every_placement_has_exactly_one_action_and_each_triangle_three(
    game: Akropolis, flower_state: AkropolisState
) -> None:
    bring_to_site(flower_state, three_coloured_tile())
    found = placements_by_action(game, flower_state)
    assert len(set(found.values())) == len(found)
    per_triangle = Counter(frozenset(cells) for cells in found.values())
    assert set(per_triangle.values()) == {3}
    # The six triangles around the centre are all reached, on level 2.
    assert sum(1 for cells in per_triangle if (0, 0) in cells) == 6


def test_no_action_places_a_mirror_image(game: Akropolis, flower_state: AkropolisState) -> None:
    # The data lists each tile's hexes clockwise; every action keeps them clockwise, so the
    # three actions of a triangle are its three cyclic orders and never the reversed ones.
    bring_to_site(flower_state, three_coloured_tile())
    found = placements_by_action(game, flower_state)
    assert found and all(clockwise(cells) for cells in found.values())
    by_triangle: dict[frozenset[tuple[int, int]], set[tuple[tuple[int, int], ...]]] = {}
    for cells in found.values():
        by_triangle.setdefault(frozenset(cells), set()).add(cells)
    for orders in by_triangle.values():
        first = next(iter(orders))
        assert orders == {first, first[1:] + first[:1], first[2:] + first[:2]}


def test_the_anchor_neighbours_follow_the_rules_direction_list() -> None:
    assert [step(0, 0, o) for o in range(6)] == list(DIRECTIONS)


# --- rejected actions ------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        None,
        "tile 0",
        [0, 1, 1, 0],
        {},
        {"tile": 0, "q": 1, "r": 1},
        {"tile": 0, "q": 1, "r": 1, "rotation": 0, "level": 1},
        {"tile": 0, "q": 1, "rot": 0, "r": 1},
    ],
)
def test_it_rejects_an_action_that_is_not_the_four_key_object(
    game: Akropolis, two_player_state: AkropolisState, bad: object
) -> None:
    assert_rejected(game, two_player_state, bad, "an Akropolis action is an object")


@pytest.mark.parametrize(
    ("key", "value"),
    [("tile", True), ("q", False), ("r", "1"), ("rotation", 0.0), ("tile", None), ("q", [1])],
)
def test_it_rejects_a_field_that_is_not_an_integer(
    game: Akropolis, two_player_state: AkropolisState, key: str, value: object
) -> None:
    bad: dict[str, object] = {**action(0, *BESIDE), key: value}
    assert_rejected(game, two_player_state, bad, f"field {key} must be an integer")


@pytest.mark.parametrize("rotation", [6, -1, 12])
def test_it_rejects_a_rotation_outside_0_to_5(
    game: Akropolis, two_player_state: AkropolisState, rotation: int
) -> None:
    assert_rejected(game, two_player_state, action(0, 1, 1, rotation), "rotation must be 0..5")


@pytest.mark.parametrize(("q", "r"), [(10**6, 0), (0, -(10**9)), (2045, 0), (-3, -2045)])
def test_it_rejects_coordinates_far_outside_any_city(
    game: Akropolis, two_player_state: AkropolisState, q: int, r: int
) -> None:
    assert_rejected(game, two_player_state, action(0, q, r, 0), "far outside any city")


def test_an_equal_json_action_is_accepted(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    game.apply(two_player_state, {"rotation": 0, "r": 1, "q": 1, "tile": 0})
    assert two_player_state.turn == 1


def test_a_rejected_action_keeps_the_player_to_move(
    game: Akropolis, two_player_state: AkropolisState
) -> None:
    with pytest.raises(IllegalAction):
        game.apply(two_player_state, action(0, 9, 9, 0))
    assert game.current_player(two_player_state) == 0
    game.apply(two_player_state, action(0, *BESIDE))
    assert game.current_player(two_player_state) == 1
