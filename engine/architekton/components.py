"""Architekton component data: terrains, landscape tiles, building tiles, houses, points.

Every item says where it comes from: `sourced` (the rules text or the project's rules file
says so) or `reconstructed` (not published anywhere we could read; the rules file tells
us how to rebuild it). Edges are listed clockwise from north: north, east, south, west.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.provenance import Provenance, Quantity

TERRAINS: tuple[str, ...] = ("water", "mountain", "plain", "forest")
"""The four terrains (rules file; the English text says water, land, plain, forest)."""
WATER, MOUNTAIN, PLAIN, FOREST = range(4)
TERRAIN_OF_NAME = {name: index for index, name in enumerate(TERRAINS)}


RULES_NUMBERS: tuple[Quantity, ...] = (
    Quantity("building_tiles", 22, "sourced", "box contents: 22 building tiles"),
    Quantity("landscape_tiles", 24, "sourced", "box contents: 24 field tiles"),
    Quantity("landscape_tiles_per_terrain", 6, "sourced", "rules file: 6 of each terrain"),
    Quantity("houses_per_player", 12, "sourced", "box contents: 24 houses in 2 colours"),
    Quantity("starting_points", 1, "sourced", "both players receive a point at the start"),
    Quantity("reserve_per_pile", 4, "sourced", "four tiles of each pile form the reserve"),
    Quantity("display_per_kind", 3, "sourced", "three building and three landscape tiles"),
    Quantity("starting_landscapes", 2, "sourced", "two landscapes touching at a corner"),
    Quantity("tiles_per_turn", 2, "sourced", "a player places two tiles"),
)
NUMBERS = {quantity.name: quantity.value for quantity in RULES_NUMBERS}

HOUSES_PER_PLAYER = NUMBERS["houses_per_player"]
STARTING_POINTS = NUMBERS["starting_points"]
RESERVE_PER_PILE = NUMBERS["reserve_per_pile"]
DISPLAY_PER_KIND = NUMBERS["display_per_kind"]
TILES_PER_TURN = NUMBERS["tiles_per_turn"]


@dataclass(frozen=True)
class LandscapeKind:
    terrain: int
    count: int
    provenance: Provenance


LANDSCAPES: tuple[LandscapeKind, ...] = tuple(
    LandscapeKind(terrain, NUMBERS["landscape_tiles_per_terrain"], "sourced")
    for terrain in range(len(TERRAINS))
)


@dataclass(frozen=True)
class BuildingTile:
    id: int
    edges: tuple[int, int, int, int]
    """Terrains of the north, east, south and west edges when the tile is not rotated."""
    provenance: Provenance


LAYOUTS: tuple[tuple[int, int, int, int], ...] = (
    (WATER, MOUNTAIN, PLAIN, FOREST),
    (WATER, MOUNTAIN, FOREST, PLAIN),
    (WATER, PLAIN, MOUNTAIN, FOREST),
    (WATER, PLAIN, FOREST, MOUNTAIN),
    (WATER, FOREST, MOUNTAIN, PLAIN),
    (WATER, FOREST, PLAIN, MOUNTAIN),
)
"""Reconstructed: the 6 clockwise orders of the four terrains, up to rotation (water
first). The published tiles' layouts are unknown; the rules file asks for each terrain
once per tile."""

TILES_PER_LAYOUT: tuple[int, ...] = (4, 4, 4, 4, 3, 3)
"""Reconstructed: how the 22 tiles spread over the 6 layouts (rules file)."""


def _building_tiles() -> tuple[BuildingTile, ...]:
    tiles: list[BuildingTile] = []
    for layout, count in zip(LAYOUTS, TILES_PER_LAYOUT, strict=True):
        for _ in range(count):
            tiles.append(BuildingTile(len(tiles) + 1, layout, "reconstructed"))
    return tuple(tiles)


BUILDINGS: tuple[BuildingTile, ...] = _building_tiles()
BUILDING_BY_ID: dict[int, BuildingTile] = {tile.id: tile for tile in BUILDINGS}
"""Building tiles by id (1..22)."""

LANDSCAPE_TILES: tuple[int, ...] = tuple(
    kind.terrain for kind in LANDSCAPES for _ in range(kind.count)
)
"""The landscape pile before shuffling: one terrain per tile."""


def edge(tile_id: int, rotation: int, direction: int) -> int:
    """The terrain a building shows towards `direction` (0 N, 1 E, 2 S, 3 W) when it is
    turned `rotation` quarter turns clockwise."""
    return BUILDING_BY_ID[tile_id].edges[(direction - rotation) % 4]


def rotated_edges(tile_id: int, rotation: int) -> tuple[int, int, int, int]:
    edges = BUILDING_BY_ID[tile_id].edges
    return (
        edges[(0 - rotation) % 4],
        edges[(1 - rotation) % 4],
        edges[(2 - rotation) % 4],
        edges[(3 - rotation) % 4],
    )


ROTATED_EDGES: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    tile.id: tuple(rotated_edges(tile.id, rotation) for rotation in range(4)) for tile in BUILDINGS
}
"""`ROTATED_EDGES[id][rotation]`: the terrains shown north, east, south and west."""
