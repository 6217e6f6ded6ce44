"""Architekton's legal actions' indices from the engine's raw legal actions and its
board, without the JSON: the numbers `ArchitektonEncoding.legal_indices` reads from
the observation (board entries by sorted cell code, display slots in display order)."""

from __future__ import annotations

from typing import Any

import numpy as np

from agon_bot.envs.fast.cells import CodeCells, KeptCells
from engine.architekton.actions import LegalActions
from engine.architekton.state import ArchitektonState
from engine.squaregrid import encode


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
        cell = cells.cell
        slots = {tile: n for n, tile in enumerate(state.display_buildings)}
        indices = []
        for raw in legal.raw:
            kind = raw[0]
            if kind == "building":
                at = cell(encode(raw[2], raw[3]))
                indices.append((slots[raw[1]] * cells_count + at) * 4 + raw[4])
            elif kind == "landscape":
                at = cell(encode(raw[2], raw[3]))
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
