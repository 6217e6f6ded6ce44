"""One player's city: the visible hex on each occupied cell, and where a tile may go.

The legal triangles are cached as a sorted list and updated around each placement,
so a turn costs a few dozen local checks instead of a scan of the whole city.
`scan_legal_triangles` is the plain full scan, kept as the oracle for tests.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from engine.akropolis.components import PLAZA, QUARRY, STARS_OF_CODE
from engine.akropolis.geometry import (
    NEARBY_TRIANGLES,
    RING,
    STEP,
    TRIANGLE_CELLS,
    TRIANGLES_OF_CELL,
)
from engine.hexgrid import encode

Hex = tuple[int, int, int]
"""The visible hex on a cell: (level, hex code, plaza stars or 0)."""

STARTING_TILE_UID = 0


class City:
    __slots__ = ("_legal", "_legal_set", "tile_at", "tiles", "top")

    def __init__(self) -> None:
        self.top: dict[int, Hex] = {}
        self.tile_at: dict[int, int] = {}
        """Which tile (0 for the starting tile, else its id) shows on each cell."""
        self.tiles = 0
        """Tiles placed, the starting tile included."""
        self._legal: list[int] | None = None
        self._legal_set: set[int] = set()

    @classmethod
    def starting(cls) -> City:
        city = cls()
        centre = encode(0, 0)
        plaza = PLAZA["house"]
        city._set(centre, (1, plaza, STARS_OF_CODE[plaza]), STARTING_TILE_UID)
        for step in STEP[0::2]:
            city._set(centre + step, (1, QUARRY, 0), STARTING_TILE_UID)
        city.tiles = 1
        return city

    def copy(self) -> City:
        twin = City()
        twin.top = dict(self.top)
        twin.tile_at = dict(self.tile_at)
        twin.tiles = self.tiles
        if self._legal is not None:
            twin._legal = list(self._legal)
            twin._legal_set = set(self._legal_set)
        return twin

    def _set(self, cell: int, hex_: Hex, tile_uid: int) -> None:
        self.top[cell] = hex_
        self.tile_at[cell] = tile_uid

    def is_legal(self, triangle: int) -> bool:
        """Whether a tile may cover this triangle (the rules' level-1 and level-up tests)."""
        y, kind = divmod(triangle, 2)
        oa, ob, oc = TRIANGLE_CELLS[kind]
        top = self.top
        a = top.get(y + oa)
        b = top.get(y + ob)
        c = top.get(y + oc)
        if a is None:
            if b is not None or c is not None:
                return False
            return any(y + offset in top for offset in RING[kind])
        if b is None or c is None or not a[0] == b[0] == c[0]:
            return False
        tile_at = self.tile_at
        return not tile_at[y + oa] == tile_at[y + ob] == tile_at[y + oc]

    def place(
        self, triangle: int, cells: tuple[int, int, int], codes: tuple[int, ...], uid: int
    ) -> int:
        """Put a tile's hexes (codes) on the cells of a legal triangle; returns quarries covered."""
        top = self.top
        below = top.get(cells[0])
        level = 1 if below is None else below[0] + 1
        quarries = 0
        for cell, code in zip(cells, codes, strict=True):
            old = top.get(cell)
            if old is not None and old[1] == QUARRY:
                quarries += 1
            top[cell] = (level, code, STARS_OF_CODE[code])
            self.tile_at[cell] = uid
        self.tiles += 1
        if self._legal is not None:
            self._update_legal(triangle)
        return quarries

    def legal_triangles(self) -> list[int]:
        """Sorted ids of the triangles a tile may cover now (do not mutate the list)."""
        if self._legal is None:
            self._legal = scan_legal_triangles(self)
            self._legal_set = set(self._legal)
        return self._legal

    def _update_legal(self, triangle: int) -> None:
        legal, legal_set = self._legal, self._legal_set
        if legal is None:
            return
        y2 = 2 * (triangle // 2)
        for relative in NEARBY_TRIANGLES[triangle % 2]:
            other = y2 + relative
            if self.is_legal(other):
                if other not in legal_set:
                    legal_set.add(other)
                    insort(legal, other)
            elif other in legal_set:
                legal_set.discard(other)
                del legal[bisect_left(legal, other)]


def scan_legal_triangles(city: City) -> list[int]:
    """All legal triangles by a full scan of every triangle touching the city or its border."""
    cells = set(city.top)
    for cell in city.top:
        cells.update(cell + step for step in STEP)
    candidates = {2 * cell + relative for cell in cells for relative in TRIANGLES_OF_CELL}
    return sorted(t for t in candidates if city.is_legal(t))
