"""Tables derived from the map and the buildings on it, kept up to date move by move so
that pricing a build or listing tile placements never rescans the map.

`MapIndex.build` makes them from scratch in one sweep (after loading a state from
JSON); `add_tile` and `add_building` update them move by move. The tests check that the
updated tables always equal freshly built ones.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from engine.attika.components import TILE_SYMBOLS
from engine.hexgrid import NEIGHBOUR_STEPS, encode

Discount = tuple[int, int, int, int, int]
"""Symbols of each landscape on a free cell and its free neighbours, then their total."""


def tile_cells(q: int, r: int, rotation: int) -> list[int]:
    """The seven cells of a tile centred on (q, r): the centre, then ring hex k of the
    tile's data on the neighbour in direction (k + rotation) % 6."""
    centre = encode(q, r)
    return [centre] + [centre + NEIGHBOUR_STEPS[(k + rotation) % 6] for k in range(6)]


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
        "shrine_cells",
        "symbol_at",
        "touching",
    )

    def __init__(self, players: int, shrines: Iterable[int]) -> None:
        self.symbol_at: dict[int, int] = {}
        """Cell -> landscape index (-1 blank) of every map-tile hex."""
        self.shrine_cells = frozenset(shrines)
        self.blocked: set[int] = set()
        """Map hexes (tiles and shrines) and their neighbours: no new tile may cover one."""
        self.frontier: set[int] = set()
        """Cells next to `blocked` but outside it: the centres where a new tile fits."""
        self.owner_at: dict[int, int] = {}
        self.building_at: dict[int, int] = {}
        self.discount: dict[int, Discount] = {}
        """For every free map-tile cell, the symbols it and its free neighbours show."""
        self.by_discount: dict[Discount, set[int]] = {}
        self.free_sorted: list[int] = []
        self.near: list[dict[int, int]] = [{} for _ in range(players)]
        """Per player, cell -> how many of their buildings are adjacent to it."""
        self.touching: list[set[int]] = [set() for _ in range(players)]
        """Per player, the free cells next to one of their buildings (no surcharge)."""
        self.colony_of: list[dict[int, int]] = [{} for _ in range(players)]
        """Per player, the cell of each of their buildings -> a label of its colony."""
        self.colonies: list[int] = [0] * players
        self.groups_cache: Any = None
        """Free cells grouped by discount (see `builds`); cleared when a cell changes."""

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
        taken = [*shrines, *symbol_at]
        index.blocked = {cell + step for cell in taken for step in (0, *NEIGHBOUR_STEPS)}
        index.frontier = {
            cell + step for cell in index.blocked for step in NEIGHBOUR_STEPS
        } - index.blocked
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
        self._block_around(cells)
        touched = set(cells)
        touched.update(cell + step for cell in cells for step in NEIGHBOUR_STEPS)
        for cell in touched:
            self._refresh_discount(cell)
        for near, touching in zip(self.near, self.touching, strict=True):
            touching.update(cell for cell in cells if cell in near)

    def _block_around(self, cells: Iterable[int]) -> None:
        blocked, frontier = self.blocked, self.frontier
        added = []
        for cell in cells:
            for other in (cell, *(cell + step for step in NEIGHBOUR_STEPS)):
                if other not in blocked:
                    blocked.add(other)
                    frontier.discard(other)
                    added.append(other)
        for cell in added:
            for step in NEIGHBOUR_STEPS:
                if cell + step not in blocked:
                    frontier.add(cell + step)

    # --- free cells and their discounts ----------------------------------------------------

    def is_free(self, cell: int) -> bool:
        return cell in self.discount

    def _refresh_discount(self, cell: int) -> None:
        symbol_at, owner_at = self.symbol_at, self.owner_at
        if cell in owner_at or cell not in symbol_at:
            return
        counts = [0, 0, 0, 0]
        for other in (cell, *(cell + step for step in NEIGHBOUR_STEPS)):
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
        discount = self.discount
        near = self.near[player]
        touching = self.touching[player]
        colony_of = self.colony_of[player]
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
                    m, h, f, w, total = discount[other]
                    counts = [m, h, f, w]
                    counts[symbol] -= 1
                    self._set_discount(
                        other, (counts[0], counts[1], counts[2], counts[3], total - 1)
                    )
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
        twin.groups_cache = None  # it holds live sets of this index
        return twin
