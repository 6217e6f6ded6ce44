"""The map: placing a tile, and where a new tile may go when the map is extended.

A new tile must not cover any hex of the map (tile hexes or shrines) and must touch at
least one of them; holes left in the map are allowed. Its centre is therefore exactly
two steps from the nearest map hex; the map index keeps those cells up to date
(`MapIndex.frontier`). Rotations that give the same picture as a smaller one are not
offered (a tile with a symmetric ring has fewer than six).
"""

from __future__ import annotations

from engine.attika.components import TILE_SYMBOLS
from engine.attika.state import AttikaState
from engine.hexgrid import DIRECTIONS, NEIGHBOUR_STEPS, encode

RING_TWO_STEPS: tuple[int, ...] = tuple(
    sorted(
        {
            encode(dq1 + dq2, dr1 + dr2) - encode(0, 0)
            for dq1, dr1 in DIRECTIONS
            for dq2, dr2 in DIRECTIONS
            if (dq1 + dq2, dr1 + dr2) != (0, 0) and (dq1 + dq2, dr1 + dr2) not in DIRECTIONS
        }
    )
)
"""Code offsets of the 12 cells two steps away."""


def distinct_rotations(tile: int) -> tuple[int, ...]:
    ring = TILE_SYMBOLS[tile][1:]
    seen: set[tuple[int, ...]] = set()
    keep = []
    for rotation in range(6):
        picture = tuple(ring[(k - rotation) % 6] for k in range(6))
        if picture not in seen:
            seen.add(picture)
            keep.append(rotation)
    return tuple(keep)


ROTATIONS: tuple[tuple[int, ...], ...] = tuple(
    distinct_rotations(tile) for tile in range(len(TILE_SYMBOLS))
)


def tile_fits(state: AttikaState, centre: int) -> bool:
    """The seven hexes around `centre` are off the map and touch it."""
    return centre in state.index.frontier


def tile_centres(state: AttikaState) -> list[int]:
    """Every centre where a new tile fits, sorted."""
    return sorted(state.index.frontier)


def slow_tile_centres(state: AttikaState) -> list[int]:
    """The same from the definition, for the tests: all seven hexes off the map, one of
    them next to it."""
    taken = set(state.index.symbol_at) | state.index.shrine_cells
    found = set()
    for cell in taken:
        for step in RING_TWO_STEPS:
            centre = cell + step
            flower = [centre, *(centre + s for s in NEIGHBOUR_STEPS)]
            if not any(c in taken for c in flower):
                found.add(centre)
    return sorted(found)


def tile_placements(state: AttikaState, tile: int) -> list[tuple[int, int]]:
    """(centre code, rotation) of every way to place the tile, in that order (the legal
    actions' `TilePlacements` index them without listing them; this is its oracle)."""
    return [(centre, rotation) for centre in tile_centres(state) for rotation in ROTATIONS[tile]]


def place_tile(state: AttikaState, tile: int, q: int, r: int, rotation: int) -> None:
    state.tiles.append((tile, q, r, rotation))
    state.index.add_tile(tile, q, r, rotation)
