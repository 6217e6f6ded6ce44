"""Akropolis's encodings from the engine's state: each city's planes kept up to date
move by move, the legal placements' indices from the engine's legal triangles.

A city changes only by a tile placed, which rewrites three cells of its `top` (each a
fresh tuple), so the planes follow by rewriting the cells whose tuple is not the one
last written: only the three cells of the move the env says was played when the city
has one tile more since (`moved`), else every cell; a city object never seen before (a
new match, a copied city) is written whole.
"""

from __future__ import annotations

import itertools
import struct
from operator import itemgetter
from typing import Any

import numpy as np

from engine.akropolis.actions import LegalActions, placements_of
from engine.akropolis.city import City
from engine.akropolis.components import COLORS, DISTRICT, PLAZA, QUARRY, TILES
from engine.akropolis.geometry import TILE_STEPS
from engine.akropolis.state import AkropolisState
from engine.hexgrid import decode, encode

CODE = np.zeros(1 + 2 * len(COLORS), np.int64)
"""The encoding's hex code (`akropolis.hex_code`) of each engine hex code."""
CODE[QUARRY] = 1
for _n, _color in enumerate(COLORS):
    CODE[PLAZA[_color]] = 2 + _n
    CODE[DISTRICT[_color]] = 7 + _n
KIND_CODE = tuple(int(code) for code in CODE)
SITE_ROWS = np.zeros((max(TILES) + 1, 4), np.float32)
"""The site segment's row of each tile id: id + 1, then its hexes' codes."""
for _tile, _data in TILES.items():
    SITE_ROWS[_tile] = (_tile + 1, *(CODE[code] for code in _data.hexes))
SITE_BYTES = tuple(row.tobytes() for row in SITE_ROWS)
"""Each row as float32 bytes: the segments after the cities are written as one run of
bytes, a single numpy call (each call costs more than the few numbers it writes)."""


class CityPlanes:
    """One seat's three planes (level, kind, tile id + 1), as the last city written,
    kept sparse: the planes' index and value of each occupied cell, so that the vector
    is written as zeros and a few hundred values (its planes are mostly empty)."""

    def __init__(self, width: int, radius: int, capacity: int) -> None:
        self.width, self.radius = width, radius
        self.plane = width * width
        self.positions = np.zeros(3 * capacity, np.int64)
        self.values = np.zeros(3 * capacity, np.float32)
        # Written an item at a time through memoryviews (a numpy item assignment costs
        # ten times more).
        self.item_positions = memoryview(self.positions.data)
        self.item_values = memoryview(self.values.data)
        self.count = 0
        """Entries of `positions` and `values` in use: three per occupied cell."""
        self.slots: dict[int, int] = {}
        """Cell -> its first entry."""
        self.written_slots: list[int] = []
        """The first entry of each cell written, in the order written (a cell again each
        time it changes): a seat's kept vector copies those it has not yet."""
        self.generation = 0
        """Counts the cities written whole: a kept vector of another generation is
        rewritten whole."""
        self.city: City | None = None
        self.tiles = -1
        self.written: dict[int, Any] = {}
        self.placed: tuple[int, ...] = ()
        """The cells of the tile the env says was placed last, with the city's tile
        count after it: (tiles, cell, cell, cell)."""

    def hint(self, move: Any) -> None:
        """The city's owner has played `move` (`AkropolisStateReader.moved`)."""
        try:
            anchor = encode(move["q"], move["r"])
            second, third = TILE_STEPS[move["rotation"]]
        except (KeyError, TypeError, ValueError, IndexError):
            self.placed = ()
            return
        self.placed = (self.tiles + 1, anchor, anchor + second, anchor + third)

    def update(self, city: City) -> None:
        """Make the planes those of `city`."""
        if city is self.city and city.tiles == self.tiles:
            return
        same = city is self.city
        if not same:
            self.count = 0
            self.slots = {}
            self.written = {}
            self.written_slots = []
            self.generation += 1
            self.city = city
        written, tile_at, top, slots = self.written, city.tile_at, city.top, self.slots
        positions, values = self.item_positions, self.item_values
        width, radius, plane = self.width, self.radius, self.plane
        placed, written_slots = self.placed, self.written_slots
        cells: Any = top.items()
        if same and placed and placed[0] == city.tiles:
            # The three cells of the tile placed, each a fresh tuple, else a full scan.
            changed = [(cell, top.get(cell)) for cell in placed[1:]]
            if all(hex_ is not None and written.get(cell) is not hex_ for cell, hex_ in changed):
                cells = changed
        self.placed = ()
        for cell, hex_ in cells:
            if written.get(cell) is not hex_:
                written[cell] = hex_
                slot = slots.get(cell)
                if slot is None:
                    slot = slots[cell] = self.count
                    self.count += 3
                    q, r = decode(cell)
                    at = (q + radius) * width + r + radius
                    positions[slot] = at
                    positions[slot + 1] = at + plane
                    positions[slot + 2] = at + 2 * plane
                written_slots.append(slot)
                values[slot] = hex_[0]
                values[slot + 1] = KIND_CODE[hex_[1]]
                values[slot + 2] = tile_at[cell] + 1
        self.tiles = city.tiles


class KeptVector:
    """One seat's observation vector, kept between its observations, and what of each
    city it holds: (the city's generation, the `written_slots` copied)."""

    def __init__(self, size: int, players: int) -> None:
        self.vector = np.zeros(size, np.float32)
        self.seen = [(-1, 0)] * players
        # The few values a move changes are written an item at a time, and the segments
        # after the cities as bytes: numpy's calls cost more than so little data.
        self.items = memoryview(self.vector.data)
        self.bytes = self.items.cast("B")


class PlacementCells(dict[int, bytes]):
    """The cell part, `((q + R) * W + r + R) * 6 + rotation`, of each triangle's three
    placements, computed once, as the bytes of three int64: the legal triangles' bytes
    joined are the array of their cells, made without a Python int per placement."""

    def __init__(self, width: int, radius: int) -> None:
        super().__init__()
        self.width, self.radius = width, radius

    def __missing__(self, triangle: int) -> bytes:
        radius, width = self.radius, self.width
        cells = []
        for q, r, rotation in placements_of(triangle):
            if not (-radius <= q <= radius and -radius <= r <= radius):
                raise ValueError("a legal placement outside the encoding's grid")
            cells.append(((q + radius) * width + r + radius) * 6 + rotation)
        found = self[triangle] = np.array(cells, np.int64).tobytes()
        return found


class AkropolisStateReader:
    """`encode_state` and `state_legal_indices` of an `AkropolisEncoding`."""

    def __init__(self, encoding: Any) -> None:
        self.players = encoding.players
        self.width, self.radius = encoding.width, encoding.radius
        self.size = encoding.observation_size
        self.site_size = encoding.site_size
        self.city_size = 3 * self.width * self.width
        capacity = 3 * (encoding.max_tiles + 2)
        """Cells a city may cover: three a tile, the starting tile's four."""
        self.cities = [CityPlanes(self.width, self.radius, capacity) for _ in range(self.players)]
        self.tail = self.players * self.city_size
        """Where the segments after the cities start (the cities come first)."""
        starts = {name: start - self.tail for name, (start, _) in encoding.offsets.items()}
        self.site, self.stones = starts["site"], starts["stones"]
        self.stack_tiles, self.scalars = starts["stack_tiles"], starts["scalars"]
        self.options = starts["options"]
        self.placements = PlacementCells(self.width, self.radius)
        self.variants = encoding.variants
        if (self.site, self.stones, self.stack_tiles, self.scalars, self.options) != (
            0,
            4 * self.site_size,
            4 * self.site_size + self.players,
            4 * self.site_size + self.players + len(SITE_ROWS),
            4 * self.site_size + self.players + len(SITE_ROWS) + 3,
        ):
            raise AssertionError("the Akropolis segments are not in the order written")
        self.site_bytes = 16 * self.site_size
        self.stones_format = struct.Struct(f"<{self.players}f")
        self.scalars_format = struct.Struct("<3f")
        self._stacks: tuple[Any, ...] = ()
        self._stack_tiles = [0.0] * len(SITE_ROWS)
        self._stack_bytes = bytes(4 * len(SITE_ROWS))
        self._options: tuple[Any, bytes] = (None, b"")

    def stack_bytes(self, stacks: list[list[int]]) -> bytes:
        """`stack_marks` as float32 bytes, packed again only when they change."""
        marks = self._stack_tiles
        if self.stack_marks(stacks) is not marks:
            self._stack_bytes = struct.pack(f"<{len(SITE_ROWS)}f", *self._stack_tiles)
        return self._stack_bytes

    def option_bytes(self, options: Any) -> bytes:
        """The options segment as float32 bytes, kept while the options are the same."""
        if self._options[0] is not options:
            packed = struct.pack(
                f"<{len(self.variants)}f", *(bool(options.get(n)) for n in self.variants)
            )
            self._options = (options, packed)
        return self._options[1]

    def stack_marks(self, stacks: list[list[int]]) -> list[float]:
        """The stack_tiles segment, kept while the stacks are the same (a stack is
        drawn whole and never changed: the same first stack and count are the same)."""
        key = (len(stacks), stacks[0] if stacks else None)
        kept = self._stacks
        if kept and kept[0] == key[0] and kept[1] is key[1]:
            return self._stack_tiles
        marks = [0.0] * len(SITE_ROWS)
        for tile in itertools.chain.from_iterable(stacks):
            marks[tile] = 1.0
        self._stacks, self._stack_tiles = key, marks
        return marks

    def kept_vector(self) -> KeptVector:
        return KeptVector(self.size, self.players)

    def encode(self, state: AkropolisState, seat: int) -> np.ndarray:
        return self.encode_into(state, seat, self.kept_vector())

    def encode_into(self, state: AkropolisState, seat: int, kept: KeptVector) -> np.ndarray:
        """`seat`'s vector, written into `kept`'s: of each city, only the cells written
        since `kept` last saw it (the whole city if it is another one)."""
        players, size = self.players, self.city_size
        cities = state.cities
        for who, planes in enumerate(self.cities):
            planes.update(cities[who])
        vector, seen, items = kept.vector, kept.seen, kept.items
        for rank in range(players):
            who = (seat + rank) % players
            planes = self.cities[who]
            generation, done = seen[who]
            if generation != planes.generation:
                block = vector[rank * size : (rank + 1) * size]
                block.fill(0.0)
                count = planes.count
                block[planes.positions[:count]] = planes.values[:count]
            elif len(planes.written_slots) > done:
                base, positions, values = rank * size, planes.item_positions, planes.item_values
                for slot in planes.written_slots[done:]:
                    for entry in (slot, slot + 1, slot + 2):
                        items[base + positions[entry]] = values[entry]
            seen[who] = (planes.generation, len(planes.written_slots))
        stones, turn, stacks = state.stones, state.turn, state.stacks
        site = b"".join(map(SITE_BYTES.__getitem__, state.site))
        tail = b"".join(
            (
                site,
                bytes(self.site_bytes - len(site)),
                self.stones_format.pack(*stones[seat:], *stones[:seat]),
                self.stack_bytes(stacks),
                self.scalars_format.pack(len(stacks), turn, (turn % players - seat) % players),
                self.option_bytes(state.options),
            )
        )
        kept.bytes[4 * self.tail :] = tail
        return vector

    def moved(self, seat: int, move: Any) -> None:
        if 0 <= seat < self.players:
            self.cities[seat].hint(move)

    def legal_indices(self, legal: LegalActions) -> np.ndarray:
        triangles, tiles = legal.triangles, legal.tiles
        if tiles and tiles[-1] >= self.site_size:
            raise ValueError("a legal site position outside the encoding")
        if len(triangles) > 1:
            # One C call for every triangle's cells (a map or a comprehension: 1.3x).
            joined = b"".join(itemgetter(*triangles)(self.placements))
        else:
            joined = b"".join(map(self.placements.__getitem__, triangles))
        cells = np.frombuffer(joined, np.int64)
        block = self.width * self.width * 6
        if len(tiles) == 1:
            one: np.ndarray = cells + tiles[0] * block
            return one
        indices: np.ndarray = np.add.outer(np.array(tiles, np.int64) * block, cells).ravel()
        return indices
