"""The component data: counts as the rules say, reconstructed layouts marked as such."""

from __future__ import annotations

from collections import Counter

from engine.architekton.components import (
    BUILDINGS,
    HOUSES_PER_PLAYER,
    LANDSCAPE_TILES,
    LANDSCAPES,
    LAYOUTS,
    RULES_NUMBERS,
    STARTING_POINTS,
    TERRAINS,
    edge,
    rotated_edges,
)


def test_there_are_22_building_tiles_and_24_landscapes_6_of_each_terrain() -> None:
    assert len(BUILDINGS) == 22
    assert len(LANDSCAPE_TILES) == 24
    assert Counter(LANDSCAPE_TILES) == dict.fromkeys(range(4), 6)
    assert TERRAINS == ("water", "mountain", "plain", "forest")


def test_every_building_shows_each_terrain_once() -> None:
    for tile in BUILDINGS:
        assert sorted(tile.edges) == [0, 1, 2, 3]


def test_the_22_buildings_spread_4_4_4_4_3_3_over_the_six_cyclic_orders() -> None:
    """Decision #tile-layouts."""

    def canonical(edges: tuple[int, ...]) -> tuple[int, ...]:
        return min(tuple(edges[i:] + edges[:i]) for i in range(4))

    orders = Counter(canonical(tile.edges) for tile in BUILDINGS)
    assert len(orders) == 6 == len({canonical(layout) for layout in LAYOUTS})
    assert sorted(orders.values()) == [3, 3, 4, 4, 4, 4]


def test_the_ids_are_1_to_22() -> None:
    assert [tile.id for tile in BUILDINGS] == list(range(1, 23))


def test_every_item_says_where_it_comes_from() -> None:
    assert {tile.provenance for tile in BUILDINGS} == {"reconstructed"}
    assert {kind.provenance for kind in LANDSCAPES} == {"sourced"}
    assert {quantity.provenance for quantity in RULES_NUMBERS} == {"sourced"}


def test_players_have_12_houses_and_start_with_1_point() -> None:
    assert HOUSES_PER_PLAYER == 12
    assert STARTING_POINTS == 1


def test_a_quarter_turn_clockwise_brings_the_north_edge_east() -> None:
    tile = BUILDINGS[0]
    north, east, south, west = tile.edges
    assert rotated_edges(tile.id, 1) == (west, north, east, south)
    assert [edge(tile.id, 1, d) for d in range(4)] == [west, north, east, south]
    assert rotated_edges(tile.id, 0) == tile.edges
