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
        self._hexes = None
        self._extends = {}
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
        self.rest = struct.Struct(f"<{self.size - rest}f")
        self._names = MapNames(self.map_hexes)
        self.tiles_start = self.slices["tiles"].start
        self._map = np.zeros(self.slices["tiles"].stop, np.float32)
        self._map_names: MapNames | None = None
        self._owner_at: Any = None
        self._map_tiles = self._map_buildings = self._named = 0
        self._owners = np.zeros(0, np.int64)
        self._owner_rows = np.zeros(0, np.int64)

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
        up to date tile by tile and building by building."""
        index = state.caches.index
        owner_at = index.owner_at
        tiles = state.tiles
        names = self.names(state)
        if names is not self._map_names or owner_at is not self._owner_at:
            self._map_names, self._owner_at = names, owner_at
            self._map[:] = 0
            self._owner_rows = np.zeros(0, np.int64)
            self._owners = np.zeros(0, np.int64)
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
        hexes = self._map[: self.tiles_start].reshape(-1, 6)
        for cell in itertools.islice(names, self._named, None):
            q, r = decode(cell)
            symbol = symbol_at[cell]
            hexes[names[cell], :4] = (1, q, r, 0 if symbol < 0 else 1 + symbol)
        self._named = len(names)
        rows = self._map[self.tiles_start :].reshape(-1, 5)
        for slot in range(self._map_tiles, len(state.tiles)):
            tile, q, r, rotation = state.tiles[slot]
            rows[slot] = (1, tile + 1, q, r, rotation)
        self._map_tiles = len(state.tiles)

    def add_buildings(self, state: AttikaState, map_names: MapNames) -> None:
        """The buildings built since: the last entries of `owner_at` (a dict keeps its
        order, and no building ever leaves the map)."""
        index = state.caches.index
        owner_at, building_at = index.owner_at, index.building_at
        names = map_names.names
        new = list(itertools.islice(owner_at.items(), self._map_buildings, None))
        rows = np.array([6 * names[cell] + 4 for cell, _ in new], dtype=np.int64)
        owners = np.array([owner for _, owner in new], dtype=np.int64)
        self._map[rows] = 1 + owners
        self._map[rows + 1] = [1 + building_at[cell] for cell, _ in new]
        self._owner_rows = np.concatenate([self._owner_rows, rows])
        self._owners = np.concatenate([self._owners, owners])
        self._map_buildings = len(owner_at)

    def encode(self, state: AttikaState, seat: int) -> np.ndarray:
        players = self.players
        vector = np.empty(self.size, np.float32)
        map_part = self.map_part(state)
        end = len(map_part)
        vector[:end] = map_part
        if len(self._owners):
            vector[self._owner_rows] = 1 + (self._owners - seat) % players
        # The rest, small, as one list written at once (a numpy call per field would
        # cost more than the fields).
        rest = [0.0] * (self.size - end)
        for n, cell in enumerate(state.shrines):
            q, r = decode(cell)
            rest[3 * n : 3 * n + 3] = (1, q, r)
        at = self.unplaced
        for tile in state.tile_pile:
            rest[at + tile] = 1
        mine = state.seats[seat]
        at = self.cards
        rest[at : at + 10] = (*mine.hand, *state.discard, len(state.deck), state.amphora_supply)
        at = self.board
        for building in mine.board:
            rest[at + building] = 1
        colonies = state.caches.index.colonies
        width = self.seat_width
        for rank in range(players):
            who = (seat + rank) % players
            other = state.seats[who]
            at = self.seats + rank * width
            rest[at : at + 5] = (
                sum(other.hand),
                len(other.board),
                other.amphorae,
                len(other.placed),
                colonies[who],
            )
            for building in other.board:
                rest[at + 6 + building] = 1
            rest[at + 36 : at + 40] = [len(stack) for stack in other.stacks]
            for group in other.amphora_groups:
                rest[at + 40 + group] = 1
        winner = state.winner
        at = self.scalars
        rest[at : at + 10] = (
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
            at = self.pending
            rest[at : at + 7] = (
                PENDING_KINDS[kind],
                1 + pending.building if shown else 0,
                1 + self.names(state).names[pending.cell] if kind == "pay" else 0,
                pending.extend if kind in ("drawn", "pay") else False,
                pending.from_draw if kind == "pay" else False,
                1 + pending.stack if kind == "drawn" else 0,
                1 + pending.tile if kind == "tile" else 0,
            )
        vector[end:] = np.frombuffer(self.rest.pack(*rest), np.float32)
        return vector

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
        else:
            first = np.array([self.other_index(action, names) for action in others], dtype=np.int64)
        if not legal.builds:
            return first
        cell_names = names.names
        base, hexes = encoding.build_base, self.hexes_count
        parts = [first]
        # Runs of buildings offered the same cells (the same list) share one lookup.
        for _, grouped in itertools.groupby(legal.builds, key=lambda option: id(option[1])):
            run = list(grouped)
            named = np.fromiter(map(cell_names.__getitem__, run[0][1]), np.int64)
            starts = base + hexes * np.array([building for building, _ in run], dtype=np.int64)
            parts.append(np.add.outer(starts, named).ravel())
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
