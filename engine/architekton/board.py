"""Where tiles may go (the legal placements), when a building is surrounded, and groups
of houses.

Buildings and landscapes alternate like a checkerboard: since the two starting landscapes
touch at a corner and every tile shares an edge with a placed tile of the other kind,
landscapes always stand on cells with x + y even and buildings on cells with x + y odd.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from engine.architekton.actions import Raw
from engine.architekton.components import BUILDING_BY_ID, TILES_PER_TURN, edge
from engine.architekton.state import ArchitektonState
from engine.squaregrid import DIAGONAL_STEPS, NEIGHBOUR_STEPS, connected_groups, decode, opposite


def is_empty(state: ArchitektonState, code: int) -> bool:
    return code not in state.landscapes and code not in state.buildings


def landscape_sides(state: ArchitektonState, code: int) -> tuple[tuple[int, int], ...]:
    """(direction, terrain) of every landscape sharing an edge with the cell."""
    landscapes = state.landscapes
    return tuple(
        (direction, landscapes[code + step])
        for direction, step in enumerate(NEIGHBOUR_STEPS)
        if code + step in landscapes
    )


@functools.cache
def fitting_rotations(
    edges: tuple[int, int, int, int], sides: tuple[tuple[int, int], ...]
) -> tuple[int, ...]:
    """The rotations in which a building with these edges matches every given side."""
    if not sides:
        return ()
    return tuple(
        rotation
        for rotation in range(4)
        if all(edges[(direction - rotation) % 4] == terrain for direction, terrain in sides)
    )


def facing_terrains(state: ArchitektonState, code: int) -> set[int]:
    """The terrains that the buildings around a cell show towards it."""
    terrains = set()
    for direction, step in enumerate(NEIGHBOUR_STEPS):
        building = state.buildings.get(code + step)
        if building is not None:
            tile_id, rotation = building
            terrains.add(edge(tile_id, rotation, opposite(direction)))
    return terrains


def building_fits(state: ArchitektonState, code: int, tile_id: int, rotation: int) -> bool:
    """A building needs an empty cell next to a landscape, and every edge that touches a
    landscape must show that landscape's terrain."""
    if not is_empty(state, code):
        return False
    return rotation in fitting_rotations(
        BUILDING_BY_ID[tile_id].edges, landscape_sides(state, code)
    )


def landscape_fits(state: ArchitektonState, code: int, terrain: int) -> bool:
    """A landscape needs an empty cell next to a building whose edge there matches it."""
    return is_empty(state, code) and terrain in facing_terrains(state, code)


def building_cells(state: ArchitektonState) -> list[int]:
    """Empty cells that share an edge with a landscape, sorted."""
    cells = {
        code + step
        for code in state.landscapes
        for step in NEIGHBOUR_STEPS
        if code + step not in state.buildings
    }
    return sorted(cells)


def landscape_cells(state: ArchitektonState) -> list[int]:
    """Empty cells that share an edge with a building, sorted."""
    cells = {
        code + step
        for code in state.buildings
        for step in NEIGHBOUR_STEPS
        if code + step not in state.landscapes
    }
    return sorted(cells)


def legal_placements(state: ArchitektonState) -> list[Raw]:
    """Every legal placement from the display: buildings first (by display position, cell,
    rotation), then landscapes (by terrain as first seen in the display, cell); none once
    the turn's two tiles are placed."""
    if state.placed_this_turn >= TILES_PER_TURN:
        return []
    placements: list[Raw] = []
    if state.display_buildings:
        cells = [(*decode(code), landscape_sides(state, code)) for code in building_cells(state)]
        for tile_id in state.display_buildings:
            edges = BUILDING_BY_ID[tile_id].edges
            for x, y, sides in cells:
                for rotation in fitting_rotations(edges, sides):
                    placements.append(("building", tile_id, x, y, rotation))
    if state.display_landscapes:
        facing = [(*decode(code), facing_terrains(state, code)) for code in landscape_cells(state)]
        for terrain in dict.fromkeys(state.display_landscapes):
            for x, y, terrains in facing:
                if terrain in terrains:
                    placements.append(("landscape", terrain, x, y))
    return placements


def can_place_any(state: ArchitektonState) -> bool:
    """Whether some display tile fits somewhere (stops at the first fit)."""
    if state.display_buildings:
        layouts = {BUILDING_BY_ID[t].edges for t in state.display_buildings}
        for code in building_cells(state):
            found = landscape_sides(state, code)
            if any(fitting_rotations(edges, found) for edges in layouts):
                return True
    if state.display_landscapes:
        terrains = set(state.display_landscapes)
        return any(terrains & facing_terrains(state, code) for code in landscape_cells(state))
    return False


def landscapes_around(state: ArchitektonState, code: int) -> int:
    return sum(1 for step in NEIGHBOUR_STEPS if code + step in state.landscapes)


def is_surrounded(state: ArchitektonState, code: int) -> bool:
    return landscapes_around(state, code) == 4


def mismatches(state: ArchitektonState, code: int) -> int:
    """Edges of the building at `code` whose landscape shows another terrain."""
    tile_id, rotation = state.buildings[code]
    count = 0
    for direction, terrain in landscape_sides(state, code):
        if edge(tile_id, rotation, direction) != terrain:
            count += 1
    return count


def house_groups(houses: Iterable[int]) -> list[set[int]]:
    """Groups of houses connected through corner-touching buildings."""
    return connected_groups(houses, DIAGONAL_STEPS)


def largest_group(houses: Iterable[int]) -> int:
    return max((len(group) for group in house_groups(houses)), default=0)


def houses_of(state: ArchitektonState, player: int) -> list[int]:
    return sorted(code for code, owner in state.houses.items() if owner == player)


def kept_houses(state: ArchitektonState) -> dict[int, int]:
    """The houses left at the end: those on buildings touched by only one or two
    landscapes are removed."""
    return {
        code: owner for code, owner in state.houses.items() if landscapes_around(state, code) >= 3
    }
