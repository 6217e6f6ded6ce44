"""Attika's encodings from the engine's state: the map's part of the vector (hexes and
tiles) kept while the map and the buildings on it are the same, the rest written from
the state's few numbers; the legal actions' indices from the engine's build options
(cells as codes) and tile placements, without their JSON.

The map changes only by a tile laid (`state.tiles` grows) and the buildings on it only
by a building built (the index's `owner_at` grows; none is ever removed), so the kept
part is keyed by the tiles and by the `owner_at` dict and its size.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.attika.actions import LegalActions, TilePlacements
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS, decode, encode

PENDING_KINDS = {"drawn": 1, "pay": 2, "tile": 3}
"""`attika.PENDING`'s index of each kind."""
WIN_REASON = {None: 0, "all_buildings": 1, "shrines": 2}


def players_width(encoding: Any) -> int:
    """The size of the seats segment."""
    start, end = encoding.offsets["seats"]
    return int(end - start)


MAP_VERSIONS = itertools.count()
"""Versions of the kept maps, never reused (the map of any reader, any match)."""


class KeptVector:
    """One seat's observation vector, kept between its observations: the version of
    the map it holds (-1: none), the seat it was written for, and how far into the
    map's logged writes it is."""

    def __init__(self, size: int) -> None:
        self.vector = np.zeros(size, np.float32)
        self.bytes = memoryview(self.vector.data).cast("B")
        self.items = memoryview(self.vector.data)
        self.map_version = -1
        self.seat = -1
        self.writes = self.owner_writes = 0
        """How many of the map's logged writes this vector holds."""


class MapNames:
    """`attika.MapHexes` of a state's tiles, by cell code: code -> slot * 7 + k; grown
    tile by tile as the map grows."""

    def __init__(self, map_hexes: Any) -> None:
        self.map_hexes = map_hexes
        self.tiles: tuple[tuple[int, int, int, int], ...] = ()
        self.names: dict[int, int] = {}
        self._hexes: Any = None
        self._extends: dict[int, tuple[int, int]] = {}

    def grow(self, tiles: Sequence[tuple[int, int, int, int]]) -> list[int]:
        """Name the cells of the tiles after those known; returns the newly named."""
        named = []
        names = self.names
        for slot in range(len(self.tiles), len(tiles)):
            _, q, r, _ = tiles[slot]
            centre = encode(q, r)
            for k, step in enumerate((0, *NEIGHBOUR_STEPS)):
                if centre + step not in names:
                    names[centre + step] = slot * 7 + k
                    named.append(centre + step)
        self.tiles = tuple(tiles)
        # An extend is named by the first tile (in slot order) within reach: a tile
        # laid after cannot change a name found, so the names found are kept.
        self._hexes = None
        return named

    def extend(self, centre: int) -> tuple[int, int]:
        found = self._extends.get(centre)
        if found is None:
            if self._hexes is None:
                # `extend` as the JSON encoding names it.
                self._hexes = self.map_hexes([{"q": q, "r": r} for _, q, r, _ in self.tiles])
            found = self._extends[centre] = self._hexes.extend(*decode(centre))
        return found


class AttikaStateReader:
    """`encode_state` and `state_legal_indices` of an `AttikaEncoding`."""

    def __init__(self, encoding: Any) -> None:
        # The JSON encoding's module (imported here: it imports this one).
        from agon_bot.envs import attika

        self.encoding = encoding
        self.map_hexes = attika.MapHexes
        self.offsets_count = len(attika.OFFSETS)
        self.hexes_count = attika.HEXES
        self.building_index = attika.BUILDING
        self.most_cards = attika.CARDS
        """Cards of one landscape in the game: the most a payment counts."""
        if attika.LANDSCAPES != ("mountain", "hill", "forest", "water"):
            raise AssertionError("the payment index is written for these landscapes")
        self.players = encoding.players
        self.size = encoding.observation_size
        self.slices = {name: slice(start, end) for name, (start, end) in encoding.offsets.items()}
        self.segment_shapes = {s.name: s.shape for s in encoding.segments}
        rest = self.slices["shrines"].start
        if (
            self.slices["hexes"].start != 0
            or self.slices["tiles"].start != (self.slices["hexes"].stop)
            or rest != self.slices["tiles"].stop
        ):
            raise AssertionError("the Attika segments are not in the order written")
        # Where each segment after the map starts, counted from the first of them.
        self.unplaced = self.slices["unplaced_tiles"].start - rest
        self.cards = self.slices["cards"].start - rest
        self.board = self.slices["board"].start - rest
        self.seats = self.slices["seats"].start - rest
        self.seat_width = self.segment_shapes["seats"][1]
        self.scalars = self.slices["scalars"].start - rest
        self.pending = self.slices["pending"].start - rest
        if self.seats + players_width(encoding) != self.scalars:
            raise AssertionError("the Attika seats are not where they are written")
        self.head_pack = struct.Struct(f"<{self.seats}f").pack
        self.seat_pack = struct.Struct(f"<{self.seat_width}f").pack
        self.tail_pack = struct.Struct(f"<{self.size - self.slices['scalars'].start}f").pack
        self._unplaced: tuple[list[int], list[int]] | None = None
        self._seat_blocks: list[tuple[Any, bytes] | None] = [None] * self.players
        self._names = MapNames(self.map_hexes)
        self.tiles_start = self.slices["tiles"].start
        self._map = np.zeros(self.slices["tiles"].stop, np.float32)
        self._map_names: MapNames | None = None
        self._owner_at: Any = None
        self._map_tiles = self._map_buildings = self._named = 0
        self._map_items = memoryview(self._map.data)
        self._writes: list[tuple[int, int]] = []
        """(position, value) of every value written into the map but the owners."""
        self._owner_writes: list[tuple[int, int]] = []
        """(position, owner's seat) of every building's owner written."""
        self._map_version = next(MAP_VERSIONS)
        """Changes whenever the kept map does: a seat's kept vector holding this
        version holds the map as it is."""

    def names(self, state: AttikaState) -> MapNames:
        tiles, kept = tuple(state.tiles), self._names
        known = kept.tiles
        if tiles != known:
            if tiles[: len(known)] != known:
                kept = self._names = MapNames(self.map_hexes)
            kept.grow(tiles)
        return kept

    def map_part(self, state: AttikaState) -> np.ndarray:
        """The hexes and tiles segments with absolute seats (1 + seat) as owners, kept
        up to date tile by tile and building by building; every value written is also
        logged (`_writes`, `_owner_writes`), so that a seat's kept vector copies only
        those written since it was last brought up to date."""
        index = state.caches.index
        owner_at = index.owner_at
        tiles = state.tiles
        names = self.names(state)
        if names is not self._map_names or owner_at is not self._owner_at:
            self._map_version = next(MAP_VERSIONS)
            self._map_names, self._owner_at = names, owner_at
            self._map[:] = 0
            self._writes = []
            self._owner_writes = []
            self._map_tiles = self._map_buildings = 0
            self._named = 0
        if self._map_tiles < len(tiles):
            self.add_tiles(state, names)
        if self._map_buildings < len(owner_at):
            self.add_buildings(state, names)
        return self._map

    def add_tiles(self, state: AttikaState, map_names: MapNames) -> None:
        symbol_at = state.caches.index.symbol_at
        names = map_names.names
        items, writes = self._map_items, self._writes
        for cell in itertools.islice(names, self._named, None):
            q, r = decode(cell)
            symbol = symbol_at[cell]
            at = 6 * names[cell]
            for offset, value in enumerate((1, q, r, 0 if symbol < 0 else 1 + symbol)):
                items[at + offset] = value
                writes.append((at + offset, value))
        self._named = len(names)
        for slot in range(self._map_tiles, len(state.tiles)):
            tile, q, r, rotation = state.tiles[slot]
            at = self.tiles_start + 5 * slot
            for offset, value in enumerate((1, tile + 1, q, r, rotation)):
                items[at + offset] = value
                writes.append((at + offset, value))
        self._map_tiles = len(state.tiles)

    def add_buildings(self, state: AttikaState, map_names: MapNames) -> None:
        """The buildings built since: the last entries of `owner_at` (a dict keeps its
        order, and no building ever leaves the map)."""
        index = state.caches.index
        owner_at, building_at = index.owner_at, index.building_at
        names = map_names.names
        items = self._map_items
        for cell, owner in itertools.islice(owner_at.items(), self._map_buildings, None):
            at = 6 * names[cell] + 4
            items[at] = 1 + owner
            self._owner_writes.append((at, owner))
            items[at + 1] = 1 + building_at[cell]
            self._writes.append((at + 1, 1 + building_at[cell]))
        self._map_buildings = len(owner_at)

    def vector_buffer(self) -> KeptVector:
        return KeptVector(self.size)

    def encode(self, state: AttikaState, seat: int) -> np.ndarray:
        return self.encode_into(state, seat, self.vector_buffer()).copy()

    def encode_into(self, state: AttikaState, seat: int, kept: KeptVector) -> np.ndarray:
        """`seat`'s vector, written into `kept`'s: the map only when it changed since
        `kept` was written (or `kept` was another seat's), the rest each time."""
        players = self.players
        vector = kept.vector
        map_part = self.map_part(state)
        end = len(map_part)
        items = kept.items
        if kept.map_version != self._map_version or kept.seat != seat:
            # Another match's map, or another seat's vector: the map whole.
            vector[:end] = map_part
            kept.map_version, kept.seat = self._map_version, seat
            kept.writes = len(self._writes)
            kept.owner_writes = 0
        elif kept.writes < len(self._writes):
            for at, value in itertools.islice(self._writes, kept.writes, None):
                items[at] = value
            kept.writes = len(self._writes)
        if kept.owner_writes < len(self._owner_writes):
            for at, owner in itertools.islice(self._owner_writes, kept.owner_writes, None):
                items[at] = 1 + (owner - seat) % players
            kept.owner_writes = len(self._owner_writes)
        # The rest, small, as packed runs written at once (a numpy call per field would
        # cost more than the fields): the segments before the seats, the seats' blocks
        # (each kept while that seat's numbers are the same), the segments after them.
        head = [0.0] * self.seats
        for n, cell in enumerate(state.shrines):
            q, r = decode(cell)
            head[3 * n : 3 * n + 3] = (1, q, r)
        head[self.unplaced : self.cards] = self.unplaced_marks(state.tile_pile)
        mine = state.seats[seat]
        at = self.cards
        head[at : at + 10] = (*mine.hand, *state.discard, len(state.deck), state.amphora_supply)
        at = self.board
        for building in mine.board:
            head[at + building] = 1
        colonies = state.caches.index.colonies
        blocks = [self.head_pack(*head)]
        for rank in range(players):
            who = (seat + rank) % players
            blocks.append(self.seat_block(state.seats[who], colonies[who], who))
        winner = state.winner
        tail = [0.0] * (self.size - self.slices["scalars"].start)
        tail[0:10] = (
            state.turn,
            (state.current - seat) % players,
            state.over,
            0 if winner is None else 1 + (winner - seat) % players,
            WIN_REASON[state.win_reason],
            state.mode,
            state.actions_left,
            state.took_cards,
            state.acted,
            state.passes,
        )
        pending = state.pending
        if pending is not None:
            kind = pending.kind
            shown = kind == "pay" or (kind == "drawn" and state.current == seat)
            at = self.pending - self.scalars
            tail[at : at + 7] = (
                PENDING_KINDS[kind],
                1 + pending.building if shown else 0,
                1 + self.names(state).names[pending.cell] if kind == "pay" else 0,
                pending.extend if kind in ("drawn", "pay") else False,
                pending.from_draw if kind == "pay" else False,
                1 + pending.stack if kind == "drawn" else 0,
                1 + pending.tile if kind == "tile" else 0,
            )
        blocks.append(self.tail_pack(*tail))
        kept.bytes[4 * end :] = b"".join(blocks)
        return vector

    def unplaced_marks(self, pile: list[int]) -> list[int]:
        """The unplaced_tiles segment, kept while the pile is the same."""
        kept = self._unplaced
        if kept is not None and kept[0] == pile:
            return kept[1]
        marks = [0] * (self.cards - self.unplaced)
        for tile in pile:
            marks[tile] = 1
        self._unplaced = (list(pile), marks)
        return marks

    def seat_block(self, other: Any, colonies: int, who: int) -> bytes:
        """A seat's row of the seats segment, packed; kept while its numbers are the
        same (a turn changes one seat's, mostly)."""
        key = (
            sum(other.hand),
            other.amphorae,
            len(other.placed),
            colonies,
            tuple(other.board),
            tuple(map(len, other.stacks)),
            tuple(other.amphora_groups),
        )
        kept = self._seat_blocks[who]
        if kept is not None and kept[0] == key:
            packed: bytes = kept[1]
            return packed
        width = self.seat_width
        row = [0] * width
        row[0:5] = (key[0], len(other.board), key[1], key[2], colonies)
        for building in other.board:
            row[6 + building] = 1
        row[36:40] = key[5]
        for group in other.amphora_groups:
            row[40 + group] = 1
        packed = self.seat_pack(*row)
        self._seat_blocks[who] = (key, packed)
        return packed

    def legal_indices(self, state: AttikaState, legal: LegalActions) -> np.ndarray:
        encoding = self.encoding
        names = self.names(state)
        others = legal.others
        if type(others) is TilePlacements:
            rotations = np.asarray(others.rotations, np.int64)
            slots = np.array(
                [
                    encoding.extend_base + 6 * (slot * self.offsets_count + offset)
                    for slot, offset in map(names.extend, others.centres)
                ],
                dtype=np.int64,
            )
            first = np.add.outer(slots, rotations).ravel()
        elif not legal.builds:
            return np.array([self.other_index(action, names) for action in others], np.int64)
        else:
            # A turn offers a few dozen actions: Python ints, one array at the end (a
            # numpy call costs more than a few dozen additions).
            indices = [self.other_index(action, names) for action in others]
            cell_names = names.names
            base, hexes = encoding.build_base, self.hexes_count
            # Runs of buildings offered the same cells (the same list) share one lookup.
            for _, grouped in itertools.groupby(legal.builds, key=lambda option: id(option[1])):
                run = list(grouped)
                named = list(map(cell_names.__getitem__, run[0][1]))
                for building, _ in run:
                    start = base + hexes * building
                    indices += [start + name for name in named]
            return np.array(indices, np.int64)
        if not legal.builds:
            return first
        cell_names = names.names
        base, hexes = encoding.build_base, self.hexes_count
        parts = [first]
        for _, grouped in itertools.groupby(legal.builds, key=lambda option: id(option[1])):
            run = list(grouped)
            named_array = np.fromiter(map(cell_names.__getitem__, run[0][1]), np.int64)
            starts = base + hexes * np.array([building for building, _ in run], dtype=np.int64)
            parts.append(np.add.outer(starts, named_array).ravel())
        return np.concatenate(parts)

    def other_index(self, action: dict[str, Any], names: MapNames) -> int:
        """A non-build action's index (these need no hex name, or the map's)."""
        kind = action["type"]
        encoding = self.encoding
        if kind == "pay":
            # A turn may offer hundreds of payments: their index written out.
            cards = action["cards"]
            m, h, f, w = cards["mountain"], cards["hill"], cards["forest"], cards["water"]
            if len(cards) == 4 and min(m, h, f, w) >= 0 and max(m, h, f, w) <= self.most_cards:
                return int(encoding.pay_base + ((m * 16 + h) * 16 + f) * 16 + w)
        if kind == "extend":
            slot, offset = names.extend(encode(action["q"], action["r"]))
            return int(
                encoding.extend_base
                + (slot * self.offsets_count + offset) * 6
                + int(action["rotation"])
            )
        if kind == "build":
            at = names.names[encode(action["q"], action["r"])]
            return int(
                encoding.build_base
                + self.building_index[action["building"]] * self.hexes_count
                + at
            )
        index: int = encoding.encode_action(action, {})
        return index
