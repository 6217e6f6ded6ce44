"""Fast path of the map's rules (`map`, `costs`, `colonies`): tables derived from the map
and the buildings on it, kept up to date move by move so that pricing a build or
listing tile placements never rescans the map.

`MapIndex.build` makes them from scratch in one sweep (after loading a state from
JSON); `add_tile` and `add_building` update them move by move. Each table names the
plain rule it stands for; tests/engine/attika/fast/test_index.py checks that the
updated tables always equal freshly built ones and the plain rules' answers.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from engine.attika.components import IS_ROAD, TILE_SYMBOLS, Discount, tile_cells
from engine.hexgrid import NEIGHBOUR_STEPS, encode


def _steps_at_distance(distance: int) -> tuple[int, ...]:
    """Code offsets of the cells exactly `distance` steps away, sorted."""
    return tuple(
        sorted(
            encode(dq, dr) - encode(0, 0)
            for dq in range(-distance, distance + 1)
            for dr in range(-distance, distance + 1)
            if max(abs(dq), abs(dr), abs(dq + dr)) == distance
        )
    )


WITHIN_TWO_STEPS = (0, *_steps_at_distance(1), *_steps_at_distance(2))
"""Offsets of the 19 cells a new tile blocks (its 7 hexes and their neighbours), which
are also the cells whose discount it may change."""
THREE_STEPS = _steps_at_distance(3)
"""Offsets of the 18 cells just outside those: the only ones that may join the frontier."""


_GEOMETRIES: dict[frozenset[int], tuple[frozenset[int], frozenset[int]]] = {}
"""The map hexes -> `_blocked_and_frontier`: a pure function of them, remembered because
every new game of a player count starts from the same hexes; emptied if it grows large."""
_MOST_GEOMETRIES = 64


def _blocked_and_frontier(taken: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
    """The map hexes and their neighbours (no new tile may cover one), and the cells next
    to those (where a new tile's centre fits)."""
    known = _GEOMETRIES.get(taken)
    if known is None:
        if len(_GEOMETRIES) >= _MOST_GEOMETRIES:
            _GEOMETRIES.clear()
        blocked = frozenset(cell + step for cell in taken for step in (0, *NEIGHBOUR_STEPS))
        frontier = frozenset(
            cell + step for cell in blocked for step in NEIGHBOUR_STEPS
        ).difference(blocked)
        known = _GEOMETRIES[taken] = (blocked, frontier)
    return known


_LESS: tuple[dict[Discount, Discount], ...] = ({}, {}, {}, {}, {})
"""Per landscape, discount -> the same with one symbol of that landscape fewer, filled as
met (discounts are few); a building's neighbours lose its hex's symbol. The fifth, read
for a blank hex (-1), stays empty."""


def _without(value: Discount, symbol: int) -> Discount:
    counts = list(value)
    counts[symbol] -= 1
    counts[4] -= 1
    less = _LESS[symbol][value] = (counts[0], counts[1], counts[2], counts[3], counts[4])
    return less


class MapIndex:
    __slots__ = (
        "blocked",
        "building_at",
        "by_discount",
        "colonies",
        "colony_of",
        "discount",
        "free_sorted",
        "frontier",
        "groups_cache",
        "near",
        "owner_at",
        "road_near",
        "shrine_cells",
        "symbol_at",
        "touching",
    )

    def __init__(self, players: int, shrines: Iterable[int]) -> None:
        self.symbol_at: dict[int, int] = {}
        """Cell -> landscape index (-1 blank) of every map-tile hex (`state.hexes`)."""
        self.shrine_cells = frozenset(shrines)
        self.blocked: set[int] = set()
        """Map hexes (tiles and shrines) and their neighbours: no new tile may cover one."""
        self.frontier: set[int] = set()
        """Cells next to `blocked` but outside it: the centres where a new tile fits
        (`map.tile_centres`)."""
        self.owner_at: dict[int, int] = {}
        self.building_at: dict[int, int] = {}
        """Cell -> the owner and the building on it (`map.buildings_on_map`)."""
        self.discount: dict[int, Discount] = {}
        """For every free map-tile cell (`map.free_cells`), the symbols it and its free
        neighbours show (`costs.discount`)."""
        self.by_discount: dict[Discount, set[int]] = {}
        self.free_sorted: list[int] = []
        self.near: list[dict[int, int]] = [{} for _ in range(players)]
        """Per player, cell -> how many of their buildings are adjacent to it (none: a
        building there pays the colony surcharge, `costs.surcharge`)."""
        self.touching: list[set[int]] = [set() for _ in range(players)]
        """Per player, the free cells next to one of their buildings (no surcharge)."""
        self.colony_of: list[dict[int, int]] = [{} for _ in range(players)]
        """Per player, the cell of each of their buildings -> a label of its colony."""
        self.colonies: list[int] = [0] * players
        """Per player, how many colonies (`len(colonies.colonies(state, player))`)."""
        self.road_near: list[frozenset[int]] = [frozenset()] * players
        """Per player, the cells next to one of their roads, free or not (where another
        road of theirs is a free build). Replaced, never changed, so copies share it."""
        self.groups_cache: Any = None
        """Free cells grouped by discount (see `fast.builds`); cleared when a cell changes."""

    @classmethod
    def build(
        cls,
        players: int,
        tiles: Iterable[tuple[int, int, int, int]],
        shrines: list[int],
        placed: list[dict[int, int]],
    ) -> MapIndex:
        """The tables of a map made of these tiles and shrines, with these buildings."""
        symbols = {}
        for tile, q, r, rotation in tiles:
            for cell, symbol in zip(tile_cells(q, r, rotation), TILE_SYMBOLS[tile], strict=True):
                symbols[cell] = symbol
        return cls.from_symbols(players, symbols, shrines, placed)

    @classmethod
    def from_symbols(
        cls,
        players: int,
        symbol_at: dict[int, int],
        shrines: list[int],
        placed: list[dict[int, int]],
    ) -> MapIndex:
        """The tables of a map given hex by hex (the tests paint maps this way), computed
        in one sweep rather than move by move (and so a check on the moves' updates)."""
        index = cls(players, shrines)
        index.symbol_at = dict(symbol_at)
        blocked, centres = _blocked_and_frontier(frozenset((*shrines, *symbol_at)))
        index.blocked, index.frontier = set(blocked), set(centres)
        owner_at, building_at = index.owner_at, index.building_at
        for player, buildings in enumerate(placed):
            for building, cell in buildings.items():
                owner_at[cell] = player
                building_at[cell] = building
        for cell, symbol in symbol_at.items():
            if cell in owner_at:
                continue
            counts = [0, 0, 0, 0]
            if symbol >= 0:
                counts[symbol] += 1
            for step in NEIGHBOUR_STEPS:
                other = symbol_at.get(cell + step, -1)
                if other >= 0 and cell + step not in owner_at:
                    counts[other] += 1
            value = (counts[0], counts[1], counts[2], counts[3], sum(counts))
            index.discount[cell] = value
            index.by_discount.setdefault(value, set()).add(cell)
        index.free_sorted = sorted(index.discount)
        for player, buildings in enumerate(placed):
            near = index.near[player]
            for cell in buildings.values():
                for step in NEIGHBOUR_STEPS:
                    near[cell + step] = near.get(cell + step, 0) + 1
            index.touching[player] = {cell for cell in near if cell in index.discount}
            index.road_near[player] = frozenset(
                cell + step
                for building, cell in buildings.items()
                if IS_ROAD[building]
                for step in NEIGHBOUR_STEPS
            )
            colony_of = index.colony_of[player]
            cells = set(buildings.values())
            for start in sorted(cells):
                if start in colony_of:
                    continue
                index.colonies[player] += 1
                colony_of[start] = start
                frontier = [start]
                while frontier:
                    cell = frontier.pop()
                    for step in NEIGHBOUR_STEPS:
                        other = cell + step
                        if other in cells and other not in colony_of:
                            colony_of[other] = start
                            frontier.append(other)
        return index

    # --- tiles ---------------------------------------------------------------------------

    def add_tile(self, tile: int, q: int, r: int, rotation: int) -> None:
        cells = tile_cells(q, r, rotation)
        for cell, symbol in zip(cells, TILE_SYMBOLS[tile], strict=True):
            self.symbol_at[cell] = symbol
        centre = cells[0]
        self._block_around(centre)
        for step in WITHIN_TWO_STEPS:
            self._refresh_discount(centre + step)
        for near, touching in zip(self.near, self.touching, strict=True):
            touching.update(cell for cell in cells if cell in near)

    def _block_around(self, centre: int) -> None:
        """Block the new tile's hexes and their neighbours (two steps of the centre); the
        frontier loses those and gains the free cells three steps away. (A cell next to
        an already blocked one is already on the frontier or blocked.)"""
        blocked, frontier = self.blocked, self.frontier
        for step in WITHIN_TWO_STEPS:
            cell = centre + step
            blocked.add(cell)
            frontier.discard(cell)
        for step in THREE_STEPS:
            cell = centre + step
            if cell not in blocked:
                frontier.add(cell)

    # --- free cells and their discounts ----------------------------------------------------

    def is_free(self, cell: int) -> bool:
        return cell in self.discount

    def _refresh_discount(self, cell: int) -> None:
        symbol_at, owner_at = self.symbol_at, self.owner_at
        if cell in owner_at or cell not in symbol_at:
            return
        counts = [0, 0, 0, 0]
        symbol = symbol_at[cell]
        if symbol >= 0:
            counts[symbol] += 1
        for step in NEIGHBOUR_STEPS:
            other = cell + step
            symbol = symbol_at.get(other, -1)
            if symbol >= 0 and other not in owner_at:
                counts[symbol] += 1
        self._set_discount(cell, (counts[0], counts[1], counts[2], counts[3], sum(counts)))

    def _set_discount(self, cell: int, value: Discount) -> None:
        old = self.discount.get(cell)
        if old == value:
            return
        self.groups_cache = None
        if old is None:
            bisect.insort(self.free_sorted, cell)
        else:
            self._leave_group(cell, old)
        self._join_group(cell, value)

    def _join_group(self, cell: int, value: Discount) -> None:
        self.discount[cell] = value
        group = self.by_discount.get(value)
        if group is None:
            self.by_discount[value] = {cell}
        else:
            group.add(cell)

    def _leave_group(self, cell: int, value: Discount) -> None:
        group = self.by_discount[value]
        group.discard(cell)
        if not group:
            del self.by_discount[value]

    # --- buildings -------------------------------------------------------------------------

    def add_building(self, player: int, building: int, cell: int) -> int:
        """Record a new building on a free cell; the label of the colony it is now in."""
        self.groups_cache = None
        self.owner_at[cell] = player
        self.building_at[cell] = building
        self._leave_group(cell, self.discount.pop(cell))
        del self.free_sorted[bisect.bisect_left(self.free_sorted, cell)]
        for touching in self.touching:
            touching.discard(cell)
        symbol = self.symbol_at[cell]
        less = _LESS[symbol]
        discount = self.discount
        near = self.near[player]
        touching = self.touching[player]
        colony_of = self.colony_of[player]
        if IS_ROAD[building]:
            self.road_near[player] = self.road_near[player].union(
                map(cell.__add__, NEIGHBOUR_STEPS)
            )
        labels = set()
        for step in NEIGHBOUR_STEPS:
            other = cell + step
            near[other] = near.get(other, 0) + 1
            label = colony_of.get(other)
            if label is not None:
                labels.add(label)
            elif other in discount:
                touching.add(other)
                if symbol >= 0:
                    # the neighbour no longer counts the symbol of the now occupied cell
                    before = discount[other]
                    self._leave_group(other, before)
                    self._join_group(other, less.get(before) or _without(before, symbol))
        if not labels:
            colony_of[cell] = cell
            self.colonies[player] += 1
            return cell
        label = min(labels)
        colony_of[cell] = label
        if len(labels) > 1:
            for member, old in colony_of.items():
                if old in labels:
                    colony_of[member] = label
            self.colonies[player] -= len(labels) - 1
        return label

    def copy(self) -> MapIndex:
        twin = MapIndex.__new__(MapIndex)
        twin.symbol_at = dict(self.symbol_at)
        twin.shrine_cells = self.shrine_cells
        twin.blocked = set(self.blocked)
        twin.frontier = set(self.frontier)
        twin.owner_at = dict(self.owner_at)
        twin.building_at = dict(self.building_at)
        twin.discount = dict(self.discount)
        twin.by_discount = {key: set(cells) for key, cells in self.by_discount.items()}
        twin.free_sorted = list(self.free_sorted)
        twin.near = [dict(near) for near in self.near]
        twin.touching = [set(cells) for cells in self.touching]
        twin.colony_of = [dict(labels) for labels in self.colony_of]
        twin.colonies = list(self.colonies)
        twin.road_near = list(self.road_near)
        twin.groups_cache = None  # it holds live sets of this index
        return twin
