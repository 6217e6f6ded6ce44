"""Cells named by the board entries next to them: what makes a city that may grow in any
direction fit a fixed action space exactly.

A game whose every placement goes next to something already on the table (Architekton,
Megalopolis: an edge shared with a tile on the board) names the empty cell `c` by
(i, d): `c` is the neighbour in direction `d` of entry `i` of the observation's board
list, `i` the first entry next to `c`. The board holds at most as many entries as the
game has tiles, so `entries x directions` indices name every cell a rule can offer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class Cells:
    """The cells of one board list: entry index by position, and the (i, d) naming."""

    def __init__(
        self,
        positions: Iterable[tuple[int, int]],
        directions: Sequence[tuple[int, int]],
        capacity: int,
    ) -> None:
        self.positions = list(positions)
        if len(self.positions) > capacity:
            raise ValueError(f"{len(self.positions)} board entries, more than {capacity}")
        self.index = {position: i for i, position in enumerate(self.positions)}
        self.directions = directions
        self.capacity = capacity
        self._named: dict[tuple[int, int], int] = {}

    def entry(self, x: int, y: int) -> int:
        """The index of the entry on (x, y); ValueError if none is there."""
        found = self.index.get((x, y))
        if found is None:
            raise ValueError(f"no board entry on ({x}, {y})")
        return found

    def cell(self, x: int, y: int) -> int:
        """The cell (x, y) as i * directions + d; ValueError if no entry is next to it."""
        named = self._named.get((x, y))
        if named is not None:
            return named
        best = None
        for d, (dx, dy) in enumerate(self.directions):
            # The entry whose neighbour in direction d is (x, y) lies at (x, y) - D[d].
            i = self.index.get((x - dx, y - dy))
            if i is not None and (best is None or i < best[0]):
                best = (i, d)
        if best is None:
            raise ValueError(f"({x}, {y}) is next to no board entry")
        named = self._named[x, y] = best[0] * len(self.directions) + best[1]
        return named

    def position(self, cell: int) -> tuple[int, int]:
        i, d = divmod(cell, len(self.directions))
        x, y = self.positions[i]
        dx, dy = self.directions[d]
        return x + dx, y + dy

    def is_canonical(self, cell: int) -> bool:
        """Whether `cell` is the naming `cell()` gives (another (i, d) may reach the same
        cell; only the first is used)."""
        i, _ = divmod(cell, len(self.directions))
        return i < len(self.positions) and self.cell(*self.position(cell)) == cell
