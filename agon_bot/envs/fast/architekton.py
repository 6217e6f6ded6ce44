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
        self.pack = struct.Struct(f"<{self.size - self.rest}f").pack
        self.stages = {name: n for n, name in enumerate(encoding.stages)}

    def encode(self, state: ArchitektonState, seat: int) -> np.ndarray:
        players, at = self.players, self.at
        values = [0.0] * (self.size - self.rest)
        cells = self.reader.cells(state)
        landscapes, buildings, houses = state.landscapes, state.buildings, state.houses
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
        start = at["display_buildings"]
        for n, tile in enumerate(state.display_buildings):
            values[start + 5 * n : start + 5 * n + 5] = (
                tile + 1,
                *(1 + e for e in rotated_edges(tile, 0)),
            )
        start = at["display_landscapes"]
        for terrain in state.display_landscapes:
            values[start + terrain] += 1
        start = at["seats"]
        for rank in range(players):
            who = (seat + rank) % players
            values[start + 4 * rank : start + 4 * rank + 4] = (
                state.points[who],
                state.supply[who],
                state.removed[who],
                state.turns_taken[who],
            )
        start = at["unseen_buildings"]
        for tile in itertools.chain(state.building_pile, state.reserve_buildings):
            values[start + tile] = 1
        start = at["unseen_landscapes"]
        for terrain in itertools.chain(state.landscape_pile, state.reserve_landscapes):
            values[start + terrain] += 1
        pending, loser = state.pending, state.loser
        current = pending[0].player if pending else state.turn_player
        start = at["scalars"]
        values[start : start + 12] = (
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
        )
        if pending:
            decision = pending[0]
            where = cells.entry.get(decision.cell)
            start = at["pending"]
            values[start : start + 4] = (
                1 if decision.kind == MOVE_HOUSE else 2,
                (decision.player - seat) % players,
                0 if where is None else where + 1,
                decision.loss if decision.kind == REMOVE_HOUSE else 0,
            )
        vector = np.zeros(self.size, np.float32)
        vector[: len(board) // 4] = np.frombuffer(board, np.float32)
        vector[self.rest :] = np.frombuffer(self.pack(*values), np.float32)
        return vector
