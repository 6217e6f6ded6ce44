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
from bisect import bisect_left
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
SITE_ROWS = np.zeros((max(TILES) + 1, 4), np.float32)
"""The site segment's row of each tile id: id + 1, then its hexes' codes."""
for _tile, _data in TILES.items():
    SITE_ROWS[_tile] = (_tile + 1, *(CODE[code] for code in _data.hexes))
SITE_BYTES = tuple(row.tobytes() for row in SITE_ROWS)
KIND_FLOAT = tuple(float(code) for code in CODE)
LEVELS = tuple(float(level) for level in range(64))
TILE_FLOAT = tuple(float(tile + 1) for tile in range(max(TILES) + 1))
"""The values a city's planes hold, as floats (a float32 memoryview takes floats only)."""
"""Each row as float32 bytes: the segments after the cities are written as one run of
bytes, a single numpy call (each call costs more than the few numbers it writes)."""


class CellPlaces(dict[int, int]):
    """A cell's place in a city plane, `(q + R) * W + r + R`, computed once per cell."""

    def __init__(self, width: int, radius: int) -> None:
        super().__init__()
        self.width, self.radius = width, radius

    def __missing__(self, cell: int) -> int:
        q, r = decode(cell)
        place = self[cell] = (q + self.radius) * self.width + r + self.radius
        return place


class CityPlanes:
    """One seat's three planes (level, kind, tile id + 1), as the last city written,
    kept as a log: each cell written, in order, with its three values, so that a kept
    vector copies only the entries it has not yet (the planes are mostly empty)."""

    def __init__(self, places: CellPlaces) -> None:
        self.places = places
        self.log: list[tuple[int, float, float, float]] = []
        """(place, level, kind, tile id + 1) of each cell written, in the order written
        (a cell again each time it changes), since the city was first written whole."""
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
        if city is self.city:
            if city.tiles == self.tiles:
                return
            placed = self.placed
            if placed and placed[0] == city.tiles:
                # The three cells of the tile placed, each a fresh tuple (written out: a
                # loop costs more than the three cells): else a full scan.
                _, first, second, third = placed
                top, written = city.top, self.written
                one, two, three = top.get(first), top.get(second), top.get(third)
                if (
                    one is not None
                    and two is not None
                    and three is not None
                    and written.get(first) is not one
                    and written.get(second) is not two
                    and written.get(third) is not three
                ):
                    written[first], written[second], written[third] = one, two, three
                    places, tile_at = self.places, city.tile_at
                    self.log += (
                        (
                            places[first],
                            LEVELS[one[0]],
                            KIND_FLOAT[one[1]],
                            TILE_FLOAT[tile_at[first]],
                        ),
                        (
                            places[second],
                            LEVELS[two[0]],
                            KIND_FLOAT[two[1]],
                            TILE_FLOAT[tile_at[second]],
                        ),
                        (
                            places[third],
                            LEVELS[three[0]],
                            KIND_FLOAT[three[1]],
                            TILE_FLOAT[tile_at[third]],
                        ),
                    )
                    self.placed = ()
                    self.tiles = city.tiles
                    return
        else:
            self.log = []
            self.written = {}
            self.generation += 1
            self.city = city
        self.placed = ()
        written, tile_at, places, add = self.written, city.tile_at, self.places, self.log.append
        for cell, hex_ in city.top.items():
            if written.get(cell) is not hex_:
                written[cell] = hex_
                add((places[cell], LEVELS[hex_[0]], KIND_FLOAT[hex_[1]], TILE_FLOAT[tile_at[cell]]))
        self.tiles = city.tiles


class KeptVector:
    """One seat's observation vector, kept between its observations, and what of each
    city it holds: (the city's generation, the log entries copied)."""

    def __init__(self, size: int, players: int) -> None:
        self.vector = np.zeros(size, np.float32)
        self.seen = [(-1, 0)] * players
        # The few values a move changes are written an item at a time, and the segments
        # after the cities as bytes: numpy's calls cost more than so little data.
        self.items: Any = memoryview(self.vector.data)
        """The vector's float32 items (typed Any: its stubs take ints only)."""
        self.bytes = memoryview(self.vector.data).cast("B")
        self.stacks: Any = None
        """The first stack and the count of the stacks whose marks are written (-1: none
        yet), and the options written."""
        self.stack_count = -1
        self.options: Any = None


class PlacementCells(dict[int, bytes]):
    """The cell part, `((q + R) * W + r + R) * 6 + rotation`, of each triangle's three
    placements, computed once, as the bytes of three int64: the legal triangles' bytes
    joined are the array of their cells, made without a Python int per placement.
    `anchors` maps each cell part met back to (triangle, which of its three)."""

    def __init__(self, width: int, radius: int) -> None:
        super().__init__()
        self.width, self.radius = width, radius
        self.anchors: dict[int, tuple[int, int]] = {}

    def __missing__(self, triangle: int) -> bytes:
        radius, width = self.radius, self.width
        cells = []
        for which, (q, r, rotation) in enumerate(placements_of(triangle)):
            if not (-radius <= q <= radius and -radius <= r <= radius):
                raise ValueError("a legal placement outside the encoding's grid")
            cell = ((q + radius) * width + r + radius) * 6 + rotation
            self.anchors[cell] = (triangle, which)
            cells.append(cell)
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
        self.plane = self.width * self.width
        places = CellPlaces(self.width, self.radius)
        self.cities = [CityPlanes(places) for _ in range(self.players)]
        self.tail = self.players * self.city_size
        """Where the segments after the cities start (the cities come first)."""
        starts = {name: start - self.tail for name, (start, _) in encoding.offsets.items()}
        self.site, self.stones = starts["site"], starts["stones"]
        self.stack_tiles, self.scalars = starts["stack_tiles"], starts["scalars"]
        self.options = starts["options"]
        self.placements = PlacementCells(self.width, self.radius)
        self.block = self.plane * 6
        """Indices per site position."""
        self.tile_starts = np.arange(self.site_size, dtype=np.int64) * self.block
        """The first index of each site position."""
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
        self.site_padding = tuple(
            bytes(16 * (self.site_size - n)) for n in range(self.site_size + 1)
        )
        """The zeros after a site of n tiles, by n."""
        self.site_at = 4 * self.tail
        self.marks_at = self.site_at + 4 * self.stack_tiles
        self.scalars_at = self.site_at + 4 * self.scalars
        self.options_at = self.site_at + 4 * self.options
        self.marks_format = struct.Struct(f"<{len(SITE_ROWS)}f")
        self.stones_format = struct.Struct(f"<{self.players}f")
        self.scalars_format = struct.Struct("<3f")
        self._stacks: tuple[Any, ...] = ()
        self._stack_tiles = [0.0] * len(SITE_ROWS)
        self._options: tuple[Any, bytes] = (None, b"")

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
        players, size, plane = self.players, self.city_size, self.plane
        cities = state.cities
        vector, seen, items = kept.vector, kept.seen, kept.items
        for who, planes in enumerate(self.cities):
            city = cities[who]
            if city is not planes.city or city.tiles != planes.tiles:
                planes.update(city)
            log = planes.log
            generation, done = seen[who]
            if generation == planes.generation and done == len(log):
                continue
            base = (who - seat) % players * size
            if generation != planes.generation:
                vector[base : base + size] = 0.0
                done = 0
            for place, level, kind, tile in log[done:] if done else log:
                place += base
                items[place] = level
                items[place + plane] = kind
                items[place + 2 * plane] = tile
            seen[who] = (planes.generation, len(log))
        # The segments after the cities, each written in place: the site's rows, the
        # stones and scalars packed; the stack marks and options only when they change.
        site, stones, turn, stacks = state.site, state.stones, state.turn, state.stacks
        written = kept.bytes
        written[self.site_at : self.marks_at] = b"".join(
            (
                *map(SITE_BYTES.__getitem__, site),
                self.site_padding[len(site)],
                self.stones_format.pack(*stones[seat:], *stones[:seat]),
            )
        )
        first = stacks[0] if stacks else None
        if kept.stacks is not first or kept.stack_count != len(stacks):
            # A stack is drawn whole and never changed: the same first stack and count
            # are the same stacks (and `kept` holds that stack: no other is it).
            self.marks_format.pack_into(written, self.marks_at, *self.stack_marks(stacks))
            kept.stacks, kept.stack_count = first, len(stacks)
        self.scalars_format.pack_into(
            written, self.scalars_at, len(stacks), turn, (turn % players - seat) % players
        )
        options = state.options
        if kept.options is not options:
            written[self.options_at :] = self.option_bytes(options)
            kept.options = options
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
        block = self.block
        if len(tiles) == 1:
            one: np.ndarray = cells + tiles[0] * block
            return one
        if tiles[-1] == len(tiles) - 1:
            # The affordable positions are the first ones (those costing the stones a
            # seat has, or fewer): their offsets are a slice, without an array made.
            starts = self.tile_starts[: len(tiles)]
        else:
            starts = np.array(tiles, np.int64) * block
        indices: np.ndarray = np.add.outer(starts, cells).ravel()
        return indices

    def legal_position(self, legal: LegalActions, index: int) -> int:
        """Where the action of index `index` is in `legal` (-1: not there), found from
        what the index stands for, without a search through the indices."""
        tile, cell = divmod(index, self.block)
        anchor = self.placements.anchors.get(cell)
        if anchor is None or tile not in legal.tiles:
            return -1
        triangle, which = anchor
        triangles = legal.triangles
        at = bisect_left(triangles, triangle)
        if at == len(triangles) or triangles[at] != triangle:
            return -1
        return (legal.tiles.index(tile) * len(triangles) + at) * 3 + which
