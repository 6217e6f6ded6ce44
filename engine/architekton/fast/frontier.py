"""Fast path of `board.legal_placements` and `board.can_place_any`: the empty cells where
a tile may go, kept up to date as tiles are placed.

A building may go on an empty cell next to a landscape, and must match the landscapes
around it (`board.landscape_sides`); a landscape may go on an empty cell next to a
building, in a terrain one of them shows it (`board.facing_terrains`). Tiles are only
ever added, and a new tile changes only its own cell and its four neighbours, so the
frontier is updated from the tiles placed since it was made (the board's dicts keep
their insertion order). A `Frontier` is never changed once made: a state's copy shares
it, and an update makes a new one. Checked against the plain scans of `board` by
tests/engine/architekton/fast/test_frontier.py.
"""

from __future__ import annotations

import itertools

from engine.architekton import board
from engine.architekton.actions import Raw
from engine.architekton.board import facing_terrains, fitting_rotations, landscape_sides
from engine.architekton.components import BUILDING_BY_ID, TILES_PER_TURN
from engine.architekton.state import ArchitektonState
from engine.squaregrid import NEIGHBOUR_STEPS, decode

Sides = tuple[tuple[int, int], ...]

_SIDES_ID: dict[Sides, int] = {}
"""Every `landscape_sides` value met, numbered: a few dozen in all (four sides, five
terrains), so that a cell's sides are one small int to look up."""
FITTING: dict[int, tuple[int, ...]] = {}
"""`sides id * 256 + tile id` -> `fitting_rotations` of the tile for those sides."""


def sides_id(sides: Sides) -> int:
    number = _SIDES_ID.get(sides)
    if number is None:
        number = _SIDES_ID[sides] = len(_SIDES_ID)
        for tile_id, tile in BUILDING_BY_ID.items():
            FITTING[number * 256 + tile_id] = fitting_rotations(tile.edges, sides)
    return number


def fits(tile_id: int, sides: int) -> tuple[int, ...]:
    """The rotations in which the building tile fits on a cell with these sides (an id
    from `sides_id`)."""
    return FITTING[sides * 256 + tile_id]


class Frontier:
    """For a board of `landscapes` and `buildings` tiles: the empty cells next to a
    landscape with the landscapes' sides (as a `sides_id`), and those next to a building
    with the terrains the buildings show them. `building_rows` and `landscape_rows` give
    them as (x, y, sides id or terrains) sorted by cell, made when first asked for."""

    __slots__ = ("_building_rows", "_landscape_rows", "buildings", "facing", "landscapes", "sides")

    def __init__(
        self,
        landscapes: int,
        buildings: int,
        sides: dict[int, int],
        facing: dict[int, frozenset[int]],
    ) -> None:
        self.landscapes = landscapes
        self.buildings = buildings
        self.sides = sides
        self.facing = facing
        self._building_rows: list[tuple[int, int, int]] | None = None
        self._landscape_rows: list[tuple[int, int, frozenset[int]]] | None = None

    @property
    def building_rows(self) -> list[tuple[int, int, int]]:
        if self._building_rows is None:
            xy, sides = _XY, self.sides
            self._building_rows = [(*xy[code], sides[code]) for code in sorted(sides)]
        return self._building_rows

    @property
    def landscape_rows(self) -> list[tuple[int, int, frozenset[int]]]:
        if self._landscape_rows is None:
            xy, facing = _XY, self.facing
            self._landscape_rows = [(*xy[code], facing[code]) for code in sorted(facing)]
        return self._landscape_rows


class _Decoded(dict[int, tuple[int, int]]):
    """Cell code -> (x, y), decoded the first time it is asked for."""

    def __missing__(self, code: int) -> tuple[int, int]:
        xy = self[code] = decode(code)
        return xy


_XY = _Decoded()


def current_frontier(state: ArchitektonState) -> Frontier | None:
    """The state's frontier if it is up to date, else None (nothing is computed)."""
    kept: Frontier | None = state.caches.frontier
    if (
        kept is not None
        and kept.landscapes == len(state.landscapes)
        and kept.buildings == len(state.buildings)
    ):
        return kept
    return None


def frontier(state: ArchitektonState) -> Frontier:
    """The state's frontier, brought up to date with the tiles placed since it was made."""
    kept: Frontier | None = state.caches.frontier
    landscapes, buildings = len(state.landscapes), len(state.buildings)
    if kept is not None and kept.landscapes == landscapes and kept.buildings == buildings:
        return kept
    if kept is None or kept.landscapes > landscapes or kept.buildings > buildings:
        kept = _scanned(state)
    else:
        kept = _updated(state, kept)
    state.caches.frontier = kept
    return kept


def _scanned(state: ArchitektonState) -> Frontier:
    sides = {
        code + step: sides_id(landscape_sides(state, code + step))
        for code in state.landscapes
        for step in NEIGHBOUR_STEPS
        if code + step not in state.buildings
    }
    facing = {
        code + step: frozenset(facing_terrains(state, code + step))
        for code in state.buildings
        for step in NEIGHBOUR_STEPS
        if code + step not in state.landscapes
    }
    return Frontier(len(state.landscapes), len(state.buildings), sides, facing)


def _updated(state: ArchitektonState, kept: Frontier) -> Frontier:
    landscapes, buildings = state.landscapes, state.buildings
    sides, facing = dict(kept.sides), dict(kept.facing)
    for code in itertools.islice(landscapes, kept.landscapes, None):
        facing.pop(code, None)
        for step in NEIGHBOUR_STEPS:
            near = code + step
            if near not in buildings:
                sides[near] = sides_id(landscape_sides(state, near))
    for code in itertools.islice(buildings, kept.buildings, None):
        sides.pop(code, None)
        for step in NEIGHBOUR_STEPS:
            near = code + step
            if near not in landscapes:
                facing[near] = frozenset(facing_terrains(state, near))
    return Frontier(len(landscapes), len(buildings), sides, facing)


def legal_placements(state: ArchitektonState) -> list[Raw]:
    """Fast path of `board.legal_placements`, from the state's frontier."""
    if state.placed_this_turn >= TILES_PER_TURN:
        return []
    placements: list[Raw] = []
    where = frontier(state)
    if state.display_buildings:
        for tile_id in state.display_buildings:
            for x, y, sides in where.building_rows:
                for rotation in FITTING[sides * 256 + tile_id]:
                    placements.append(("building", tile_id, x, y, rotation))
    if state.display_landscapes:
        rows = where.landscape_rows
        for terrain in dict.fromkeys(state.display_landscapes):
            placements.extend(
                [("landscape", terrain, x, y) for x, y, shown in rows if terrain in shown]
            )
    return placements


def can_place_any(state: ArchitektonState) -> bool:
    """Fast path of `board.can_place_any`: from the frontier when it is up to date; else
    the plain scan of the board, which usually stops early (cheaper than bringing the
    frontier up to date for one question)."""
    where = current_frontier(state)
    if where is None:
        return board.can_place_any(state)
    if state.display_buildings:
        for sides in where.sides.values():
            if any(fits(tile_id, sides) for tile_id in state.display_buildings):
                return True
    if state.display_landscapes:
        terrains = set(state.display_landscapes)
        return any(terrains & facing for facing in where.facing.values())
    return False
