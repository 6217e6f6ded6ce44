"""`pointers.Cells` keyed by the engine's square-grid cell codes: the board entries in
the observation's order (sorted by x, then y: the codes' order) and the (i, d) name of
each empty cell next to them, read from the state without the JSON."""

from __future__ import annotations

from collections.abc import Iterable

from engine.squaregrid import NEIGHBOUR_STEPS


class CodeCells:
    """Entry index by cell code, and `pointers.Cells.cell` by code."""

    def __init__(self, codes: Iterable[int], capacity: int) -> None:
        self.codes = sorted(codes)
        if len(self.codes) > capacity:
            raise ValueError(f"{len(self.codes)} board entries, more than {capacity}")
        self.entry = {code: i for i, code in enumerate(self.codes)}
        self._named: dict[int, int] = {}

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
    (the engine counts every action applied in `turn`; the board changes only then)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._state: object = None
        self._turn = -1
        self._cells: CodeCells | None = None

    def of(self, state: object, turn: int, codes: Iterable[int]) -> CodeCells:
        cells = self._cells
        if cells is None or state is not self._state or turn != self._turn:
            cells = self._cells = CodeCells(codes, self.capacity)
            self._state, self._turn = state, turn
        return cells
