"""Fast paths of the map's rules, answered from the tables kept move by move
(`fast.index.MapIndex`, in the state's caches) rather than from the map's facts:

- `tile_centres`, `tile_fits`: `map.tile_centres`, `map.tile_fits`;
- `is_free`: whether a cell is among `map.free_cells`;
- `build_cost`: `costs.build_cost` (the cell's discount, the player's colonies, whether
  the cell touches their buildings, all read from the tables);
- `shrines_touched`: `colonies.shrines_linked` for the colony of a new building.

Each is checked against its plain rule by tests/engine/attika/fast/test_map_rules.py.
"""

from __future__ import annotations

from engine.attika.costs import FREE, Cost, discounted, is_free_build
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS


def tile_centres(state: AttikaState) -> list[int]:
    """`map.tile_centres`: the index keeps the centres where a tile fits."""
    return sorted(state.caches.index.frontier)


def tile_fits(state: AttikaState, centre: int) -> bool:
    """`map.tile_fits`."""
    return centre in state.caches.index.frontier


def is_free(state: AttikaState, cell: int) -> bool:
    """`cell in map.free_cells(state)`: the index keeps every free cell's discount."""
    return cell in state.caches.index.discount


def build_cost(state: AttikaState, player: int, building: int, cell: int) -> Cost:
    """`costs.build_cost`, the discount, the surcharge's adjacency and the colonies
    read from the index."""
    if is_free_build(state, player, building, cell):
        return FREE
    index = state.caches.index
    surcharge = 0 if index.near[player].get(cell) else index.colonies[player]
    return discounted(building, index.discount[cell], surcharge)


def shrines_touched(state: AttikaState, player: int, colony: int) -> int:
    """`colonies.shrines_linked` for a building of the colony with this label
    (`MapIndex.colony_of`), but 0 when the player's buildings touch fewer than two
    shrines in all (no win then). (Asked at every build: loops, not generators.)"""
    near_shrines = state.caches.index.near[player].keys() & state.shrines
    if len(near_shrines) < 2:
        return 0
    colony_of = state.caches.index.colony_of[player]
    touched = 0
    for shrine in near_shrines:
        for step in NEIGHBOUR_STEPS:
            if colony_of.get(shrine + step) == colony:
                touched += 1
                break
    return touched
