"""Architekton's encodings from the engine's state, without the JSON: the legal
actions' indices from the engine's raw legal actions and its board (entries by sorted
cell code, display slots in display order), and the vector written as the board's
rows packed once each (by cell, tile and rotation) and one list of floats after them
(the whole vector is small: a numpy call per field would cost more)."""

from __future__ import annotations

import itertools
import struct
from typing import Any

import numpy as np

from agon_bot.envs.fast.cells import CodeCells, KeptCells
from engine.architekton.actions import LegalActions
from engine.architekton.components import rotated_edges
from engine.architekton.state import MOVE_HOUSE, REMOVE_HOUSE, ArchitektonState
from engine.squaregrid import decode, encode


class ArchitektonStateReader:
    """`state_legal_indices` of an `ArchitektonEncoding`."""

    def __init__(self, encoding: Any, board: int) -> None:
        self.encoding = encoding
        self.cells_count = board * 4
        self.kept = KeptCells(board)

    def cells(self, state: ArchitektonState) -> CodeCells:
        return self.kept.of(state, state.turn, (*state.landscapes, *state.buildings))

    def legal_indices(self, state: ArchitektonState, legal: LegalActions) -> np.ndarray:
        encoding, cells_count = self.encoding, self.cells_count
        cells = self.cells(state)
        slots = {tile: n for n, tile in enumerate(state.display_buildings)}
        # Many actions share a cell (every tile and rotation offered there).
        named: dict[tuple[int, int], int] = {}
        indices = []
        for raw in legal.raw:
            kind = raw[0]
            if kind == "building" or kind == "landscape":
                xy = raw[2], raw[3]
                at = named.get(xy)
                if at is None:
                    at = named[xy] = cells.cell(encode(*xy))
                if kind == "building":
                    indices.append((slots[raw[1]] * cells_count + at) * 4 + raw[4])
                else:
                    indices.append(encoding.landscape_base + raw[1] * cells_count + at)
            elif kind == "pass":
                indices.append(encoding.pass_index)
            elif kind == "house":
                indices.append(encoding.house_base + cells.entry[encode(raw[1], raw[2])])
            elif kind == "remove_house":
                indices.append(encoding.remove_base + bool(raw[1]))
            else:
                raise ValueError(f"not an Architekton action: {raw}")
        return np.array(indices, dtype=np.int64)


_STATIC_ROWS: dict[tuple[int, int, int], bytes] = {}
"""A board entry's row but its house, packed (11 float32), by (cell code, tile id or
-1 - terrain, rotation)."""
_ROW = struct.Struct("<11f")
_FLOAT = struct.Struct("<f")
_HOUSES = tuple(_FLOAT.pack(float(house)) for house in range(8))
"""A row's last float, the house: 0 none, 1 + the owner's seat from the observer's."""


def static_row(code: int, what: int, rotation: int) -> bytes:
    key = (code, what, rotation)
    row = _STATIC_ROWS.get(key)
    if row is None:
        x, y = decode(code)
        values: tuple[int, ...]
        if what < 0:  # a landscape of terrain -1 - what
            values = (1, x, y, 0, -what, 0, 0, 0, 0, 0, 0)
        else:
            edges = rotated_edges(what, rotation)
            values = (1, x, y, 1, 0, *(1 + e for e in edges), what + 1, rotation)
        row = _STATIC_ROWS[key] = _ROW.pack(*values)
    return row


class KeptVector:
    """One seat's observation vector, kept between its observations, with the board
    rows it holds (the packed bytes last written, and their length)."""

    def __init__(self, size: int) -> None:
        self.vector = np.zeros(size, np.float32)
        self.bytes = memoryview(self.vector.data).cast("B")
        self.board: bytes | None = None
        self.board_bytes = 0


class ArchitektonVectors:
    """`encode_state` of an `ArchitektonEncoding`: the board's packed rows, then the
    other segments written as one list."""

    def __init__(self, encoding: Any, reader: ArchitektonStateReader) -> None:
        self.reader = reader
        self.players = encoding.players
        self.size = encoding.observation_size
        self.at = {name: start for name, (start, _) in encoding.offsets.items()}
        # The board (the first segment) as packed rows, the rest as one list after it.
        board_start, self.rest = encoding.offsets["board"]
        if board_start != 0:
            raise AssertionError("the Architekton board is not the first segment")
        self.at = {name: start - self.rest for name, start in self.at.items()}
        order = [self.at[s.name] for s in encoding.segments[1:]]
        if order != sorted(order):
            raise AssertionError("the Architekton segments are not in the order written")
        self.pack = struct.Struct(f"<{self.size - self.rest}f").pack
        self.stages = {name: n for n, name in enumerate(encoding.stages)}
        shapes = {s.name: s.shape for s in encoding.segments}
        self.building_ids = shapes["unseen_buildings"][0]
        self.terrains = shapes["unseen_landscapes"][0]
        self.no_display = [0] * (shapes["display_buildings"][0] * shapes["display_buildings"][1])
        self.no_pending = (0,) * shapes["pending"][0]
        self.edges: dict[int, tuple[int, ...]] = {}
        """A display tile's row after its id: its edges unturned (1 + terrain index)."""
        self._boards: list[tuple[Any, ...] | None] = [None] * self.players
        """Per seat: (state, cells, houses, its board rows packed) as last written."""
        self._unseen: tuple[Any, list[int]] | None = None

    def board_bytes(self, state: ArchitektonState, cells: CodeCells, seat: int) -> bytes:
        """The board segment's rows in use as `seat` sees them, packed; kept while the
        state's board covers the same cells (a tile, once placed, never moves or leaves)
        and its houses are the same."""
        houses = state.houses
        kept = self._boards[seat]
        if kept is not None and kept[0] is state and kept[1] is cells and kept[2] == houses:
            packed: bytes = kept[3]
            return packed
        players = self.players
        landscapes, buildings = state.landscapes, state.buildings
        rows: list[bytes] = []
        add = rows.append
        none = _HOUSES[0]
        for code in cells.codes:
            terrain = landscapes.get(code)
            if terrain is not None:
                add(static_row(code, -1 - terrain, 0))
                add(none)
                continue
            tile, rotation = buildings[code]
            add(static_row(code, tile, rotation))
            owner = houses.get(code)
            add(none if owner is None else _HOUSES[1 + (owner - seat) % players])
        board = b"".join(rows)
        self._boards[seat] = (state, cells, dict(houses), board)
        return board

    def unseen(self, state: ArchitektonState) -> list[int]:
        """The unseen_buildings and unseen_landscapes segments, kept while the piles and
        the reserves are the same."""
        key = (
            state.building_pile,
            state.reserve_buildings,
            state.landscape_pile,
            state.reserve_landscapes,
        )
        kept = self._unseen
        if kept is not None and kept[0] == key:
            return kept[1]
        buildings = [0] * self.building_ids
        for tile in itertools.chain(state.building_pile, state.reserve_buildings):
            buildings[tile] = 1
        landscapes = [0] * self.terrains
        for terrain in itertools.chain(state.landscape_pile, state.reserve_landscapes):
            landscapes[terrain] += 1
        values = buildings + landscapes
        self._unseen = (tuple(list(part) for part in key), values)
        return values

    def vector_buffer(self) -> KeptVector:
        return KeptVector(self.size)

    def encode(self, state: ArchitektonState, seat: int) -> np.ndarray:
        return self.encode_into(state, seat, self.vector_buffer()).copy()

    def encode_into(self, state: ArchitektonState, seat: int, kept: KeptVector) -> np.ndarray:
        """`seat`'s vector, written into `kept`'s: the board's rows (kept while the board
        and its houses are the same), the rest as one packed list."""
        players = self.players
        cells = self.reader.cells(state)
        board = self.board_bytes(state, cells, seat)
        display: list[int] = []
        edges = self.edges
        for tile in state.display_buildings:
            row = edges.get(tile)
            if row is None:
                row = edges[tile] = (tile + 1, *(1 + e for e in rotated_edges(tile, 0)))
            display += row
        display += self.no_display[len(display) :]
        display_landscapes = [0] * self.terrains
        for terrain in state.display_landscapes:
            display_landscapes[terrain] += 1
        seats: list[int] = []
        points, supply, removed, taken = (
            state.points,
            state.supply,
            state.removed,
            state.turns_taken,
        )
        for rank in range(players):
            who = (seat + rank) % players
            seats += (points[who], supply[who], removed[who], taken[who])
        pending, loser = state.pending, state.loser
        current = pending[0].player if pending else state.turn_player
        decision: Any = self.no_pending
        if pending:
            first = pending[0]
            where = cells.entry.get(first.cell)
            decision = (
                1 if first.kind == MOVE_HOUSE else 2,
                (first.player - seat) % players,
                0 if where is None else where + 1,
                first.loss if first.kind == REMOVE_HOUSE else 0,
                0,
            )
        rest = self.pack(
            *display,
            *display_landscapes,
            *seats,
            *self.unseen(state),
            state.turn,
            (current - seat) % players,
            (state.turn_player - seat) % players,
            self.stages[state.stage],
            state.placed_this_turn,
            state.idle_turns,
            0 if loser is None else 1 + (loser - seat) % players,
            len(state.building_pile),
            len(state.landscape_pile),
            len(state.reserve_buildings),
            len(state.reserve_landscapes),
            len(pending),
            *decision,
        )
        written, kept_bytes = len(board), kept.bytes
        if kept.board is not board:
            kept_bytes[:written] = board
            if kept.board_bytes > written:
                kept_bytes[written : kept.board_bytes] = bytes(kept.board_bytes - written)
            kept.board, kept.board_bytes = board, written
        kept_bytes[4 * self.rest :] = rest
        return kept.vector
