"""What the encodings of the games played on cells named by their neighbours share
(Architekton, Megalopolis: see `agon_bot.envs.pointers`): the board list's cells, kept
while the same observation is read, and the vector and legal indices read from the
engine's state by the game's fast reader rather than from its JSON observation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

import numpy as np

from agon_bot.envs.encoding import Encoding
from agon_bot.envs.pointers import Cells

DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""A cell's four neighbours, in the order of the (entry, direction) naming."""


class StateReader(Protocol):
    def legal_indices(self, state: Any, legal: Any) -> np.ndarray: ...


class StateVectors(Protocol):
    def encode(self, state: Any, seat: int) -> np.ndarray: ...


class CellBoardEncoding(Encoding):
    """An encoding whose board entries name its cells; a game's subclass sets `reader`
    and `vectors` (its fast paths), the type of the engine's legal actions they read
    (`legal_type`) and how many entries its board may hold (`capacity`)."""

    legal_type: ClassVar[type]
    capacity: ClassVar[int]
    reader: StateReader
    vectors: StateVectors
    _cells: tuple[Mapping[str, Any], Cells] | None = None

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        return self.vectors.encode(state, seat)

    def state_legal_indices(self, state: Any, legal: Sequence[Any]) -> np.ndarray:
        if isinstance(legal, self.legal_type):
            return self.reader.legal_indices(state, legal)
        return super().state_legal_indices(state, legal)

    def cells(self, observation: Mapping[str, Any]) -> Cells:
        """The cells of `observation`'s board list (made once per observation)."""
        kept = self._cells
        if kept is not None and kept[0] is observation:
            return kept[1]
        positions = ((entry["x"], entry["y"]) for entry in observation["board"])
        cells = Cells(positions, DIRECTIONS, self.capacity)
        self._cells = (observation, cells)
        return cells
