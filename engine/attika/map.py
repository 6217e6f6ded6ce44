"""The map: its hexes and the buildings on them, where a new tile may go, placing a tile.

The map is made of the tiles placed (`state.tiles`, seven hexes each: `state.hexes`) and
the shrines; the buildings stand on tile hexes (`PlayerState.placed`). A new tile must not cover any
hex of the map (tile hexes or shrines) and must touch at least one of them; holes left
in the map are allowed. Rotations that give the same picture as a smaller one are not
offered (a tile with a symmetric ring has fewer than six).

These are the rules as plain functions of the state's facts. The turn asks the same
questions of the tables kept up to date move by move (`fast.map_rules`, `fast.index`).
"""

from __future__ import annotations

from engine.attika.components import TILE_SYMBOLS, tile_cells
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS


def buildings_on_map(state: AttikaState) -> dict[int, tuple[int, int]]:
    """Cell -> (player, building) of every building on the map."""
    return {
        cell: (player, building)
        for player, seat in enumerate(state.seats)
        for building, cell in seat.placed.items()
    }


def free_cells(state: AttikaState) -> list[int]:
    """The map hexes with no building, sorted: where a building may go."""
    built = buildings_on_map(state)
    return sorted(cell for cell in state.hexes if cell not in built)


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
    """A tile centred there covers no map hex and touches one."""
    return _fits({*state.hexes, *state.shrines}, centre)


def _fits(taken: set[int], centre: int) -> bool:
    flower = [centre, *(centre + step for step in NEIGHBOUR_STEPS)]
    touches = any(cell + step in taken for cell in flower for step in NEIGHBOUR_STEPS)
    return touches and not any(cell in taken for cell in flower)


def tile_centres(state: AttikaState) -> list[int]:
    """Every centre where a new tile fits, sorted (two steps from the map, then)."""
    taken = {*state.hexes, *state.shrines}
    near = {
        cell + one + two for cell in taken for one in NEIGHBOUR_STEPS for two in NEIGHBOUR_STEPS
    }
    return sorted(centre for centre in near if _fits(taken, centre))


def tile_placements(state: AttikaState, tile: int) -> list[tuple[int, int]]:
    """(centre, rotation) of every way to place the tile, centre by centre."""
    return [(centre, rotation) for centre in tile_centres(state) for rotation in ROTATIONS[tile]]


def place_tile(state: AttikaState, tile: int, q: int, r: int, rotation: int) -> None:
    state.tiles.append((tile, q, r, rotation))
    cells = tile_cells(q, r, rotation)
    state.hexes = {**state.hexes, **dict(zip(cells, TILE_SYMBOLS[tile], strict=True))}
    state.caches.index.add_tile(tile, q, r, rotation)
