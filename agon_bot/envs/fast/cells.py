"""`pointers.Cells` keyed by the engine's square-grid cell codes: the board entries in
the observation's order (sorted by x, then y: the codes' order) and the (i, d) name of
each empty cell next to them, read from the state without the JSON."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from engine.squaregrid import NEIGHBOUR_STEPS

BY_CODE = tuple(sorted(((step, d) for d, step in enumerate(NEIGHBOUR_STEPS)), reverse=True))
"""(step, direction) of each direction, the entry `code - step` (whose neighbour in that
direction is `code`) from the lowest code to the highest."""


class CodeCells:
    """Entry index by cell code, and `pointers.Cells.cell` by code."""

    def __init__(self, codes: Iterable[int], capacity: int) -> None:
        self.codes = sorted(codes)
        if len(self.codes) > capacity:
            raise ValueError(f"{len(self.codes)} board entries, more than {capacity}")
        self.entry = dict(zip(self.codes, range(len(self.codes)), strict=True))
        self._named: dict[int, int] = {}
        self._arrays: dict[tuple[int, ...], np.ndarray] = {}

    def cells_array(self, codes: tuple[int, ...]) -> np.ndarray:
        """`cells` as an array, kept by the codes asked for: the open spaces of a board
        are asked for turn after turn while it covers the same cells. Read only."""
        found = self._arrays.get(codes)
        if found is None:
            found = self._arrays[codes] = np.array(self.cells(codes), dtype=np.int64)
            found.flags.writeable = False
        return found

    def cells(self, codes: Sequence[int]) -> list[int]:
        """`cell` of each code, in bulk. The entry named is the lowest next to the cell:
        entries are in code order, so it is the neighbour of lowest code, and the
        neighbours are tried in that order (west, south, north, east: `BY_CODE`)."""
        get = self.entry.get
        (west, d_west), (south, d_south), (north, d_north), (east, d_east) = BY_CODE
        named: list[int] = []
        add = named.append
        for code in codes:
            i = get(code - west)
            if i is not None:
                add(i * 4 + d_west)
                continue
            i = get(code - south)
            if i is not None:
                add(i * 4 + d_south)
                continue
            i = get(code - north)
            if i is not None:
                add(i * 4 + d_north)
                continue
            i = get(code - east)
            if i is None:
                raise KeyError(code)
            add(i * 4 + d_east)
        return named

    def cell(self, code: int) -> int:
        """The empty cell `code` as i * 4 + d; KeyError if no entry is next to it."""
        named = self._named.get(code)
        if named is not None:
            return named
        best = None
        entry = self.entry
        for d, step in enumerate(NEIGHBOUR_STEPS):
            i = entry.get(code - step)
            if i is not None and (best is None or i < best[0]):
                best = (i, d)
        if best is None:
            raise KeyError(code)
        named = self._named[code] = best[0] * len(NEIGHBOUR_STEPS) + best[1]
        return named


class KeptCells:
    """The `CodeCells` of a state's board, kept while the state is at the same turn
    (the engine counts every action applied in `turn`; the board changes only then) or
    its board covers the same cells."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._state: object = None
        self._turn = -1
        self._cells: CodeCells | None = None
        self._keys: set[int] = set()

    def of(self, state: object, turn: int, codes: Iterable[int]) -> CodeCells:
        cells = self._cells
        if cells is not None and state is self._state and turn == self._turn:
            return cells
        keys = set(codes)
        if cells is None or keys != self._keys:
            # The same cells hold tiles (a turn that changed only tokens or faces):
            # the same entries and names.
            cells = self._cells = CodeCells(keys, self.capacity)
            self._keys = keys
        self._state, self._turn = state, turn
        return cells
